//! The exact optimum without clairvoyance (docs/OPTIMAL.md): the probability that
//! a perfect player who never sees the stock wins a uniformly random deal, by
//! expectimax over the visible positions, and the `"optimal"` strategy that plays
//! from its table.
//!
//! A visible position is the piles and the set of unseen cards (the stock, whose
//! order is uniform; the discards are the cards in neither). A decision takes the
//! best move; a deal is a chance node that averages over the ordered tuples of
//! unseen cards it may put on its piles. Values are exact: a position with n
//! unseen cards stores its probability of a win times n!, an integer (a deal of k
//! cards sums the values of its n!/(n-k)! outcomes, each scaled by (n-k)!).
//!
//! The memo holds the chance nodes (just before a deal) and, under
//! `deal_to="empty"`, the positions that start a round (just after one), each
//! under a canonical key: the least encoding over the relabellings of the suits
//! and the permutations of the piles that the next deals cannot tell apart, of
//! the position with each suit's cards in play lifted onto its highest ranks (all
//! three proved to keep the value in OPTIMAL.md). The moves within a round are searched
//! with a memo of the round's own. The chance nodes run their outcomes on rayon's
//! threads.

use crate::cards::Card;
use crate::hash::{BuildKeyHasher, KeyHasher};
use crate::moves::{Move, MAX_PILES};
use crate::position::Position;
use crate::rules::{self, DealTo, FillRule, LegalMoves, Rules, Tableau};
use crate::{Error, ErrorKind, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The largest deck the tables can hold: 5 bits a card in a key's 128 bits of
/// piles, and n! of the stock below 2⁶⁴ (20 cards).
pub const MAX_DECK: usize = 24;

/// The bytes of memory to allow a position of the memo: more than twice the 98
/// that one takes at the peak over 4,400,000 positions of `suits=4,ranks=4` (its
/// key and value in a shard's hash map, with the map's spare room), for the
/// rounds' own memos and a map's doubling. `acesup.resources` divides the memory
/// available by it for the default `max_states`.
pub const STATE_BYTES: u64 = 256;

/// The largest deck the `"optimal"` strategy computes a table for, within
/// minutes on two cores (RESULTS.md, the frontier).
pub const STRATEGY_MAX_DECK: usize = 16;

/// The `ValueError` of a layout whose deck is larger than `most` cards.
pub fn out_of_reach(rules: &Rules, most: usize) -> Error {
    Error::new(
        ErrorKind::Value,
        format!(
            "the exact optimum is out of reach for {} suits x {} ranks ({} cards): it is computed for decks of at most {most} cards",
            rules.suits,
            rules.ranks,
            rules.deck_size()
        ),
    )
}

/// The `MemoryError` of a computation that would store more than `most` positions.
pub fn over_limit(rules: &Rules, most: u64) -> Error {
    Error::new(
        ErrorKind::Memory,
        format!(
            "the exact optimum for {} suits x {} ranks on {} piles needs more than max_states={most} positions in memory",
            rules.suits, rules.ranks, rules.piles
        ),
    )
}

/// What a computation reports while it runs, read by another thread: the opening
/// deals (distinct up to symmetry) solved of those there are, and the positions
/// stored. `cancel` stops it (the bindings raise it on Ctrl-C); so does storing
/// more than `max_states` positions, which sets `exceeded`.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub total: AtomicU64,
    pub states: AtomicU64,
    pub cancel: AtomicBool,
    /// The most positions the memo may hold (`None`: no limit).
    pub max_states: Option<u64>,
    pub exceeded: AtomicBool,
}

impl Progress {
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// The exact optimum: `numerator / denominator` (denominator D!, not reduced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimum {
    pub numerator: u128,
    pub denominator: u128,
    /// The positions in the memo (chance nodes, and round starts under
    /// `deal_to="empty"`).
    pub states: u64,
}

