//! The solver's tests: the generators of positions and the helpers they share; the
//! tests themselves by subject in the modules below.

use super::arrangements::{arrangements, lone_cards};
use super::context::StockContext;
use super::quick::QUICK_NODES;
use super::search::{Search, BLANK, HEAVY};
use super::solvability::seeded_position;
use super::state::{CompactState, LARGE, NO_CARD};
use super::table::{TableKey, TranspositionTable, GENERATION_BITS};
use super::{
    plain_search, solvability, solve, solve_quickly, verdicts, Limits, Solution, Solvability,
    Solver,
};
use crate::cards::Card;
use crate::moves::{Move, MAX_PILES};
use crate::position::Position;
use crate::rng::{shuffle_slice, Rng};
use crate::rules::{self, DealRule, DealTo, FillRule, Rules};
use crate::stats::Stats;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The piles of the standard layout, of every test that is not of the family.
const PILES: usize = 4;

/// Rules drawn at random from the whole family (R1.4, R5): 4 or 5 piles, 1-4
/// suits, 2-13 ranks with at least a card a pile, every fill, deal, deal_to,
/// relocate_single and ace_high.
fn random_rules(rng: &mut Rng) -> Rules {
    loop {
        let rules = Rules {
            fill: [FillRule::Top, FillRule::Ace, FillRule::Any][rng.below(3) as usize],
            deal: [DealRule::Free, DealRule::Stuck, DealRule::Any][rng.below(3) as usize],
            relocate_single: rng.below(2) == 1,
            ace_high: rng.below(2) == 1,
            piles: 4 + rng.below(2) as u8,
            suits: 1 + rng.below(4) as u8,
            ranks: 2 + rng.below(12) as u8,
            deal_to: [DealTo::All, DealTo::Empty][rng.below(2) as usize],
            reserve: 0,
        };
        if rules.validate().is_ok() {
            return rules;
        }
    }
}

/// Positions of the family: a random layout and options, a shuffled deck, then
/// random legal moves until the stock holds `stock` cards or fewer (and a few
/// more moves at random, so that the endgame is met too).
fn family_positions(count: usize, seed: u64, stock: usize) -> Vec<Position> {
    family_positions_of(count, seed, stock, |rules| rules)
}

/// [`family_positions`] with the rules drawn passed through `adjust`.
fn family_positions_of(
    count: usize,
    seed: u64,
    stock: usize,
    adjust: impl Fn(Rules) -> Rules,
) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let rules = adjust(random_rules(&mut rng));
            let mut deck = rules.deck();
            shuffle_slice(&mut deck, &mut rng);
            let mut pos = Position::from_deck(&deck, rules);
            let extra = rng.below(4);
            let mut played = 0;
            while pos.stock().len() > stock || played < extra {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.apply(moves[rng.below(moves.len() as u64) as usize]);
                played += u64::from(pos.stock().len() <= stock);
            }
            pos
        })
        .collect()
}

/// Random positions of the family with tall piles (a pile may hold every card
/// left), a short stock of a length a deal can leave, and some discards.
fn family_tall_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| {
            let rules = random_rules(&mut rng);
            let (d, piles) = (rules.deck_size(), usize::from(rules.piles));
            let mut deck = rules.deck();
            shuffle_slice(&mut deck, &mut rng);
            // Under deal_to="all" the stock is 0 or D − P − kP cards (R6.5).
            let stock_len = match rules.deal_to {
                DealTo::All => (d - piles) % piles + piles * rng.below(2) as usize,
                DealTo::Empty => rng.below(6) as usize,
            }
            .min(d - piles);
            let mut tableau = vec![Vec::new(); piles];
            let (mut stock, mut discards) = (Vec::new(), Vec::new());
            for &card in &deck {
                if stock.len() < stock_len {
                    stock.push(card);
                } else if discards.len() < d / 2 && !rules::is_top_rank(card, &rules) {
                    discards.push(card);
                } else {
                    let spread = if i % 3 == 0 { 1 } else { piles as u64 };
                    tableau[rng.below(spread) as usize].push(card);
                }
            }
            Position::from_parts(rules, &tableau, &stock, &discards, &[]).expect("a whole deck")
        })
        .collect()
}

/// `f` of the search state of `pos` for its number of piles.
macro_rules! with_piles {
    ($pos:expr, $p:ident => $body:expr) => {
        if $pos.rules.piles == 4 {
            const $p: usize = 4;
            $body
        } else {
            const $p: usize = MAX_PILES;
            $body
        }
    };
}

// After the macro, which the modules use.
mod keys;
mod lines;
mod plain;
mod prunings;
mod quick;
mod stack;
mod verdicts;

fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for fill in [FillRule::Top, FillRule::Ace, FillRule::Any] {
        for deal in [DealRule::Free, DealRule::Stuck] {
            for relocate_single in [false, true] {
                for ace_high in [true, false] {
                    out.push(Rules {
                        fill,
                        deal,
                        relocate_single,
                        ace_high,
                        ..Rules::standard()
                    });
                }
            }
        }
    }
    out
}

