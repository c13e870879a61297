//! The certified upper bound on the optimum without clairvoyance (docs/BOUND.md):
//! an information relaxation with penalties (Brown, Smith and Sun, 2010). A player
//! who sees the stock is charged `W(after) − E[W(after) | before]` at each deal; the
//! penalties have mean zero for every player who does not see it, so the mean over
//! stock orders of the clairvoyant's best (won − penalties) bounds the optimum from
//! above, for any W. The same as `acesup.reference.bound`, operation for operation,
//! so that both engines give the same floats.

use crate::cards::Card;
use crate::deals::deck_from_seed_and_stream;
use crate::hash::BuildKeyHasher;
use crate::moves::{Move, MAX_PILES};
use crate::optimal::Progress;
use crate::position::Position;
use crate::rng::{game_seed, shuffle_slice, Rng};
use crate::rules::{self, Rules};
use crate::run::Pool;
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// The value function W of a visible position (the piles and the unseen cards).
pub enum Value {
    /// W = 0: every penalty is 0, and the bound is the clairvoyant share.
    Zero,
    /// `acesup.bound.feature_table`: the value of a position with s cards in the
    /// stock, c on the piles and d piles that may discard is
    /// `table[(s · (D + 1) + c) · (P + 1) + d]`.
    Features(Vec<f64>),
    /// The exact value where no stock is left (the game is then determined: 1 if
    /// it can still be won, else 0, the inner search's own value there), 0
    /// elsewhere: `value="strong"`.
    Endgame,
}

/// The cards of a visible position that W reads: the top card of each pile (None
/// for an empty one), the cards on the piles and the cards unseen.
pub(crate) struct Visible {
    tops: [Option<Card>; MAX_PILES],
    on_piles: usize,
    unseen: usize,
}

impl Value {
    /// W of `v` under `rules`, when it is read from the features alone (not for
    /// [`Value::Endgame`] with no stock left).
    fn of(&self, rules: &Rules, v: &Visible) -> f64 {
        match self {
            Value::Zero | Value::Endgame => 0.0,
            Value::Features(table) => {
                let (s, c, d) = features(rules, v);
                table[(s * (rules.deck_size() + 1) + c) * (usize::from(rules.piles) + 1) + d]
            }
        }
    }

    /// Whether W of a position with no stock is the search's value there.
    fn exact_at_the_end(&self) -> bool {
        matches!(self, Value::Endgame)
    }
}

/// The features of the fitted W: the cards in the stock, the cards on the piles
/// and the piles that may discard (R2.1).
pub(crate) fn features(rules: &Rules, v: &Visible) -> (usize, usize, usize) {
    let discardable = (0..usize::from(rules.piles))
        .filter(|&p| v.tops[p].is_some_and(|card| outranked(rules, &v.tops, p, card)))
        .count();
    (v.unseen, v.on_piles, discardable)
}

/// Whether `card`, on top of pile p, may be discarded (R2.1) among `tops`.
fn outranked(rules: &Rules, tops: &[Option<Card>; MAX_PILES], p: usize, card: Card) -> bool {
    (0..usize::from(rules.piles)).any(|q| {
        q != p
            && tops[q].is_some_and(|other| {
                other.index() / 13 == card.index() / 13
                    && rules::strength(other, rules) > rules::strength(card, rules)
            })
    })
}

/// The search of one stock order: the best (won − penalties) from each position,
/// memoised on the piles and the cards dealt, which fix the position.
pub(crate) struct InnerSearch<'a> {
    rules: Rules,
    value: &'a Value,
    /// The orders of the layout's deck that sampled expectations use.
    orders: Vec<Vec<Card>>,
    samples: Option<u32>,
    memo: HashMap<[u8; 64], f64, BuildKeyHasher>,
    progress: &'a Progress,
}

/// A key byte that no card index takes: the end of a pile.
const PILE_END: u8 = 0xFF;