/// The exact optimum of `rules`, on rayon's threads of the caller's pool when
/// `parallel` (see [`ValueTable::compute`]); `None` when `progress.cancel` stopped it.
/// `ValueError` for a deck of more than [`MAX_DECK`] cards, `MemoryError`
/// ([`over_limit`]) past `progress.max_states` positions.
pub fn optimal(rules: Rules, parallel: bool, progress: &Progress) -> Result<Option<Optimum>> {
    Ok(ValueTable::compute(rules, parallel, progress)?.map(|table| table.optimum))
}

// ---------------------------------------------------------------------------
// Visible positions

/// A visible position: the piles (card indices, bottom to top) and the unseen
/// cards (bit i for card index i). `Copy`: the search copies instead of undoing.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Visible {
    rules: Rules,
    heights: [u8; MAX_PILES],
    piles: [[u8; MAX_DECK]; MAX_PILES],
    unseen: u64,
}

impl Tableau for Visible {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn height(&self, p: usize) -> usize {
        usize::from(self.heights[p])
    }

    fn card_from_top(&self, p: usize, index: usize) -> Card {
        Card::new(self.piles[p][self.height(p) - 1 - index])
    }

    fn top_bit(&self, p: usize) -> u64 {
        match self.height(p) {
            0 => 0,
            _ => rules::top_bit(self.card_from_top(p, 0), self.rules.ace_high),
        }
    }

    fn tops(&self) -> u64 {
        (0..usize::from(self.rules.piles)).fold(0, |m, p| m | self.top_bit(p))
    }

    fn stock_left(&self) -> usize {
        self.unseen.count_ones() as usize
    }

    fn empty_piles(&self) -> usize {
        (0..usize::from(self.rules.piles))
            .filter(|&p| self.heights[p] == 0)
            .count()
    }
}

impl Visible {
    /// Before the first deal: every pile empty, every card unseen.
    fn start(rules: Rules) -> Visible {
        Visible {
            rules,
            heights: [0; MAX_PILES],
            piles: [[0; MAX_DECK]; MAX_PILES],
            unseen: rules.deck().iter().fold(0, |m, c| m | 1 << c.index()),
        }
    }

    /// What a player sees of `pos`: its piles and the set of its stock's cards.
    fn of(pos: &Position) -> Visible {
        let mut v = Visible {
            unseen: pos.stock().iter().fold(0, |m, c| m | 1 << c.index()),
            ..Visible::start(pos.rules)
        };
        for p in 0..pos.piles() {
            for &card in pos.pile(p).iter() {
                v.push(p, card.index() as u8);
            }
        }
        v
    }

    fn push(&mut self, p: usize, card: u8) {
        self.piles[p][self.height(p)] = card;
        self.heights[p] += 1;
    }

    /// The position after `mv`, a legal discard or fill.
    fn after(&self, mv: Move) -> Visible {
        let mut v = *self;
        match mv {
            Move::Discard(p) => v.heights[usize::from(p)] -= 1,
            Move::Fill { src, dst, index } if self.rules.fill == FillRule::Stack => {
                // The card at `index` and those above it, in their order.
                let (src, h) = (usize::from(src), v.height(usize::from(src)));
                let at = h - 1 - index as usize;
                for k in at..h {
                    v.push(usize::from(dst), self.piles[src][k]);
                }
                v.heights[src] = at as u8;
            }
            Move::Fill { src, dst, index } => {
                let (src, h) = (usize::from(src), v.height(usize::from(src)));
                let at = h - 1 - index as usize;
                let card = v.piles[src][at];
                v.piles[src].copy_within(at + 1..h, at);
                v.heights[src] -= 1;
                v.push(usize::from(dst), card);
            }
            Move::Deal => unreachable!("a deal is a chance node"),
            Move::ToReserve(_) | Move::FromReserve(_) => {
                unreachable!("the optimum refuses rules with a reserve")
            }
        }
        v
    }

    /// Whether `mv` moves a pile's only card (`relocate_single`), or under
    /// `fill="stack"` a whole pile: it only renames piles.
    fn relocates(&self, mv: Move) -> bool {
        let moved = |index: u64| match self.rules.fill {
            FillRule::Stack => index + 1,
            _ => 1,
        };
        matches!(mv, Move::Fill { src, index, .. } if u64::from(self.heights[usize::from(src)]) == moved(index))
    }
}

