//! `relocate_single`'s lone cards (SOLVER.md S7): their arrangement over the light
//! piles does not matter, so the search branches on the arrangements once each.

use super::search::{Search, SearchStep, BLANK, HEAVY};
use super::state::CompactState;
use crate::moves::{Move, MAX_PILES};
use crate::rules::LegalMoves;

impl<const N: usize, const P: usize, const OPEN: bool> Search<'_, N, P, OPEN> {
    /// S7: while the stock lasts under `relocate_single`, with a pile empty, the
    /// light piles (empty, or holding one card that may fill an empty pile) as a
    /// mask; 0 when S7 does not apply.
    pub(super) fn light_piles(&self, s: &CompactState<N, P>) -> u8 {
        if !self.ctx.rules.relocate_single || self.ctx.stock_left(s) == 0 || s.empty() == 0 {
            return 0;
        }
        (0..P).fold(0, |m, p| {
            let light = s.heights[p] == 0 || (s.heights[p] == 1 && self.ctx.fill_choices(s, p) > 0);
            m | u8::from(light) << p
        })
    }

    /// S7: the deal from every arrangement of the lone cards over the light piles,
    /// and each fill from a heavy pile: into the first empty pile when another empty
    /// one remains, else from every arrangement, into its empty pile.
    pub(super) fn expand_arrangements(
        &mut self,
        s: &CompactState<N, P>,
        legal: LegalMoves,
        light: u8,
        lone: &[u8],
    ) {
        // The buffer is taken for the while, so that the steps can grow meanwhile.
        let mut layouts = std::mem::take(&mut self.buffers.layouts);
        arrangements(light, lone, &mut layouts);
        if legal.deal() {
            self.buffers
                .steps
                .extend(layouts.iter().map(|&layout| SearchStep::Arranged {
                    layout,
                    mv: Move::Deal,
                }));
        }
        let spare = light.count_ones() as usize - lone.len();
        let first_empty = legal.empty.trailing_zeros() as u8;
        for src in 0..P as u8 {
            if s.heights[usize::from(src)] < 2 {
                continue;
            }
            for index in 0..u64::from(legal.choices[usize::from(src)]) {
                if spare >= 2 {
                    self.buffers.steps.push(SearchStep::Play(Move::Fill {
                        src,
                        dst: first_empty,
                        index,
                    }));
                } else {
                    for &layout in &layouts {
                        let dst = layout.iter().position(|&c| c == BLANK).unwrap_or(0) as u8;
                        self.buffers.steps.push(SearchStep::Arranged {
                            layout,
                            mv: Move::Fill { src, dst, index },
                        });
                    }
                }
            }
        }
        self.buffers.layouts = layouts;
    }

    /// S7: relocate lone cards (legal fills) until the light piles hold `layout`.
    pub(super) fn arrange(&mut self, s: &mut CompactState<N, P>, layout: &[u8; MAX_PILES]) {
        let lone =
            |s: &CompactState<N, P>, p: usize| (s.heights[p] == 1).then(|| s.card_from_top(p, 0));
        loop {
            let misplaced = (0..P).fold(0u8, |m, p| {
                let wrong = layout[p] != HEAVY && lone(s, p).is_some_and(|c| layout[p] != c);
                m | u8::from(wrong) << p
            });
            if misplaced == 0 {
                return;
            }
            let any = misplaced.trailing_zeros() as usize;
            // A misplaced card whose place is free goes there; if none is, the
            // misplaced cards fill each other's places, and one of them steps aside.
            let (src, dst) = (0..P)
                .filter(|&q| misplaced >> q & 1 == 1)
                .find_map(|q| {
                    let card = lone(s, q)?;
                    let dst = layout.iter().position(|&c| c == card)?;
                    (s.heights[dst] == 0).then_some((q, dst))
                })
                .unwrap_or_else(|| {
                    (
                        any,
                        (0..P)
                            .find(|&p| layout[p] != HEAVY && s.heights[p] == 0)
                            .unwrap_or(0),
                    )
                });
            self.play(
                s,
                Move::Fill {
                    src: src as u8,
                    dst: dst as u8,
                    index: 0,
                },
            );
        }
    }
}

/// The cards of the light piles that hold one, in pile order, and their number.
pub(super) fn lone_cards<const N: usize, const P: usize>(
    s: &CompactState<N, P>,
    light: u8,
) -> ([u8; P], usize) {
    let mut lone = [0; P];
    let mut n = 0;
    for p in (0..P).filter(|&p| light >> p & 1 == 1 && s.heights[p] == 1) {
        lone[n] = s.piles[p][0];
        n += 1;
    }
    (lone, n)
}

/// S7: every way to place the `lone` cards on the `light` piles, one card a pile at
/// most, as layouts in `out` (see [`SearchStep::Arranged`]; piles past the rules' are
/// heavy).
pub(super) fn arrangements(light: u8, lone: &[u8], out: &mut Vec<[u8; MAX_PILES]>) {
    let mut places = [0; MAX_PILES];
    let mut n = 0;
    for p in (0..MAX_PILES).filter(|&p| light >> p & 1 == 1) {
        places[n] = p;
        n += 1;
    }
    let slots = &places[..n];
    out.clear();
    let mut layout = [HEAVY; MAX_PILES];
    fn place(
        k: usize,
        slots: &[usize],
        lone: &[u8],
        layout: &mut [u8; MAX_PILES],
        out: &mut Vec<[u8; MAX_PILES]>,
    ) {
        if k == lone.len() {
            let mut done = *layout;
            for &p in slots {
                if done[p] == HEAVY {
                    done[p] = BLANK;
                }
            }
            out.push(done);
            return;
        }
        for &p in slots {
            if layout[p] == HEAVY {
                layout[p] = lone[k];
                place(k + 1, slots, lone, layout, out);
                layout[p] = HEAVY;
            }
        }
    }
    place(0, slots, lone, &mut layout, out);
}
