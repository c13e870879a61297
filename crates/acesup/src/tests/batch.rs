//! The tests of `batch.rs`: the module `batch::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;

/// The standard numbering of BATCH.md, and masks that agree with the legal moves.
#[test]
fn standard_layout_and_masks() {
    let spaces = Spaces::new(&Rules::standard());
    assert_eq!((spaces.num_actions(), spaces.observation_size()), (17, 105));
    assert_eq!(spaces.moves[4], Move::fill(0, 1, 0).unwrap());
    assert_eq!(spaces.moves[7], Move::fill(1, 0, 0).unwrap());
    for (action, &mv) in spaces.moves.iter().enumerate() {
        assert_eq!(spaces.action(mv), action);
    }
    let easy = Spaces::new(&Rules::easy());
    assert_eq!(easy.num_actions(), 4 + 12 * 13 + 1);
    for (action, &mv) in easy.moves.iter().enumerate() {
        assert_eq!(easy.action(mv), action);
    }
}

/// A history keeps its actions in order past the ones kept in place, and forgets
/// them all when cleared.
#[test]
fn histories_keep_their_actions() {
    let actions: Vec<u8> = (0..3 * INLINE_ACTIONS as u8).collect();
    let mut history = History::of(&actions);
    assert_eq!(history.to_vec(), actions);
    history.clear();
    history.push(7);
    assert_eq!(history.to_vec(), [7]);
}

/// Under layouts and options that move cards in every way a step can (fills by
/// index, single cards relocated, deals to the empty piles, five piles, no
/// forced discards, no stock: games over at their start, dealt one slot after
/// another), random legal actions: each row written in place equals the
/// row written afresh, and each mask the legal moves numbered by `action`, which
/// `action_mask_of` (a Game's mask) gives too for a slot whose game is played.
#[test]
fn rows_in_place_equal_rows_afresh() {
    let texts = [
        "easy",
        "fill=any,relocate_single=true",
        "russian_aces",
        "piles=5,deal=any",
        "suits=2,ranks=5,deal=stuck",
        "suits=2,ranks=2",
    ];
    let mut draw = 0x9e37_79b9_7f4a_7c15_u64;
    for text in texts {
        for auto in [true, false] {
            let rules = Rules::parse(text).unwrap();
            let n = 9;
            let mut batch = Batch::new(n, rules, 3, 0, 400, auto, false).unwrap();
            let (o, a) = (batch.spaces.observation_size(), batch.spaces.num_actions());
            while !batch.done() {
                for slot in 0..n {
                    let pos = &batch.slots[slot].pos;
                    let row = &batch.observation[slot * o..(slot + 1) * o];
                    assert_eq!(row, batch.spaces.observation_of(pos), "{text}");
                    let mut mask = vec![0; a];
                    if batch.slots[slot].active {
                        for mv in rules::legal_moves(pos) {
                            mask[batch.spaces.action(mv)] = 1;
                        }
                    }
                    assert_eq!(mask, batch.mask[slot * a..(slot + 1) * a], "{text}");
                    if batch.slots[slot].active {
                        assert_eq!(batch.spaces.action_mask_of(pos), mask, "{text}");
                    }
                }
                let actions: Vec<u8> = (0..n)
                    .map(|slot| {
                        let row = &batch.mask[slot * a..(slot + 1) * a];
                        let legal: Vec<usize> = (0..a).filter(|&x| row[x] == 1).collect();
                        draw ^= draw << 13;
                        draw ^= draw >> 7;
                        draw ^= draw << 17;
                        let pick = (draw % legal.len().max(1) as u64) as usize;
                        legal.get(pick).map_or(0, |&x| x as u8)
                    })
                    .collect();
                batch.step(&actions).unwrap();
            }
        }
    }
}

/// Playing the first legal action to the end covers the run exactly and gives
/// what simulate's first-legal play gives, at any slot count, in parallel too.
#[test]
fn a_run_covers_its_games_and_replays() {
    for n in [1, 7, PARALLEL_SLOTS + 5] {
        let games = n as u128 + 300;
        let mut batch = Batch::new(n, Rules::easy(), 5, 10, games, true, true).unwrap();
        let a = batch.spaces.num_actions();
        while !batch.done() {
            let actions: Vec<u8> = (0..n)
                .map(|i| {
                    let row = &batch.mask[i * a..(i + 1) * a];
                    row.iter().position(|&b| b == 1).unwrap_or(0) as u8
                })
                .collect();
            batch.step(&actions).unwrap();
            // The replayed game shows what the slot shows (the order of the
            // discards aside: forced discards are played in rounds).
            let o = batch.spaces.observation_size();
            for slot in [0, n / 2, n - 1] {
                let mut row = vec![0; o];
                batch.spaces.observe(batch.game(slot).position(), &mut row);
                assert_eq!(row, batch.observation[slot * o..(slot + 1) * o]);
            }
        }
        let (stats, scores) = batch.stats();
        assert_eq!(stats.games(), games);
        assert_eq!(scores.unwrap().len() as u128, games);
        let twin = Batch::restore(Rules::easy(), 5, 10, games, true, batch.state()).unwrap();
        assert_eq!(twin.state(), batch.state());
        assert_eq!(twin.observation, batch.observation);
        assert!(batch.step(&vec![0; n]).is_err());
    }
}