// ---------------------------------------------------------------------------
// Keys and symmetries

/// A position's encoding: the cards of its piles in order, 5 bits each (compact
/// index + 1), and the heights (5 bits each) with the unseen cards (compact bits)
/// above them. Bit 63 marks a chance node (the value of dealing now).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct VisibleKey(u128, u64);

const CHANCE: u64 = 1 << 63;

type KeyMap<V> = HashMap<VisibleKey, V, BuildKeyHasher>;

/// What the keys of a layout need: for each renaming of the suits, each card's
/// new compact index (suit × R + rank place, 0..D).
struct Symmetries {
    rules: Rules,
    /// Every permutation of the S suits (the identity first): `perms[k][s]` is the
    /// new number of suit s under the k-th renaming.
    perms: Vec<[u8; 4]>,
    /// `renames[k][card index]`: the compact index of the card once its suit is
    /// renamed by `perms[k]`.
    renames: Vec<[u8; 52]>,
    /// Each card's suit and rank place (0..R).
    suit_place: [(u8, u8); 52],
    /// `card_at[suit][place]`: the index of the card of that suit and rank place.
    card_at: [[u8; 13]; 4],
    /// `above[card index]`: the cards of its suit above it in the rank order.
    above: [u64; 52],
    /// The layout's cards (bit i for card index i).
    deck: u64,
}

impl Symmetries {
    fn new(rules: Rules) -> Symmetries {
        let ranks = rules.ranks;
        let mut suit_place = [(0, 0); 52];
        let mut card_at = [[0; 13]; 4];
        for card in rules.deck() {
            let place = rules::strength(card, &rules) + ranks - 1 - rules::TOP_STRENGTH;
            suit_place[card.index()] = (card.suit() as u8, place);
            card_at[card.suit()][usize::from(place)] = card.index() as u8;
        }
        let mut above = [0u64; 52];
        for card in rules.deck() {
            let (suit, place) = suit_place[card.index()];
            above[card.index()] = (place + 1..ranks).fold(0, |m, higher| {
                m | 1 << card_at[usize::from(suit)][usize::from(higher)]
            });
        }
        let perms = permutations(usize::from(rules.suits));
        let renames = perms
            .iter()
            .map(|perm| {
                let mut rename = [0u8; 52];
                for card in rules.deck() {
                    let (suit, place) = suit_place[card.index()];
                    rename[card.index()] = perm[usize::from(suit)] * ranks + place;
                }
                rename
            })
            .collect();
        Symmetries {
            rules,
            perms,
            renames,
            suit_place,
            card_at,
            above,
            deck: rules.deck().iter().fold(0, |m, c| m | 1 << c.index()),
        }
    }

    /// `v` with the cards still in play (on the piles or unseen) of each suit
    /// moved up onto the highest ranks of that suit, in their order: the
    /// discarded cards become the lowest. Its value is `v`'s (OPTIMAL.md, ranks):
    /// the rules read the order of the ranks within a suit, the top rank (never
    /// discarded) and the number of discards, and the lift keeps them all.
    fn compress(&self, v: &Visible) -> Visible {
        let piles = usize::from(self.rules.piles);
        let on_piles = (0..piles)
            .flat_map(|p| &v.piles[p][..v.height(p)])
            .fold(0u64, |m, &card| m | 1 << card);
        let gone = self.deck & !v.unseen & !on_piles;
        if gone == 0 {
            return *v;
        }
        let lift = |card: u8| {
            let (suit, place) = self.suit_place[usize::from(card)];
            let up = (gone & self.above[usize::from(card)]).count_ones() as usize;
            self.card_at[usize::from(suit)][usize::from(place) + up]
        };
        let mut c = *v;
        for p in 0..piles {
            for card in &mut c.piles[p][..v.height(p)] {
                *card = lift(*card);
            }
        }
        let mut unseen = v.unseen;
        c.unseen = 0;
        while unseen != 0 {
            c.unseen |= 1 << lift(unseen.trailing_zeros() as u8);
            unseen &= unseen - 1;
        }
        c
    }