/// `f` given a search of `pos` (not started).
fn with_search<const P: usize, R>(
    pos: &Position,
    f: impl FnOnce(&mut Search<LARGE, P, false>) -> R,
) -> R {
    with_open_search::<P, false, R>(pos, f)
}

/// [`with_search`] compiled for `deal="any"` (`OPEN`) or not.
fn with_open_search<const P: usize, const OPEN: bool, R>(
    pos: &Position,
    f: impl FnOnce(&mut Search<LARGE, P, OPEN>) -> R,
) -> R {
    let (ctx, limits) = (StockContext::of(pos), Limits::default());
    let (mut solver, mut frames) = (Solver::new(), Vec::new());
    f(&mut Search::<LARGE, P, OPEN>::new(
        &ctx,
        &mut solver.buffers,
        &mut frames,
        &limits,
    ))
}

/// Positions met by playing seeded games under every rule set at random, taken
/// once the stock holds `stock` cards or fewer.
fn positions(count: usize, seed: u64, stock: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let rules = all_rules();
    (0..count as u64)
        .map(|i| {
            let mut pos = seeded_position(seed, i, rules[i as usize % rules.len()]);
            while pos.stock().len() > stock {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.apply(moves[rng.below(moves.len() as u64) as usize]);
            }
            pos
        })
        .collect()
}

/// Positions with one to three deals left (the stock holds 12 cards or fewer).
fn late_positions(count: usize, seed: u64) -> Vec<Position> {
    positions(count, seed, 12)
}

/// Random positions with tall piles (up to 52 cards in one), a short stock and
/// some discards, under every rule set: the places of a pile are then [`LARGE`].
fn tall_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let rules = all_rules();
    (0..count)
        .map(|i| {
            let rules = rules[i % rules.len()];
            let mut deck = rules.deck();
            crate::rng::shuffle_slice(&mut deck, &mut rng);
            let stock_len = 4 * rng.below(3) as usize;
            let mut piles: [Vec<Card>; PILES] = Default::default();
            let (mut stock, mut discards) = (Vec::new(), Vec::new());
            for &card in &deck {
                if stock.len() < stock_len {
                    stock.push(card);
                } else if discards.len() < 30 && !rules::is_top_rank(card, &rules) {
                    discards.push(card);
                } else {
                    piles[rng.below(if i % 3 == 0 { 1 } else { 4 }) as usize].push(card);
                }
            }
            Position::from_parts(rules, &piles, &stock, &discards, &[]).expect("52 cards")
        })
        .collect()
}

fn check_line(pos: &Position, s: &Solution) {
    if s.winnable == Some(true) {
        let mut end = pos.clone();
        for &mv in &s.moves {
            end.play(mv)
                .unwrap_or_else(|e| panic!("{mv}: {e} in {}", end.to_text()));
        }
        assert!(end.is_won(), "{}", pos.to_text());
    } else {
        assert!(s.moves.is_empty());
    }
}

/// The solver's verdict and line on each of `positions` that the plain search
/// settles within 200,000 positions, checked against it: their rules and verdicts.
fn check_against_the_plain_search(positions: Vec<Position>) -> Vec<(Rules, bool)> {
    check_verdicts(positions, true)
}

/// [`check_against_the_plain_search`]; `ask_tests`: whether S13, S15 and S17 are
/// asked of every position too (not under `fill="stack"`, whose search does not
/// use them).
fn check_verdicts(positions: Vec<Position>, ask_tests: bool) -> Vec<(Rules, bool)> {
    positions
        .into_iter()
        .filter_map(|pos| {
            let expected = plain_search(&pos, Some(200_000))?;
            let s = solve(&pos, &Limits::default());
            assert_eq!(s.winnable, Some(expected), "{}", pos.to_text());
            check_line(&pos, &s);
            // The search asks its tests only at some positions (SOLVER.md,
            // *Where the tests look*): asked here of every one.
            assert!(
                !(ask_tests && expected && condemned(&pos)),
                "{}",
                pos.to_text()
            );
            Some((pos.rules, expected))
        })
        .collect()
}

/// Whether the tests that condemn a position (S13, S15, S17: `Search::lost`)
/// condemn `pos`.
fn condemned(pos: &Position) -> bool {
    fn under<const P: usize>(pos: &Position) -> bool {
        let s = CompactState::<LARGE, P>::of(pos);
        match pos.rules.deal {
            DealRule::Any => with_open_search::<P, true, _>(pos, |search| search.lost(&s)),
            _ => with_open_search::<P, false, _>(pos, |search| search.lost(&s)),
        }
    }
    match pos.rules.piles {
        4 => under::<4>(pos),
        _ => under::<5>(pos),
    }
}