impl InnerSearch<'_> {
    /// The memo's key of `pos`: each pile's cards, bottom to top, each pile ended
    /// by [`PILE_END`], then the number of cards in the stock (at most 52 cards and 5
    /// ends and 1: 58 bytes).
    fn key(pos: &Position) -> [u8; 64] {
        let mut key = [0u8; 64];
        let mut at = 0;
        for p in 0..pos.piles() {
            for card in pos.pile(p).iter() {
                key[at] = card.index() as u8;
                at += 1;
            }
            key[at] = PILE_END;
            at += 1;
        }
        key[at] = pos.stock().len() as u8;
        key
    }

    /// E[W(after) | before] for a deal from `pos` (None for the empty piles
    /// before the first deal, `unseen` being the deck) onto the piles `receiving` (a
    /// bit mask): exact over the ordered tuples of unseen cards, in lexicographic
    /// order of the sorted cards, when there are at most `samples` of them; else
    /// the mean over the deals that the drawn orders make (each order, restricted to
    /// the unseen cards, is a uniform order of them). None once cancelled.
    fn expected(&mut self, pos: Option<&Position>, receiving: u8, unseen: &[Card]) -> Option<f64> {
        let targets: Vec<usize> = (0..MAX_PILES)
            .filter(|&p| receiving >> p & 1 == 1)
            .collect();
        let k = targets.len();
        let n = unseen.len();
        let count = (n - k + 1..=n).try_fold(1u64, |acc, m| acc.checked_mul(m as u64));
        let exact = match (self.samples, count) {
            (None, _) => true,
            (Some(most), Some(count)) => count <= u64::from(most),
            (Some(_), None) => false,
        };
        let deals: Vec<Vec<Card>> = if exact {
            let mut sorted = unseen.to_vec();
            sorted.sort_by_key(|card| card.index());
            let mut deals = Vec::new();
            for_each_tuple(&sorted, k, 0, &mut Vec::with_capacity(k), &mut |cards| {
                deals.push(cards.to_vec())
            });
            deals
        } else {
            let mask = unseen
                .iter()
                .fold(0u64, |mask, card| mask | 1 << card.index());
            let pick = |order: &Vec<Card>| {
                order
                    .iter()
                    .copied()
                    .filter(|c| mask >> c.index() & 1 == 1)
                    .take(k)
                    .collect()
            };
            self.orders.iter().map(pick).collect()
        };
        let before = pos.map_or(
            Visible {
                tops: [None; MAX_PILES],
                on_piles: 0,
                unseen: n,
            },
            visible,
        );
        let mut total = 0.0;
        for cards in &deals {
            total += if n == k && self.value.exact_at_the_end() {
                let mut after = match pos {
                    Some(pos) => {
                        let mut after = pos.clone();
                        after.set_stock_order(cards);
                        after.deal();
                        after
                    }
                    None => Position::from_deck(cards, self.rules),
                };
                self.best(&mut after)?
            } else {
                let mut after = Visible {
                    tops: before.tops,
                    on_piles: before.on_piles + k,
                    unseen: n - k,
                };
                for (&p, &card) in targets.iter().zip(cards) {
                    after.tops[p] = Some(card);
                }
                self.value.of(&self.rules, &after)
            };
        }
        Some(total / deals.len() as f64)
    }

    /// W of `pos`, a position right after a deal. None once cancelled.
    fn w(&mut self, pos: &mut Position) -> Option<f64> {
        if pos.stock().is_empty() && self.value.exact_at_the_end() {
            self.best(pos)
        } else {
            Some(self.value.of(&self.rules, &visible(pos)))
        }
    }

    /// The most that won (1 or 0) less the penalties of the deals to come can be
    /// from `pos`, over every line of play; None once `progress.cancel` is set.
    fn best(&mut self, pos: &mut Position) -> Option<f64> {
        let key = InnerSearch::key(pos);
        if let Some(&known) = self.memo.get(&key) {
            return Some(known);
        }
        if self.memo.len().is_multiple_of(4096) && self.progress.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let moves = pos.legal_moves();
        let mut best = if moves.is_empty() {
            Some(if pos.is_won() { 1.0 } else { 0.0 })
        } else {
            None
        };
        for mv in moves {
            let gain = if mv == Move::Deal {
                let unseen = pos.stock().to_vec();
                let expected = self.expected(Some(pos), rules::deal_targets(pos), &unseen)?;
                pos.apply(mv);
                let charged = self.w(pos).map(|w| expected - w);
                let rest = self.best(pos);
                pos.unapply(mv);
                charged? + rest?
            } else {
                pos.apply(mv);
                let rest = self.best(pos);
                pos.unapply(mv);
                rest?
            };
            if best.is_none_or(|b| gain > b) {
                best = Some(gain);
            }
        }
        let best = best.expect("a position with moves has a best one");
        self.memo.insert(key, best);
        Some(best)
    }

    /// The objective of the whole game dealt from `deck`: the first deal (from
    /// empty piles, every card unseen) is charged too.
    fn root(&mut self, deck: &[Card]) -> Option<f64> {
        let piles = usize::from(self.rules.piles);
        let expected = self.expected(None, (1u8 << piles) - 1, deck)?;
        let mut start = Position::from_deck(deck, self.rules);
        let opening = self.w(&mut start)?;
        Some(expected - opening + self.best(&mut start)?)
    }
}