    /// A mark of each suit that no symmetry changes (it moves with its suit): for
    /// each rank place, 6 bits saying where that card is: 0 unseen, 1 discarded,
    /// else 2 + its place from the bottom of its pile, plus 25 when that pile is
    /// not in the first group. A pile order within a group changes no mark, and a
    /// renaming of the suits renames the marks with them.
    fn marks(&self, v: &Visible, groups: &[u8; MAX_PILES]) -> [u128; 4] {
        let mut marks = [0u128; 4];
        let mut seen = self.deck & !v.unseen;
        while seen != 0 {
            let (suit, place) = self.suit_place[seen.trailing_zeros() as usize];
            marks[usize::from(suit)] |= 1 << (6 * place);
            seen &= seen - 1;
        }
        for (p, &group) in groups[..usize::from(self.rules.piles)].iter().enumerate() {
            let later = 25 * u128::from(group != 0);
            for (i, &card) in v.piles[p][..v.height(p)].iter().enumerate() {
                let (suit, place) = self.suit_place[usize::from(card)];
                marks[usize::from(suit)] += (1 + i as u128 + later) << (6 * place);
            }
        }
        marks
    }

    /// The groups of piles that the deals to come cannot tell apart (OPTIMAL.md):
    /// `groups[p]` is the first pile of p's group; a group is a run of piles.
    /// Under `deal_to="all"` with a stock of n, the last deal reaches only the first
    /// n mod P piles: those piles form one group and the others another. Under
    /// `"empty"` only an empty stock leaves the piles interchangeable.
    fn groups(&self, stock: usize) -> [u8; MAX_PILES] {
        let piles = usize::from(self.rules.piles);
        let mut groups = [0u8; MAX_PILES];
        let split = match self.rules.deal_to {
            DealTo::All => stock % piles,
            DealTo::Empty if stock == 0 => 0,
            DealTo::Empty => {
                for (p, g) in groups.iter_mut().enumerate() {
                    *g = p as u8;
                }
                return groups;
            }
        };
        for (p, g) in groups.iter_mut().enumerate().take(piles) {
            *g = if p < split { 0 } else { split as u8 };
        }
        groups
    }

    /// The unseen cards of `v` as compact bits, their suits renamed by `rename`.
    fn unseen(v: &Visible, rename: &[u8; 52]) -> u32 {
        let (mut unseen, mut bits) = (v.unseen, 0);
        while unseen != 0 {
            bits |= 1 << rename[unseen.trailing_zeros() as usize];
            unseen &= unseen - 1;
        }
        bits
    }

    /// Each pile's cards, their suits renamed by `rename`, as 5-bit fields (compact
    /// index + 1) from the top of a u128 down, bottom card first: numbers that
    /// order as the sequences do (a pile before its extensions). Bits from
    /// [`GROUP_SHIFT`] up are 0.
    fn codes(&self, v: &Visible, rename: &[u8; 52]) -> [u128; MAX_PILES] {
        let mut codes = [0u128; MAX_PILES];
        for (p, code) in codes
            .iter_mut()
            .enumerate()
            .take(usize::from(self.rules.piles))
        {
            for (i, &card) in v.piles[p][..v.height(p)].iter().enumerate() {
                *code |= u128::from(rename[usize::from(card)] + 1) << (5 * (MAX_DECK - 1 - i));
            }
        }
        codes
    }

    /// The encoding of piles given by their `codes` (group bits ignored), in that
    /// order, and of the `unseen` compact bits.
    fn encode(codes: &[u128], unseen: u32) -> VisibleKey {
        let (mut cards, mut meta) = (0u128, 0u64);
        for &code in codes {
            let code = code & ((1 << GROUP_SHIFT) - 1);
            let height = match code {
                0 => 0,
                _ => MAX_DECK - code.trailing_zeros() as usize / 5,
            };
            for i in 0..height {
                cards = cards << 5 | (code >> (5 * (MAX_DECK - 1 - i)) & 31);
            }
            meta = meta << 5 | height as u64;
        }
        VisibleKey(cards, meta | u64::from(unseen) << 25)
    }