/// `rules` with kpat's and PySolFC's options: `fill="top"`, `deal="any"`,
/// `relocate_single`.
fn kpat_options(rules: Rules) -> Rules {
    Rules {
        fill: FillRule::Top,
        deal: DealRule::Any,
        relocate_single: true,
        ..rules
    }
}

/// Endgames: a card c, the lowest of its suit in play, on top of another card, a
/// stronger card of its suit on top of another pile, often a pile empty, the
/// top-rank cards and a few others in play, and a stock of a length a deal can
/// leave, at most three deals; the rules drawn by `draw`. The other generators
/// seldom make these, and [`ONCE_WRONG`]'s positions are of this kind.
fn sparse_positions(count: usize, seed: u64, draw: impl Fn(&mut Rng) -> Rules) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut all = Vec::new();
    while all.len() < count {
        let rules = draw(&mut rng);
        let (piles, deck) = (usize::from(rules.piles), rules.deck());
        let strength = |x: Card| rules::strength(x, &rules);
        let top_rank = |x: &Card| rules::is_top_rank(*x, &rules);
        let low: Vec<Card> = deck.iter().copied().filter(|x| !top_rank(x)).collect();
        let c = low[rng.below(low.len() as u64) as usize];
        let stronger: Vec<Card> = deck
            .iter()
            .copied()
            .filter(|&x| x.suit() == c.suit() && strength(x) > strength(c))
            .collect();
        let h = stronger[rng.below(stronger.len() as u64) as usize];
        // c is the lowest card of its suit in play; the top-rank cards all are.
        let mut others: Vec<Card> = low
            .iter()
            .copied()
            .filter(|&x| x != c && x != h)
            .filter(|&x| x.suit() != c.suit() || strength(x) > strength(c))
            .collect();
        shuffle_slice(&mut others, &mut rng);
        others.truncate(4 + rng.below(9) as usize);
        others.extend(deck.iter().copied().filter(|x| top_rank(x) && *x != h));
        shuffle_slice(&mut others, &mut rng);
        if others.len() < 2 * piles {
            continue;
        }
        let (empty, with_c) = (
            rng.below(piles as u64) as usize,
            rng.below(piles as u64) as usize,
        );
        let mut tableau = vec![Vec::new(); piles];
        for p in (0..piles).filter(|&p| p != empty) {
            let height = if p == with_c {
                1
            } else {
                1 + rng.below(2) as usize
            };
            tableau[p].extend(others.drain(others.len() - height..));
        }
        tableau[(empty + 1 + rng.below(piles as u64 - 1) as usize) % piles].push(h);
        tableau[if with_c == empty {
            (empty + 1) % piles
        } else {
            with_c
        }]
        .push(c);
        // Under deal_to="all" the stock is 0 or D − P − kP cards (R6.5).
        let stock = match rules.deal_to {
            DealTo::All => {
                let base = (deck.len() - piles) % piles;
                others.len().checked_sub(base).map_or(0, |room| {
                    base + piles * (room / piles).min(1 + rng.below(3) as usize)
                })
            }
            DealTo::Empty => others.len().min(1 + rng.below(8) as usize),
        };
        tableau[(empty + 2) % piles].splice(0..0, others.drain(stock..));
        let placed: Vec<Card> = tableau.iter().flatten().chain(&others).copied().collect();
        let discards: Vec<Card> = deck
            .iter()
            .copied()
            .filter(|x| !placed.contains(x))
            .collect();
        if let Ok(pos) = Position::from_parts(rules, &tableau, &others, &discards, &[]) {
            all.push(pos);
        }
    }
    all
}

/// The positions along the winning line that a quick search (20,000 positions)
/// finds from kpat deal n, from the deal to the end; none when it finds none.
fn kpat_line(n: i128) -> Vec<Position> {
    let deck = crate::deals::deck_from_kpat(n).unwrap();
    let mut pos = Position::from_deck(&deck, Rules::kpat());
    let quick = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let moves = solve(&pos, &quick).moves;
    let mut line = Vec::new();
    for mv in moves {
        line.push(pos.clone());
        pos.apply(mv);
    }
    if !line.is_empty() {
        line.push(pos);
    }
    line
}

/// Walk `steps` positions from `pos`, each after a random legal move: how many
/// of them `condemns`, each checked to be no win for the plain search.
fn condemned_on_a_walk(
    mut pos: Position,
    steps: usize,
    rng: &mut Rng,
    condemns: impl Fn(&Position) -> bool,
) -> usize {
    let mut condemned = 0;
    for _ in 0..steps {
        if condemns(&pos) {
            condemned += 1;
            assert_ne!(
                plain_search(&pos, Some(200_000)),
                Some(true),
                "{}",
                pos.to_text()
            );
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.apply(moves[rng.below(moves.len() as u64) as usize]);
    }
    condemned
}
