//! The action space and the observation space of a [`super::Batch`] (BATCH.md
//! "Actions" and "Observations"): the number of each move, and the codes of an
//! observation row and a legal-action mask.

use crate::cards::DECK_SIZE;
use crate::moves::{Move, MAX_PILES};
use crate::position::Position;
use crate::rules::{self, LegalMoves, Rules, Tableau};

/// The action space and the observation space of one set of rules (BATCH.md
/// "Actions" and "Observations").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spaces {
    /// P, the number of piles.
    pub piles: usize,
    /// H = 1 + ⌈(D − P) / P⌉, the most cards a pile can hold.
    pub max_height: usize,
    /// K, the fill indices that have actions: H under `fill="any"` and `"stack"`, else 1.
    pub fill_indices: usize,
    /// The move of each action, in R3 order.
    pub moves: Vec<Move>,
    /// The code of each card index: its place in the layout's deck (-1 off the layout).
    code: [i8; DECK_SIZE],
    deck_size: usize,
    /// The action of each fill `(src, dst)` with index 0 (the others follow it).
    fill_first: [[u8; MAX_PILES]; MAX_PILES],
}

impl Spaces {
    pub fn new(rules: &Rules) -> Spaces {
        let piles = usize::from(rules.piles);
        let deck = rules.deck();
        let max_height = 1 + (deck.len() - piles).div_ceil(piles);
        let fill_indices = if matches!(rules.fill, rules::FillRule::Any | rules::FillRule::Stack) {
            max_height
        } else {
            1
        };
        let mut moves: Vec<Move> = (0..piles).map(|p| Move::Discard(p as u8)).collect();
        for src in 0..piles {
            for dst in (0..piles).filter(|&dst| dst != src) {
                moves.extend((0..fill_indices).map(|index| Move::Fill {
                    src: src as u8,
                    dst: dst as u8,
                    index: index as u64,
                }));
            }
        }
        moves.push(Move::Deal);
        let mut code = [-1; DECK_SIZE];
        for (k, card) in deck.iter().enumerate() {
            code[card.index()] = k as i8;
        }
        let mut fill_first = [[0; MAX_PILES]; MAX_PILES];
        for (action, &mv) in moves.iter().enumerate().rev() {
            if let Move::Fill { src, dst, .. } = mv {
                fill_first[usize::from(src)][usize::from(dst)] = action as u8;
            }
        }
        Spaces {
            piles,
            max_height,
            fill_indices,
            moves,
            code,
            deck_size: deck.len(),
            fill_first,
        }
    }

    /// A, the number of actions (at most 5 + 20 · 11 + 1 = 226: an action fits a u8).
    pub fn num_actions(&self) -> usize {
        self.moves.len()
    }

    /// The length of an observation row: P·H pile cells, D discard flags, the stock count.
    pub fn observation_size(&self) -> usize {
        self.piles * self.max_height + self.deck_size + 1
    }

    /// The action of `mv`, a move these rules can name (a pile below P, an index below K).
    #[cfg(test)]
    pub(super) fn action(&self, mv: Move) -> usize {
        let p = self.piles;
        match mv {
            Move::Discard(pile) => usize::from(pile),
            Move::Fill { src, dst, index } => {
                let (src, dst) = (usize::from(src), usize::from(dst));
                let d = if dst < src { dst } else { dst - 1 };
                p + (src * (p - 1) + d) * self.fill_indices + index as usize
            }
            Move::Deal => self.moves.len() - 1,
            Move::ToReserve(_) | Move::FromReserve(_) => unreachable!("a Batch has no reserve"),
        }
    }

    /// Writes the observation row of `pos` into `row`.
    #[inline]
    pub(super) fn observe(&self, pos: &Position, row: &mut [i8]) {
        let grid = self.piles * self.max_height;
        row[..grid].fill(-1);
        row[grid..].fill(0);
        for p in 0..self.piles {
            self.write_pile(pos, p, row);
        }
        self.write_discards(pos, row, 0);
    }

    /// Brings `row`, the observation of a position that had discarded `score`
    /// cards, up to date for `pos`, the same game after the moves of one step.
    ///
    /// A step changes a pile only at its top, but for the one card that a fill under
    /// `fill="any"` may take from below: its action adds a card on top (a deal, or a
    /// fill into the empty pile; under `fill="stack"` several) or takes one card out
    /// (a fill from the pile; under `fill="stack"` the top ones), and
    /// its discards take top cards. So the cells of a pile above its height are
    /// cleared up to the first that is empty already, and its cards are written from
    /// the top down up to the first cell that holds its card already: the cells
    /// below it are unchanged. A step writes a few cells, not the whole row.
    #[inline]
    pub(super) fn observe_step<const P: usize>(
        &self,
        pos: &Position,
        row: &mut [i8],
        score: usize,
    ) {
        let h = self.max_height;
        for (p, cells) in row[..P * h].chunks_exact_mut(h).enumerate() {
            let height = pos.height(p);
            for cell in cells[height..].iter_mut().take_while(|cell| **cell != -1) {
                *cell = -1;
            }
            for (cell, card) in cells[..height].iter_mut().rev().zip(pos.cards_from_top(p)) {
                let code = self.code[card.index()];
                if *cell == code {
                    break;
                }
                *cell = code;
            }
        }
        self.write_discards(pos, row, score);
    }