/// The rules that a [`ChanceGame`] is tried under: deals of every kind (short last
/// deals, deals to the empty piles, deals only when stuck), fills by index, five
/// piles, a reversed order.
const CHANCE_RULES: [&str; 6] = [
    "standard",
    "easy",
    "strict,deal=stuck",
    "reverse",
    "deal_to=empty,fill=any",
    "piles=5",
];

/// Random chance draws and random legal actions, under each of [`CHANCE_RULES`]
/// with and without forced discards: chance's outcomes are the unseen cards, the
/// legal actions are the legal moves numbered, and the game ends as a [`Game`]
/// dealt from the cards drawn ends after the same actions (and the first legal
/// discard until none, with `auto_discard`); replaying the history gives it again.
#[test]
fn chance_games_play_as_games_of_the_cards_drawn() {
    let mut rng = crate::Rng::new(5);
    for text in CHANCE_RULES {
        let rules = Rules::parse(text).unwrap();
        for auto_discard in [true, false] {
            for _ in 0..20 {
                let mut chance = ChanceGame::new(rules, auto_discard);
                let mut actions = Vec::new();
                while chance.turn() != Turn::Over {
                    let legal = chance.legal_actions();
                    if chance.turn() == Turn::Chance {
                        let dealt: Vec<u8> = chance.dealt().to_vec();
                        let unseen: Vec<u8> = (0..rules.deck_size() as u8)
                            .filter(|c| !dealt.contains(c))
                            .collect();
                        assert_eq!(legal, unseen);
                        assert_eq!(chance.chance_outcomes().collect::<Vec<_>>(), unseen);
                    } else {
                        let pos = chance.position().unwrap();
                        let numbered: Vec<u8> = pos
                            .legal_moves()
                            .into_iter()
                            .map(|mv| chance.spaces().action(mv) as u8)
                            .collect();
                        assert_eq!(legal, numbered);
                        assert_eq!(chance.chance_outcomes().count(), 0);
                    }
                    let pick = legal[rng.below(legal.len() as u64) as usize];
                    if chance.turn() == Turn::Player {
                        actions.push(pick);
                    }
                    chance.apply(i64::from(pick)).unwrap();
                }
                assert!(chance.legal_actions().is_empty());
                let deck: Vec<Card> = chance
                    .dealt()
                    .iter()
                    .map(|&c| rules.deck()[usize::from(c)])
                    .collect();
                let mut game = Game::from_deck(&deck, rules, 0).unwrap();
                let forced = |game: &mut Game| {
                    while let Some(p) = auto_discard
                        .then(|| rules::first_discard(game.position()))
                        .flatten()
                    {
                        game.play(Move::Discard(p as u8)).unwrap();
                    }
                };
                forced(&mut game);
                for &action in &actions {
                    game.play(chance.spaces().moves[usize::from(action)])
                        .unwrap();
                    forced(&mut game);
                }
                assert!(game.is_over());
                assert_eq!(game.to_text(), chance.position().unwrap().to_text());
                assert_eq!(chance.score(), game.score());
                let again = ChanceGame::replay(rules, auto_discard, chance.history()).unwrap();
                assert_eq!(again.position(), chance.position());
                assert_eq!(again.dealt(), chance.dealt());
            }
        }
    }
}

/// A chance action that is not a card or a card already dealt, and a player's
/// action out of range or illegal, are refused with the game unchanged.
#[test]
fn chance_games_refuse_bad_actions_unchanged() {
    let mut chance = ChanceGame::new(Rules::standard(), true);
    assert_eq!(
        chance.observation()[..chance.spaces().piles * chance.spaces().max_height],
        [-1; 4 * 13]
    );
    assert_eq!(chance.observation().last(), Some(&52));
    chance.apply(5).unwrap();
    for (bad, message) in [
        (5, "chance action 5 is 7c, which is already dealt"),
        (
            52,
            "chance action 52 is not a card: the card codes are 0 to 51",
        ),
        (
            -1,
            "chance action -1 is not a card: the card codes are 0 to 51",
        ),
    ] {
        let before = chance.clone();
        let error = chance.apply(bad).unwrap_err();
        assert_eq!(
            (error.kind, error.message.as_str()),
            (ErrorKind::Value, message)
        );
        assert_eq!(
            (chance.dealt(), chance.pending(), chance.history()),
            (before.dealt(), before.pending(), before.history())
        );
    }
    for code in [0, 13, 26] {
        chance.apply(code).unwrap();
    }
    assert_eq!(chance.turn(), Turn::Player);
    let before = chance.clone();
    let error = chance.apply(17).unwrap_err();
    assert_eq!(
        (error.kind, error.message.as_str()),
        (
            ErrorKind::Value,
            "action must be an int from 0 to 16, got 17"
        )
    );
    let illegal = (0..17)
        .find(|a| !chance.legal_actions().contains(&(*a as u8)))
        .unwrap();
    assert_eq!(
        chance.apply(illegal).unwrap_err().kind,
        ErrorKind::IllegalMove
    );
    assert_eq!(
        (chance.position(), chance.history()),
        (before.position(), before.history())
    );
    chance.apply(16).unwrap();
    assert_eq!((chance.turn(), chance.pending()), (Turn::Chance, 4));
    assert!(chance.text().ends_with("dealing 4 more"));
}
