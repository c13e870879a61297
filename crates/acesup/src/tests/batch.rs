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
