//! The tests of `random_play.rs`: the module `random_play::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::game::Game;
use crate::position::Position;
use crate::strategies::Strategy;

/// The piles, the stock and the discards (sorted: a round of discards has no
/// order of its own) of a position.
fn end(pos: &Position) -> (Vec<Vec<Card>>, Vec<Card>, Vec<Card>) {
    let mut discards = pos.discards().to_vec();
    discards.sort();
    let piles = (0..pos.piles()).map(|p| pos.pile(p).to_vec()).collect();
    (piles, pos.stock().to_vec(), discards)
}

/// [`discardable`] says of every card what R2.1 says by the rules' own test
/// (`rules::stronger_bits`), for sets of up to five top cards under both rank
/// orders, with and without an empty pile's [`NONE`] among them.
#[test]
fn discardable_is_the_rules_discard_test() {
    let mut rng = Rng::new(7);
    for rules in [Rules::standard(), Rules::reverse()] {
        let deck = rules.deck();
        for _ in 0..20_000 {
            let count = 1 + rng.below(5) as usize;
            let tops: Vec<Card> = (0..count)
                .map(|_| deck[rng.below(deck.len() as u64) as usize])
                .collect();
            let rules_tops = tops
                .iter()
                .fold(0, |m, &c| m | rules::top_bit(c, rules.ace_high));
            let codes = tops
                .iter()
                .fold(0, |m, &c| m | bit(usize::from(card_code(c, &rules))));
            for empty in [0, NONE_BIT] {
                let gone = discardable(codes | empty);
                for &card in &tops {
                    let by_rules = rules_tops
                        & rules::stronger_bits(rules::top_bit(card, rules.ace_high))
                        != 0;
                    let code = usize::from(card_code(card, &rules));
                    assert_eq!(gone & bit(code) != 0, by_rules, "{card} among {tops:?}");
                }
                assert_eq!(gone & !(codes | NONE_BIT), 0, "only top cards go");
            }
        }
    }
}

/// Random's own loop plays what `Random.play_out` plays on the dealt position
/// (itself checked against choosing move after move): the same score and end,
/// on many games of the standard rules, for which the loop is compiled apart,
/// and on a few of every rule set of the family.
#[test]
fn plays_what_the_position_loop_plays() {
    let mut cases = vec![(Rules::standard(), 20_000)];
    cases.extend(rules::all_rules().into_iter().map(|rules| (rules, 40)));
    for (rules, games) in cases {
        let mut table = RandomTable::new(rules);
        for i in 0..games {
            let score = table.play(3, i);
            let game = Game::from_seed(game_seed(3, i), rules);
            let (mut pos, mut rng) = (game.position().clone(), *game.rng());
            Random.play_out(&mut pos, &mut rng);
            assert_eq!(score, pos.score(), "game {i} under {rules}");
            let fast = table.position();
            fast.check_invariants();
            assert_eq!(end(&fast), end(&pos), "game {i} under {rules}");
        }
    }
}

/// The standard game with its choices taken out: the shuffle, the deals and the
/// forced discards of this loop (the game of a player who never fills an empty
/// pile), its score. A yardstick for [`RandomTable::play`], which does all of
/// this in every game and chooses, fills and discards more besides (a game of
/// its own, so a measure, not a proof, of how fast the loop could be).
fn deals_and_discards(table: &mut RandomTable, seed: u64, index: u64) -> usize {
    const P: usize = 4;
    let mut rng = table.shuffle(seed, index);
    let mut hot =
        CodesInRegisters::<P>::first_deal(&mut table.below, &mut table.depth, &table.cards);
    let mut next = P;
    loop {
        hot.discard_rounds(&table.below);
        if next == 52 {
            table.top = hot.top.map(|code| code as u8);
            return 52 - (0..P).map(|p| table.height(p)).sum::<usize>();
        }
        rng.skip(1);
        hot.deal_all(&mut table.below, &mut table.depth, &table.cards, next);
        next += P;
    }
}

/// `cargo test --release -p acesup random_play::tests::floor -- --ignored
/// --nocapture`: nanoseconds a game of the random play-out and of its choiceless
/// yardstick (`deals_and_discards`) on one thread, the best of 5 runs of
/// `ACESUP_BENCH_GAMES` games (default 10⁶) each, alternated.
#[test]
#[ignore]
fn floor() {
    let games = std::env::var("ACESUP_BENCH_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(1_000_000u64);
    let mut table = RandomTable::new(Rules::standard());
    let (mut random, mut floor) = (f64::MAX, f64::MAX);
    let (mut random_sum, mut floor_sum) = (0, 0);
    for _ in 0..5 {
        let start = std::time::Instant::now();
        random_sum = (0..games).map(|i| table.play(2, i)).sum::<usize>();
        random = random.min(start.elapsed().as_secs_f64());
        let start = std::time::Instant::now();
        floor_sum = (0..games)
            .map(|i| deals_and_discards(&mut table, 2, i))
            .sum::<usize>();
        floor = floor.min(start.elapsed().as_secs_f64());
    }
    let ns = |secs: f64| secs * 1e9 / games as f64;
    println!(
        "random {:.1} ns a game (cards discarded {random_sum}), deals and discards only {:.1} ns a game ({floor_sum})",
        ns(random),
        ns(floor)
    );
}