    /// The encoding of `v` as it is, for the memo of a round (no symmetry).
    fn raw(&self, v: &Visible) -> VisibleKey {
        let identity = &self.renames[0];
        let codes = self.codes(v, identity);
        Symmetries::encode(
            &codes[..usize::from(self.rules.piles)],
            Symmetries::unseen(v, identity),
        )
    }

    /// The canonical key of `v`: the encoding of the least renamed position over
    /// the pile orders within each group and the suit renamings that number the
    /// suits in the order of their [`Symmetries::marks`] (ties in any order), compared
    /// by its piles' renamed cards, group by group in sorted order, then by its
    /// renamed unseen cards. For `y` = a symmetry σ of `v`, the renamings allowed
    /// for `y` are those allowed for `v` composed with σ⁻¹ (the marks move with the
    /// suits), so that least position is the same for every position of `v`'s orbit,
    /// and it differs between orbits (it is the position, up to the order of the
    /// piles within a group, which the sort fixes): the key is canonical. The
    /// marks leave one or two of the 24 renamings of four suits to try, mostly.
    fn canonical(&self, v: &Visible) -> VisibleKey {
        let piles = usize::from(self.rules.piles);
        let groups = self.groups(v.stock_left());
        let suits = usize::from(self.rules.suits);
        let marks = self.marks(v, &groups);
        let mut best: Option<([u128; MAX_PILES], u32)> = None;
        for (perm, rename) in self.perms.iter().zip(&self.renames) {
            let keeps_order =
                (0..suits).all(|s| (0..suits).all(|t| marks[s] >= marks[t] || perm[s] < perm[t]));
            if !keeps_order {
                continue;
            }
            let mut codes = self.codes(v, rename);
            for (code, &group) in codes.iter_mut().zip(&groups).take(piles) {
                *code |= u128::from(group) << GROUP_SHIFT;
            }
            codes[..piles].sort_unstable();
            let candidate = (codes, Symmetries::unseen(v, rename));
            if best.is_none_or(|b| candidate < b) {
                best = Some(candidate);
            }
        }
        let (codes, unseen) = best.expect("at least one suit");
        Symmetries::encode(&codes[..piles], unseen)
    }
}

/// Where a pile's group goes above its code ([`Symmetries::codes`]), so that sorting
/// the codes sorts the piles group by group.
const GROUP_SHIFT: usize = 5 * MAX_DECK;