    /// Writes the cells of pile `p` of `pos` over cells that are empty.
    #[inline]
    fn write_pile(&self, pos: &Position, p: usize, row: &mut [i8]) {
        let cells = &mut row[p * self.max_height..(p + 1) * self.max_height];
        for (cell, card) in cells[..pos.height(p)]
            .iter_mut()
            .rev()
            .zip(pos.cards_from_top(p))
        {
            *cell = self.code[card.index()];
        }
    }

    /// Sets the flags of the discards of `pos` from the `score`-th on (the discards
    /// only ever grow) and writes the stock count.
    #[inline]
    fn write_discards(&self, pos: &Position, row: &mut [i8], score: usize) {
        let flags = &mut row[self.piles * self.max_height..];
        for card in &pos.discards()[score..] {
            flags[self.code[card.index()] as usize] = 1;
        }
        flags[self.deck_size] = pos.stock_left() as i8;
    }

    /// The observation row of `pos`, in a new vector: the row a [`super::Batch`]
    /// shows for a slot in that position, and `Game.observation` in Python.
    pub fn observation_of(&self, pos: &Position) -> Vec<i8> {
        let mut row = vec![0; self.observation_size()];
        self.observe(pos, &mut row);
        row
    }

    /// The legal-action mask of `pos`, in a new vector (1 where the action is legal,
    /// else 0): the row a [`super::Batch`] shows for a slot in that position (whose
    /// game is still played), and `Game.action_mask` in Python.
    pub fn action_mask_of(&self, pos: &Position) -> Vec<u8> {
        let mut row = vec![0; self.num_actions()];
        self.mask(&LegalMoves::of(pos), &mut row);
        row
    }

    /// The legal actions of `legal`, ascending (the R3 order of its moves).
    #[inline]
    pub(super) fn legal_actions(&self, legal: &LegalMoves) -> impl Iterator<Item = u8> {
        self.action_bits(legal)
            .into_iter()
            .enumerate()
            .flat_map(|(word, bits)| set_bits(bits).map(move |bit| (64 * word + bit) as u8))
    }

    /// The legal actions of `legal` as a set of bits (bit a: action a), straight
    /// from its fields: the discards, each fill of a source to each empty pile with
    /// every index it allows, the deal.
    #[inline]
    fn action_bits(&self, legal: &LegalMoves) -> ActionBits {
        let mut bits: ActionBits = [0; 4];
        bits[0] = u64::from(legal.discards);
        if legal.empty != 0 {
            for src in 0..self.piles {
                let choices = usize::from(legal.choices[src]);
                debug_assert!(
                    choices <= self.fill_indices,
                    "a pile taller than the layout allows"
                );
                let mut empty = legal.empty;
                while choices > 0 && empty != 0 {
                    let dst = empty.trailing_zeros() as usize;
                    empty &= empty - 1;
                    let first = usize::from(self.fill_first[src][dst]);
                    for action in first..first + choices {
                        bits[action / 64] |= 1 << (action % 64);
                    }
                }
            }
        }
        let deal = self.moves.len() - 1;
        bits[deal / 64] |= u64::from(legal.deal()) << (deal % 64);
        bits
    }

    /// Writes the legal-action mask of `legal` into `row`: byte a is 1 when action a
    /// is legal, else 0; eight bytes at a time.
    #[inline]
    pub(super) fn mask(&self, legal: &LegalMoves, row: &mut [u8]) {
        let bits = self.action_bits(legal);
        let bit = |action: usize| (bits[action / 64] >> (action % 64)) as u8 & 1;
        let whole = row.len() / 8;
        for k in 0..whole {
            let byte = (bits[k / 8] >> (8 * (k % 8))) as u8;
            row[8 * k..8 * k + 8].copy_from_slice(&SPREAD[usize::from(byte)].to_le_bytes());
        }
        for (action, flag) in row.iter_mut().enumerate().skip(8 * whole) {
            *flag = bit(action);
        }
    }
}

/// The places of the set bits of `bits`, ascending.
#[inline]
pub(super) fn set_bits(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            bit
        })
    })
}

/// A set of actions (A <= 226), bit a of word a / 64 standing for action a.
type ActionBits = [u64; 4];

/// For each byte b, the eight bytes whose j-th is bit j of b: a mask row written
/// eight actions at a time.
const SPREAD: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            table[b] |= ((b as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    table
};

/// The most actions ([`Spaces::num_actions`] on five piles: the discards, 11 fills for
/// each source and destination, the deal) are numbered by a `u8`.
const _: () = assert!(MAX_PILES + MAX_PILES * (MAX_PILES - 1) * 11 < 256);