/// What W reads of `pos`.
fn visible(pos: &Position) -> Visible {
    let mut tops = [None; MAX_PILES];
    for (p, top) in tops.iter_mut().enumerate().take(pos.piles()) {
        *top = pos.top(p);
    }
    Visible {
        tops,
        on_piles: (0..pos.piles()).map(|p| pos.height(p)).sum(),
        unseen: pos.stock().len(),
    }
}

/// Calls `f` on every ordered `k`-tuple of distinct cards of `cards` (at most 64),
/// in the order of Python's `itertools.permutations(cards, k)`.
fn for_each_tuple(
    cards: &[Card],
    k: usize,
    used: u64,
    tuple: &mut Vec<Card>,
    f: &mut impl FnMut(&[Card]),
) {
    if tuple.len() == k {
        f(tuple);
        return;
    }
    for (i, &card) in cards.iter().enumerate() {
        if used >> i & 1 == 0 {
            tuple.push(card);
            for_each_tuple(cards, k, used | 1 << i, tuple, f);
            tuple.pop();
        }
    }
}

/// The `samples` orders of the layout's deck that a game's sampled expectations
/// use: its deck in index order shuffled `samples` times in turn by the game's
/// strategy stream `rng` (RNG.md), which continues the shuffle of its deck.
pub(crate) fn sample_orders(rng: &mut Rng, rules: &Rules, samples: Option<u32>) -> Vec<Vec<Card>> {
    (0..samples.unwrap_or(0))
        .map(|_| {
            let mut order = rules.deck();
            shuffle_slice(&mut order, rng);
            order
        })
        .collect()
}

/// What a deal is charged: W, and how many deals an expectation may enumerate
/// before it is sampled (`None`: always enumerated).
pub struct Penalty {
    pub value: Value,
    pub samples: Option<u32>,
}

/// The per-game values (in game order) and the positions searched in all.
pub struct Bound {
    pub values: Vec<f64>,
    pub nodes: u64,
}

/// The bound's per-game values over games `start .. start + games` of master seed
/// `seed` (game i dealt as `Game.from_seed(game_seed(seed, i), rules)`), on `pool`;
/// `progress.done` counts the games done and `progress.states` the positions
/// searched. `None` when `progress.cancel` stopped it. The rules must not have
/// `relocate_single` (the bindings refuse it).
pub fn upper_bound(
    rules: Rules,
    seed: u64,
    start: u64,
    games: u64,
    penalty: &Penalty,
    pool: &Pool,
    progress: &Progress,
) -> Option<Bound> {
    progress.total.store(games, Ordering::Relaxed);
    let (values, nodes) = pool.fold(
        games,
        || (Some(Vec::new()), 0u64),
        || (),
        |_, (values, nodes), i| {
            let Some(list) = values else { return };
            let (deck, mut rng) = deck_from_seed_and_stream(game_seed(seed, start + i), &rules);
            let mut inner = InnerSearch {
                rules,
                value: &penalty.value,
                orders: sample_orders(&mut rng, &rules, penalty.samples),
                samples: penalty.samples,
                memo: HashMap::default(),
                progress,
            };
            match inner.root(&deck) {
                Some(v) => list.push(v),
                None => *values = None,
            }
            *nodes += inner.memo.len() as u64;
            progress
                .states
                .fetch_add(inner.memo.len() as u64, Ordering::Relaxed);
            progress.done.fetch_add(1, Ordering::Relaxed);
        },
        |(a, m), (b, n)| {
            let joined = a.zip(b).map(|(mut a, b)| {
                a.extend(b);
                a
            });
            (joined, m + n)
        },
    );
    values.map(|values| Bound { values, nodes })
}

#[cfg(test)]
#[path = "tests/bound.rs"]
mod tests;