/// Every permutation of `0..n` (n ≤ 4), padded to 4 entries.
fn permutations(n: usize) -> Vec<[u8; 4]> {
    fn extend(prefix: &mut Vec<u8>, n: usize, out: &mut Vec<[u8; 4]>) {
        if prefix.len() == n {
            let mut perm = [0, 1, 2, 3];
            perm[..n].copy_from_slice(prefix);
            out.push(perm);
            return;
        }
        for s in 0..n as u8 {
            if !prefix.contains(&s) {
                prefix.push(s);
                extend(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), n, &mut out);
    out
}

/// Calls `f` on each outcome of the deal from `v`: every ordered tuple of unseen
/// cards on the receiving piles (R2.3), in order of card index.
fn each_outcome(v: &Visible, f: &mut impl FnMut(Visible)) {
    fn place(v: Visible, targets: u8, f: &mut impl FnMut(Visible)) {
        if targets == 0 {
            return f(v);
        }
        let p = targets.trailing_zeros() as usize;
        let mut unseen = v.unseen;
        while unseen != 0 {
            let card = unseen.trailing_zeros() as u8;
            unseen &= unseen - 1;
            let mut next = v;
            next.unseen &= !(1 << card);
            next.push(p, card);
            place(next, targets & (targets - 1), f);
        }
    }
    place(*v, rules::deal_targets(v), f);
}

/// n! (n ≤ 20).
fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

// ---------------------------------------------------------------------------
// The table

/// How many shards the memo is split into, each behind its own lock.
const SHARDS: usize = 256;

/// The memo of a layout, filled by [`ValueTable::compute`]: the values of the round
/// starts and chance nodes, scaled by n!, and the optimum at the root.
pub struct ValueTable {
    symmetries: Symmetries,
    shards: Vec<Mutex<KeyMap<u64>>>,
    /// Whether the chance nodes run their outcomes on rayon's threads (not on a
    /// pool of one thread).
    parallel: bool,
    pub optimum: Optimum,
}

impl ValueTable {
    /// The table of `rules`; `None` when cancelled. With `parallel` the chance
    /// nodes run on rayon's threads (those of the pool the caller installed, or
    /// the global one), else all on the calling thread. `ValueError` for a deck of
    /// more than [`MAX_DECK`] cards, `MemoryError` past `progress.max_states`
    /// positions.
    pub fn compute(
        rules: Rules,
        parallel: bool,
        progress: &Progress,
    ) -> Result<Option<ValueTable>> {
        rules.refuse_reserve("the exact optimum")?;
        if rules.deck_size() > MAX_DECK {
            return Err(out_of_reach(&rules, MAX_DECK));
        }
        let mut table = ValueTable {
            symmetries: Symmetries::new(rules),
            shards: (0..SHARDS).map(|_| Mutex::new(KeyMap::default())).collect(),
            parallel,
            optimum: Optimum {
                numerator: 0,
                denominator: 0,
                states: 0,
            },
        };
        let root = Visible::start(rules);
        let outcomes = table.outcomes(&root);
        progress
            .total
            .store(outcomes.len() as u64, Ordering::Relaxed);
        let value = |&(count, v): &(u64, Visible)| {
            let w = table.round(&v, progress)?;
            progress.done.fetch_add(1, Ordering::Relaxed);
            Some(u128::from(count) * u128::from(w))
        };
        let numerator = if parallel {
            outcomes
                .par_iter()
                .map(value)
                .try_reduce(|| 0, |a, b| Some(a + b))
        } else {
            outcomes
                .iter()
                .map(value)
                .try_fold(0, |a, b| b.map(|b| a + b))
        };
        if let Some(most) = progress
            .max_states
            .filter(|_| progress.exceeded.load(Ordering::Relaxed))
        {
            return Err(over_limit(&rules, most));
        }
        let Some(numerator) = numerator.filter(|_| !progress.cancelled()) else {
            return Ok(None);
        };
        table.optimum = Optimum {
            numerator,
            denominator: (1..=rules.deck_size() as u128).product(),
            states: table.states(),
        };
        Ok(Some(table))
    }

    /// The number of positions in the memo.
    fn states(&self) -> u64 {
        self.shards
            .iter()
            .map(|s| s.lock().expect("memo lock").len() as u64)
            .sum()
    }

    fn shard(&self, key: &VisibleKey) -> &Mutex<KeyMap<u64>> {
        let mut h = KeyHasher::default();
        h.write_u128(key.0);
        h.write_u64(key.1);
        &self.shards[(h.finish() >> 56) as usize % SHARDS]
    }

    fn lookup(&self, key: &VisibleKey) -> Option<u64> {
        self.shard(key).lock().expect("memo lock").get(key).copied()
    }

    fn store(&self, key: VisibleKey, value: u64, progress: &Progress) {
        if self
            .shard(&key)
            .lock()
            .expect("memo lock")
            .insert(key, value)
            .is_none()
        {
            let states = progress.states.fetch_add(1, Ordering::Relaxed) + 1;
            if progress.max_states.is_some_and(|most| states > most) {
                progress.exceeded.store(true, Ordering::Relaxed);
                progress.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The outcomes of the deal from `v`, each once up to symmetry, with how many
    /// of the ordered tuples of unseen cards lead to it.
    fn outcomes(&self, v: &Visible) -> Vec<(u64, Visible)> {
        let mut found: KeyMap<(u64, Visible)> = KeyMap::default();
        let mut order: Vec<VisibleKey> = Vec::new();
        each_outcome(v, &mut |o| {
            let key = self.symmetries.canonical(&o);
            found
                .entry(key)
                .and_modify(|(count, _)| *count += 1)
                .or_insert_with(|| {
                    order.push(key);
                    (1, o)
                });
        });
        order.iter().map(|key| found[key]).collect()
    }

    /// The value of dealing from `v` (scaled by the factorial of its stock): the
    /// sum of its outcomes' values. `None` when cancelled.
    fn chance(&self, v: &Visible, progress: &Progress) -> Option<u64> {
        if progress.cancelled() {
            return None;
        }
        // Its outcomes are those of the compressed position, compressed: a deal
        // discards nothing.
        let v = &self.symmetries.compress(v);
        let mut key = self.symmetries.canonical(v);
        key.1 |= CHANCE;
        if let Some(w) = self.lookup(&key) {
            return Some(w);
        }
        let outcomes = self.outcomes(v);
        let value = |&(count, o): &(u64, Visible)| Some(count * self.round(&o, progress)?);
        let w = if self.parallel && outcomes.len() >= 16 {
            outcomes
                .par_iter()
                .map(value)
                .try_reduce(|| 0, |a, b| Some(a + b))?
        } else {
            outcomes
                .iter()
                .map(value)
                .try_fold(0, |a, b| b.map(|b| a + b))?
        };
        self.store(key, w, progress);
        Some(w)
    }

    /// The value of `v`, a position that starts a round (scaled by n!). Under
    /// `deal_to="all"` it is neither looked up nor stored: the deal before it is
    /// mostly the only way to it (OPTIMAL.md, the search), so the memo would fill
    /// with keys never read again.
    fn round(&self, v: &Visible, progress: &Progress) -> Option<u64> {
        if self.symmetries.rules.deal_to == DealTo::All {
            let w = self.decide(v, &mut KeyMap::default(), progress)?;
            return (!progress.cancelled()).then_some(w);
        }
        let key = self.symmetries.canonical(v);
        if let Some(w) = self.lookup(&key) {
            return Some(w);
        }
        let w = self.decide(v, &mut KeyMap::default(), progress)?;
        if progress.cancelled() {
            return None;
        }
        self.store(key, w, progress);
        Some(w)
    }

    /// The value of `v` within a round: the best of its moves, the deal a chance
    /// node; a won end is worth 1 (0! = 1), a lost one 0. Under `relocate_single`
    /// the positions that lone-card moves reach from each other are searched as
    /// one: those moves can be undone and only rename piles, so they all share a
    /// value, the best of their other moves.
    fn decide(&self, v: &Visible, local: &mut KeyMap<u64>, progress: &Progress) -> Option<u64> {
        let raw = self.symmetries.raw(v);
        if let Some(&w) = local.get(&raw) {
            return Some(w);
        }
        let full = factorial(v.stock_left());
        let mut members = vec![(raw, *v)];
        let mut best = 0;
        let mut i = 0;
        while i < members.len() && best < full {
            let member = members[i].1;
            i += 1;
            let moves = LegalMoves::of(&member);
            if moves.is_empty() {
                best = best.max(u64::from(rules::is_won(&member)));
                continue;
            }
            for mv in moves.iter() {
                let w = match mv {
                    Move::Deal => self.chance(&member, progress)?,
                    _ if member.relocates(mv) => {
                        self.join(&mut members, member.after(mv));
                        continue;
                    }
                    _ => self.decide(&member.after(mv), local, progress)?,
                };
                best = best.max(w);
                if best == full {
                    break;
                }
            }
        }
        for (key, _) in members {
            local.insert(key, best);
        }
        Some(best)
    }

    /// The place of `next`, a position a lone card's move reaches, among the
    /// `members` of a class (by raw key), added at the end when it is new.
    fn join(&self, members: &mut Vec<(VisibleKey, Visible)>, next: Visible) -> usize {
        let key = self.symmetries.raw(&next);
        members
            .iter()
            .position(|(k, _)| *k == key)
            .unwrap_or_else(|| {
                members.push((key, next));
                members.len() - 1
            })
    }

    /// The move a perfect player makes in `pos` (a game not over): the first in R3
    /// order of the moves of the best value other than a lone card's move. Under
    /// `relocate_single`, when the best of the position's class (the positions that
    /// lone-card moves reach from it, which share one value) is had only from other
    /// members, the first lone-card move towards the nearest of them: each such move
    /// brings the player one move closer, so it never moves a card back and forth.
    /// `None` when cancelled.
    pub fn best_move(&self, pos: &Position, progress: &Progress) -> Option<Move> {
        let v = Visible::of(pos);
        let mut local = KeyMap::default();
        // The class, `pos` first; each member's lone-card moves with the member they
        // reach, and its best other move with that move's value.
        let mut members = vec![(self.symmetries.raw(&v), v)];
        let mut links: Vec<Vec<(Move, usize)>> = Vec::new();
        let mut direct: Vec<Option<(Move, u64)>> = Vec::new();
        while links.len() < members.len() {
            let member = members[links.len()].1;
            let (mut own, mut best) = (Vec::new(), None::<(Move, u64)>);
            for mv in LegalMoves::of(&member).iter() {
                if member.relocates(mv) {
                    own.push((mv, self.join(&mut members, member.after(mv))));
                    continue;
                }
                let w = match mv {
                    Move::Deal => self.chance(&member, progress)?,
                    _ => self.decide(&member.after(mv), &mut local, progress)?,
                };
                if best.is_none_or(|(_, b)| w > b) {
                    best = Some((mv, w));
                }
            }
            links.push(own);
            direct.push(best);
        }
        let top = direct.iter().flatten().map(|&(_, w)| w).max()?;
        // How many lone-card moves each member is from one where `top` is had
        // (breadth first: those moves can be undone, so the links go both ways).
        let mut distance = vec![usize::MAX; members.len()];
        let mut queue: Vec<usize> = (0..members.len())
            .filter(|&m| direct[m].is_some_and(|(_, w)| w == top))
            .collect();
        for &m in &queue {
            distance[m] = 0;
        }
        let mut next = 0;
        while let Some(&m) = queue.get(next) {
            next += 1;
            for &(_, j) in &links[m] {
                if distance[j] == usize::MAX {
                    distance[j] = distance[m] + 1;
                    queue.push(j);
                }
            }
        }
        if distance[0] == 0 {
            return direct[0].map(|(mv, _)| mv);
        }
        links[0]
            .iter()
            .find(|&&(_, j)| distance[j] + 1 == distance[0])
            .map(|&(mv, _)| mv)
    }
}

/// The `StrategyError` of a layout that the `"optimal"` strategy does not play: a
/// deck of more than [`STRATEGY_MAX_DECK`] cards.
pub(crate) fn refusal(rules: &Rules) -> Option<Error> {
    (rules.deck_size() > STRATEGY_MAX_DECK).then(|| {
        let error = out_of_reach(rules, STRATEGY_MAX_DECK);
        Error::new(
            ErrorKind::Strategy,
            format!("strategy 'optimal': {}", error.message),
        )
    })
}

/// The tables of the `"optimal"` strategy, computed once per layout.
static TABLES: Mutex<Vec<(Rules, Arc<ValueTable>)>> = Mutex::new(Vec::new());

/// The table of `rules` for the `"optimal"` strategy, computed on all cores the
/// first time (cancelled by `progress.cancel`: `Ok(None)`), then kept.
/// `StrategyError` for a deck of more than [`STRATEGY_MAX_DECK`] cards.
pub fn strategy_table(rules: Rules, progress: &Progress) -> Result<Option<Arc<ValueTable>>> {
    refusal(&rules).map_or(Ok(()), Err)?;
    if let Some((_, table)) = TABLES
        .lock()
        .expect("tables lock")
        .iter()
        .find(|(r, _)| *r == rules)
    {
        return Ok(Some(table.clone()));
    }
    let Some(table) = ValueTable::compute(rules, true, progress)? else {
        return Ok(None);
    };
    let table = Arc::new(table);
    TABLES
        .lock()
        .expect("tables lock")
        .push((rules, table.clone()));
    Ok(Some(table))
}

#[cfg(test)]
#[path = "tests/optimal.rs"]
mod tests;
