//! The built-in strategies (docs/STRATEGIES.md).
//!
//! A strategy is a [`Strategy`]: given a position and the game's strategy stream, it
//! picks the next move. Every built-in but random plays the forced discards first
//! and implements [`Decide`] for the rest, which makes it a [`Strategy`].
//! [`Builtin`] names the built-ins and parses their `"name:key=value,..."` specs.
//! To add one: write a type that implements [`Decide`] (or [`Strategy`]), add a
//! variant to [`Builtin`] and to the `each_builtin!` macro, its name to
//! [`builtin_names`], and an arm to [`Builtin::parse`] that reads its parameters
//! with [`Params`].
//!
//! The words of STRATEGIES.md are functions here, as in the reference engine:
//! [`real_fills`], [`deal_or_first_real_fill`] and [`lookahead_ends`]; the forced
//! discards are [`Position::discard_forced`].

use crate::cards::{py_repr, strip, Card, DECK_SIZE};
use crate::hash::BuildKeyHasher;
use crate::moves::{Move, MAX_PILES};
use crate::optimal;
use crate::position::{PlayOut, Position};
use crate::rng::{shuffle_slice, Rng};
use crate::rules::{self, by_piles, FillRule, LegalMoves, Rules};
use crate::run::cancel;
use crate::solver::{Limits, Solver};
use crate::{Error, ErrorKind, Result};
use std::cell::RefCell;
use std::collections::HashSet;

/// Decides the next move of a game.
pub trait Strategy: Sync {
    /// The move to play in `pos`, or `None` when the game is over (no legal move).
    /// Random decisions draw from `rng`, the game's strategy stream, and nothing else,
    /// so that a seed gives the same game in both engines and at any thread count.
    fn choose(&self, pos: &Position, rng: &mut Rng) -> Option<Move>;

    /// Play `pos` to its end as playing `choose` move after move would: the same
    /// moves but for the order of the forced discards, which a faster loop may play
    /// in rounds (see [`Position::discard_forced`]); so the same decisions, draws,
    /// end position (but the order of its discards) and score.
    fn play_out(&self, pos: &mut Position, rng: &mut Rng) {
        while let Some(mv) = self.choose(pos, rng) {
            pos.apply(mv);
        }
    }

    /// Whether this is `"random"`, whose seeded games `simulate` plays by a loop of
    /// its own (the module `random_play`).
    #[inline]
    fn is_random(&self) -> bool {
        false
    }
}

/// A built-in that plays the forced discards first (STRATEGIES.md, "Common
/// ground": the first legal discard in R3 order) and decides only the other moves.
/// Every `Decide` is a [`Strategy`].
pub trait Decide: Sync {
    /// The move to play in `pos`, a game that is not over and in which no discard
    /// is legal; `moves` are its legal moves.
    fn decide(&self, pos: &Position, moves: &LegalMoves, rng: &mut Rng) -> Move;

    /// The draws that `decide` makes when the deal is the only legal move, so that
    /// `play_out` may deal without asking: none for a deterministic strategy.
    #[inline]
    fn draws_for_a_forced_deal(&self, _rng: &mut Rng) {}

    /// The move that `decide` plays, with the same draws, when the legal moves
    /// alone (and the stream) settle it, so that `play_out` may decide without
    /// storing its registers ([`PlayOut::decide_from_moves`]); None (the default)
    /// when it must read the position.
    #[inline]
    fn decide_from_moves(&self, _moves: &LegalMoves, _rng: &mut Rng) -> Option<Move> {
        None
    }

    /// [`Strategy::is_random`].
    #[inline]
    fn is_random(&self) -> bool {
        false
    }
}

impl<D: Decide> Strategy for D {
    #[inline]
    fn choose(&self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        let moves = LegalMoves::of(pos);
        if let Some(p) = moves.first_discard() {
            return Some(Move::Discard(p as u8));
        }
        if moves.is_empty() {
            return None;
        }
        Some(self.decide(pos, &moves, rng))
    }

    /// The hot loop of `simulate` and of montecarlo's play-outs: `choose`, with the
    /// forced discards played in rounds and the commonest decision short-cut: with
    /// no discard and no empty pile, the deal is the only legal move, if any (a fill
    /// needs an empty pile). Compiled once per number of piles.
    #[inline]
    fn play_out(&self, pos: &mut Position, rng: &mut Rng) {
        by_piles!(pos.rules(), P => play_out_piles::<Self, P>(self, pos, rng))
    }

    #[inline]
    fn is_random(&self) -> bool {
        Decide::is_random(self)
    }
}

/// [`Strategy::play_out`] of a [`Decide`] for a layout of `P` piles.
#[inline]
fn play_out_piles<D: Decide + ?Sized, const P: usize>(
    strategy: &D,
    pos: &mut Position,
    rng: &mut Rng,
) {
    pos.play_out_piles::<P>(&mut StrategyWithStream { strategy, rng });
}

/// A [`Decide`] and its game's stream, as [`Position::play_out_piles`] asks them.
struct StrategyWithStream<'a, D: ?Sized> {
    strategy: &'a D,
    rng: &'a mut Rng,
}

impl<D: Decide + ?Sized> PlayOut for StrategyWithStream<'_, D> {
    #[inline]
    fn forced_deal(&mut self) {
        self.strategy.draws_for_a_forced_deal(self.rng);
    }

    #[inline]
    fn decide(&mut self, pos: &Position, moves: &LegalMoves) -> Move {
        self.strategy.decide(pos, moves, self.rng)
    }

    #[inline]
    fn decide_from_moves(&mut self, moves: &LegalMoves) -> Option<Move> {
        self.strategy.decide_from_moves(moves, self.rng)
    }
}

/// `"random"`: after the forced discards, a uniformly random legal move, with one
/// draw `below(len(moves))` per decision, even when only one move is legal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Decide for Random {
    #[inline]
    fn decide(&self, _pos: &Position, moves: &LegalMoves, rng: &mut Rng) -> Move {
        Random::pick(moves, rng)
    }

    #[inline]
    fn decide_from_moves(&self, moves: &LegalMoves, rng: &mut Rng) -> Option<Move> {
        Some(Random::pick(moves, rng))
    }

    /// `below(1)`, which is always 0 and always takes one `next_u64()`.
    #[inline]
    fn draws_for_a_forced_deal(&self, rng: &mut Rng) {
        rng.skip(1);
    }

    #[inline]
    fn is_random(&self) -> bool {
        true
    }
}

impl Random {
    /// Random's choice among `moves`, which are not empty.
    #[inline]
    pub(crate) fn pick(moves: &LegalMoves, rng: &mut Rng) -> Move {
        // Counted, not listed: `nth` finds the move that `legal_moves()[i]` would be.
        let i = rng.below(moves.len() as u64);
        moves.nth(i as usize)
    }
}

/// The legal fills that leave a card on their source pile, in R3 order: every
/// fill but the lone-card relocations of `relocate_single` and, under
/// `fill="stack"`, the moves of a whole pile. Given `moves`, the legal moves
/// of `pos`: lookahead and greedy have them already, and ask at every node.
pub(crate) fn real_fills(pos: &Position, moves: LegalMoves) -> RealFills {
    let mut choices = moves.choices;
    if pos.rules.fill == FillRule::Stack {
        // The whole pile is the choice at index height − 1: never a real one.
        for (src, choice) in choices.iter_mut().enumerate().take(pos.piles()) {
            *choice = (*choice).min(pos.height(src).saturating_sub(1) as u8);
        }
    }
    let sources = (0..pos.piles()).fold(0, |sources, src| {
        let real = (pos.height(src) >= 2) & (choices[src] > 0) & (moves.empty != 0);
        sources | u8::from(real) << src
    });
    RealFills {
        sources,
        empty: moves.empty,
        choices,
        dsts: moves.empty,
        index: 0,
    }
}

/// The real fills, listed source by source, then by destination and index (the
/// order of [`LegalMoves::nth`]) rather than found one by one. Invariant: while
/// `sources` (the sources of two or more cards with a choice, still to list) is
/// not 0, the next fill is from its lowest pile onto the lowest pile of `dsts`
/// (the empty piles it has still to go to), of the card at `index`.
pub(crate) struct RealFills {
    sources: u8,
    empty: u8,
    choices: [u8; MAX_PILES],
    dsts: u8,
    index: u8,
}

impl Iterator for RealFills {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.sources == 0 {
            return None;
        }
        let (src, dst) = (self.sources.trailing_zeros(), self.dsts.trailing_zeros());
        let fill = Move::Fill {
            src: src as u8,
            dst: dst as u8,
            index: u64::from(self.index),
        };
        self.index += 1;
        if self.index == self.choices[src as usize] {
            self.index = 0;
            self.dsts &= self.dsts - 1;
            if self.dsts == 0 {
                self.dsts = self.empty;
                self.sources &= self.sources - 1;
            }
        }
        Some(fill)
    }
}

/// The last resort of every built-in but random: the deal if it is legal, else the
/// first real fill in R3 order. Never a lone-card relocation, so that no built-in
/// moves a lone card back and forth forever.
///
/// `pos` is not over and has no legal discard (`moves` are its legal moves), so
/// one of them is legal: a deal is held back only by an empty stock (and then no
/// lone card may move) or by `deal="stuck"` and a real fill.
pub(crate) fn deal_or_first_real_fill(pos: &Position, moves: &LegalMoves) -> Move {
    if moves.deal() {
        Move::Deal
    } else {
        rules::blocking_fill(pos)
            .expect("a game that is not over, with no discard, can deal or fill")
    }
}

/// `"noop"`: deals whenever it may, fills only when it must.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Noop;

impl Decide for Noop {
    #[inline]
    fn decide(&self, pos: &Position, moves: &LegalMoves, _rng: &mut Rng) -> Move {
        deal_or_first_real_fill(pos, moves)
    }

    /// The deal when it is legal: the play-out's loop then deals in its registers
    /// (the commonest step of montecarlo's play-outs, which are noop's). The fill
    /// reads the position.
    #[inline]
    fn decide_from_moves(&self, moves: &LegalMoves, _rng: &mut Rng) -> Option<Move> {
        moves.deal().then_some(Move::Deal)
    }
}

/// `"simple"`: fills the leftmost empty pile from the leftmost pile that can fill
/// it with its top card, as long as one can; then deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simple;

impl Decide for Simple {
    /// The real fills with index 0 are every source that may fill (the same for any
    /// empty pile) onto every empty pile, so the lowest destination and then source
    /// is also the lowest source and then destination: the first real fill.
    #[inline]
    fn decide(&self, pos: &Position, moves: &LegalMoves, _rng: &mut Rng) -> Move {
        rules::blocking_fill(pos).unwrap_or_else(|| deal_or_first_real_fill(pos, moves))
    }
}

/// `"greedy"`: the first of its four rules that picks a move decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Greedy;

impl Decide for Greedy {
    fn decide(&self, pos: &Position, moves: &LegalMoves, _rng: &mut Rng) -> Move {
        // 1. Fill for a discard: the fill that lets the most cards go, if any does.
        let mut best = None;
        let mut most = 0;
        for fill in real_fills(pos, *moves) {
            let mut trial = pos.clone();
            trial.apply(fill);
            trial.discard_forced();
            let count = trial.score() - pos.score();
            if count > most {
                (best, most) = (Some(fill), count);
            }
        }
        if let Some(fill) = best {
            return fill;
        }

        // 2. Park a top-rank card, which blocks every card below it for good.
        let parks = |&mv: &Move| match mv {
            Move::Fill { src, index, .. } => rules::is_top_rank(
                pos.card_from_top(usize::from(src), index as usize),
                &pos.rules,
            ),
            _ => false,
        };
        if let Some(fill) = real_fills(pos, *moves).find(parks) {
            return fill;
        }

        // 3. Unbury the tallest pile's top card, keeping an empty pile for the deal.
        if pos.empty_piles() >= 2 {
            let leftmost_empty = (0..pos.piles()).find(|&p| pos.height(p) == 0);
            let mut tallest: Option<(usize, Move)> = None;
            for fill in real_fills(pos, *moves) {
                if let Move::Fill { src, dst, index: 0 } = fill {
                    let height = pos.height(usize::from(src));
                    if Some(usize::from(dst)) == leftmost_empty
                        && tallest.is_none_or(|(h, _)| height > h)
                    {
                        tallest = Some((height, fill));
                    }
                }
            }
            if let Some((_, fill)) = tallest {
                return fill;
            }
        }

        // 4. Deal.
        deal_or_first_real_fill(pos, moves)
    }
}

/// What tells apart the positions that one lookahead search reaches: the piles,
/// each card (from the top down) as its index + 1 and each pile closed by a 0. A
/// line deals nothing, so the stock is the same throughout and the discards are the
/// cards in neither.
type PilesKey = [u8; DECK_SIZE + MAX_PILES];

fn piles_key(pos: &Position) -> PilesKey {
    let mut key = [0; DECK_SIZE + MAX_PILES];
    let mut i = 0;
    for p in 0..pos.piles() {
        for card in pos.cards_from_top(p) {
            key[i] = card.index() as u8 + 1;
            i += 1;
        }
        i += 1;
    }
    key
}

type SeenSet = HashSet<PilesKey, BuildKeyHasher>;

thread_local! {
    /// The positions seen by this thread's current lookahead search, kept from
    /// search to search so that its table stays allocated (a search that starts
    /// while another runs on the thread takes a new one).
    static SEEN: RefCell<SeenSet> = RefCell::default();
}

/// The end positions of the lines of `"lookahead"` from `pos` (in which no discard
/// is legal), each once and in tie order, given to `visit` with the first move of
/// the first line that ends there (None for the empty line).
///
/// A line is a sequence of real fills, each followed by the forced discards; it
/// may end where a deal is legal or no real fill is. The lines are visited depth
/// first, fills in R3 order, a line before its extensions. A position reached a
/// second time is skipped with everything after it: the lines through it were
/// already seen, earlier in tie order. A cancelled run ([`cancel::requested`])
/// cuts the search short, with no end at all when the start is none.
pub(crate) fn lookahead_ends(pos: &Position, mut visit: impl FnMut(Option<Move>, &Position)) {
    fn search(
        pos: &Position,
        first: Option<Move>,
        seen: &mut SeenSet,
        visit: &mut impl FnMut(Option<Move>, &Position),
    ) {
        if !seen.insert(piles_key(pos)) {
            return;
        }
        let moves = LegalMoves::of(pos);
        if moves.deal() || rules::blocking_fill(pos).is_none() {
            visit(first, pos);
        }
        for fill in real_fills(pos, moves) {
            if cancel::requested() {
                return;
            }
            let mut after = pos.clone();
            after.apply(fill);
            after.discard_forced();
            search(&after, first.or(Some(fill)), seen, visit);
        }
    }
    let mut seen = SEEN.take();
    seen.clear();
    search(pos, None, &mut seen, &mut visit);
    SEEN.set(seen);
}

/// `"lookahead"`: the first move of the line that discards the most cards before
/// the next deal (then leaves the most empty piles; ties: the first line). Draws
/// nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lookahead;

impl Decide for Lookahead {
    fn decide(&self, pos: &Position, moves: &LegalMoves, _rng: &mut Rng) -> Move {
        let mut best: Option<(Option<Move>, (usize, usize))> = None;
        lookahead_ends(pos, |first, end| {
            let value = (end.score(), end.empty_piles());
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((first, value));
            }
        });
        best.and_then(|(first, _)| first)
            .unwrap_or_else(|| deal_or_first_real_fill(pos, moves))
    }
}

/// The strategies that play montecarlo's play-outs: the deterministic built-ins,
/// so that a play-out draws nothing from the stream but its shuffle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Noop,
    Simple,
    Greedy,
    Lookahead,
}

impl Policy {
    /// The names of the policies, in the order messages list them.
    pub(crate) const NAMES: [&'static str; 4] = ["noop", "simple", "greedy", "lookahead"];
    const ALL: [Policy; 4] = [
        Policy::Noop,
        Policy::Simple,
        Policy::Greedy,
        Policy::Lookahead,
    ];

    fn from_name(name: &str) -> Option<Policy> {
        Policy::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Policy::ALL[i])
    }

    #[inline]
    fn play_out(self, pos: &mut Position, rng: &mut Rng) {
        match self {
            Policy::Noop => Noop.play_out(pos, rng),
            Policy::Simple => Simple.play_out(pos, rng),
            Policy::Greedy => Greedy.play_out(pos, rng),
            Policy::Lookahead => Lookahead.play_out(pos, rng),
        }
    }
}

/// `"montecarlo"`: at each decision, plays every candidate line of lookahead on
/// `playouts` guesses of the stock order, the same guesses for every candidate,
/// with `policy`, and takes the first move of the line with the highest total
/// score. It never reads the order of the real stock: the guesses shuffle its
/// cards sorted by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonteCarlo {
    pub playouts: u32,
    pub policy: Policy,
}

impl MonteCarlo {
    /// The defaults of STRATEGIES.md, chosen there by measurement.
    pub(crate) const DEFAULT_PLAYOUTS: u32 = 64;
    pub(crate) const DEFAULT_POLICY: Policy = Policy::Noop;
}

impl Decide for MonteCarlo {
    fn decide(&self, pos: &Position, moves: &LegalMoves, rng: &mut Rng) -> Move {
        choose_by_samples(pos, moves, rng, self.playouts, |trial, rng| {
            self.policy.play_out(trial, rng);
            trial.score() as u64
        })
    }
}

/// The decision of montecarlo and hindsight (STRATEGIES.md): the candidates are
/// the ends of lookahead's lines; with one, its first move. Else `samples` times a
/// guess of the stock order is drawn (its cards sorted by index, then shuffled from
/// `rng`), and every candidate is valued on the same guess by `value`, given its end
/// position with the guess as its stock, after the deal that ends the line (when
/// one is legal). The first move of the first candidate with the highest total
/// (the last resort for the empty line) is played.
fn choose_by_samples(
    pos: &Position,
    moves: &LegalMoves,
    rng: &mut Rng,
    samples: u32,
    mut value: impl FnMut(&mut Position, &mut Rng) -> u64,
) -> Move {
    let mut candidates: Vec<(Option<Move>, Position)> = Vec::new();
    lookahead_ends(pos, |first, end| candidates.push((first, end.clone())));
    // No candidate only when a cancelled run cut the search short.
    let mut chosen = candidates.first().and_then(|(first, _)| *first);
    if candidates.len() > 1 {
        let mut cards: Vec<Card> = pos.stock().to_vec();
        cards.sort_unstable();
        let mut guess = cards.clone();
        let mut totals = vec![0u128; candidates.len()];
        let mut trial = pos.clone();
        for _ in 0..samples {
            if cancel::requested() {
                break;
            }
            guess.copy_from_slice(&cards);
            shuffle_slice(&mut guess, rng);
            for ((_, end), total) in candidates.iter().zip(&mut totals) {
                trial.clone_from(end);
                trial.set_stock_order(&guess);
                if rules::can_deal(&trial) {
                    trial.deal();
                }
                *total += u128::from(value(&mut trial, rng));
            }
        }
        // The first candidate with the highest total.
        let best =
            (0..totals.len()).fold(0, |best, k| if totals[k] > totals[best] { k } else { best });
        chosen = candidates[best].0;
    }
    chosen.unwrap_or_else(|| deal_or_first_real_fill(pos, moves))
}

/// `"hindsight"`: montecarlo's candidates and guesses, each candidate valued on
/// each guess by the score of a noop play-out, plus `win` when the stock holds at
/// most `stock` cards and the clairvoyant solver wins the guess; the candidate of
/// the highest total is played (ties: the earlier one). A guess that the solver
/// leaves unresolved within `nodes` positions counts as not won. It never reads the
/// real stock's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hindsight {
    pub samples: u32,
    pub nodes: u64,
    pub stock: u64,
    pub win: u64,
}

impl Hindsight {
    /// The defaults of STRATEGIES.md, chosen there by measurement.
    pub(crate) const DEFAULT_SAMPLES: u32 = 64;
    pub(crate) const DEFAULT_NODES: u64 = 20_000;
    pub(crate) const DEFAULT_STOCK: u64 = 20;
    pub(crate) const DEFAULT_WIN: u64 = 16;
    /// The largest `win`: 2³⁸, more than the scores of 2³² play-outs (each at most
    /// 52 < 2⁶), so that at this weight wins count first.
    pub(crate) const MAX_WIN: u64 = 1 << 38;
}

thread_local! {
    /// One solver per thread, reused from solve to solve (its tables stay allocated).
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

impl Decide for Hindsight {
    fn decide(&self, pos: &Position, moves: &LegalMoves, rng: &mut Rng) -> Move {
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let solves = pos.stock().len() as u64 <= self.stock;
        SOLVER.with_borrow_mut(|solver| {
            choose_by_samples(pos, moves, rng, self.samples, |trial, rng| {
                let won = solves && solver.solve(trial, &limits).winnable == Some(true);
                Noop.play_out(trial, rng);
                u64::from(won) * self.win + trial.score() as u64
            })
        })
    }
}

/// `"optimal"`: the move of a perfect player who never sees the stock, from the
/// table of the game's rules (computed the first time, then kept): the first in
/// R3 order of the moves of the best value (under `relocate_single`, a lone card's
/// move only towards a position where that value is had: [`optimal::ValueTable::best_move`]).
/// Draws nothing. Layouts of more than [`optimal::STRATEGY_MAX_DECK`] cards are
/// refused ([`optimal::strategy_table`]); the bindings compute the table before a game starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Optimal;

impl Strategy for Optimal {
    fn choose(&self, pos: &Position, _rng: &mut Rng) -> Option<Move> {
        let progress = optimal::Progress::default();
        let table = optimal::strategy_table(*pos.rules(), &progress)
            .unwrap_or_else(|e| panic!("{}", e.message))
            .expect("never cancelled");
        table.best_move(pos, &progress)
    }
}

/// A built-in strategy with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    Random(Random),
    Noop(Noop),
    Simple(Simple),
    Greedy(Greedy),
    Lookahead(Lookahead),
    MonteCarlo(MonteCarlo),
    Hindsight(Hindsight),
    Optimal(Optimal),
}

/// `$body` with `$s` bound to the strategy of whichever variant `$builtin` is.
macro_rules! each_builtin {
    ($builtin:expr, $s:ident => $body:expr) => {
        match $builtin {
            Builtin::Random($s) => $body,
            Builtin::Noop($s) => $body,
            Builtin::Simple($s) => $body,
            Builtin::Greedy($s) => $body,
            Builtin::Lookahead($s) => $body,
            Builtin::MonteCarlo($s) => $body,
            Builtin::Hindsight($s) => $body,
            Builtin::Optimal($s) => $body,
        }
    };
}

/// The names of the built-ins, in the order messages list them (and the
/// reference engine's registry holds them).
pub fn builtin_names() -> &'static [&'static str] {
    &[
        "random",
        "noop",
        "simple",
        "greedy",
        "lookahead",
        "montecarlo",
        "hindsight",
        "optimal",
    ]
}

impl Builtin {
    /// Ok when the built-in plays `rules`. Only random plays rules with a reserve
    /// (R2.4): the others decide between fills and deals by rules that know no
    /// reserve (STRATEGIES.md), so they refuse them with `StrategyError`.
    pub fn check_rules(&self, rules: &Rules) -> Result<()> {
        if rules.reserve == 0 || matches!(self, Builtin::Random(_)) {
            return Ok(());
        }
        Err(strategy_error(format!(
            "strategy '{}' does not play rules with a reserve (reserve={}): only 'random' does",
            self.name(),
            rules.reserve
        )))
    }

    /// The built-in's name, as [`builtin_names`] lists it.
    pub fn name(&self) -> &'static str {
        match self {
            Builtin::Random(_) => "random",
            Builtin::Noop(_) => "noop",
            Builtin::Simple(_) => "simple",
            Builtin::Greedy(_) => "greedy",
            Builtin::Lookahead(_) => "lookahead",
            Builtin::MonteCarlo(_) => "montecarlo",
            Builtin::Hindsight(_) => "hindsight",
            Builtin::Optimal(_) => "optimal",
        }
    }

    /// Parse a spec, `"name"` or `"name:key=value,key=value"` (white space around
    /// the parts and the case of the name are ignored): `StrategyError` for an
    /// unknown name, a malformed parameter list, an unknown parameter or a bad value.
    pub fn parse(spec: &str) -> Result<Builtin> {
        let (head, tail) = match spec.split_once(':') {
            Some((head, tail)) => (head, Some(tail)),
            None => (spec, None),
        };
        let name = strip(head).to_lowercase();
        if !builtin_names().contains(&name.as_str()) {
            let known: Vec<String> = builtin_names().iter().map(|n| py_repr(n)).collect();
            return Err(strategy_error(format!(
                "unknown strategy {}: expected one of {}, or a callable strategy(game) -> Move",
                py_repr(strip(head)),
                known.join(", ")
            )));
        }
        let params = Params::parse(&name, spec, tail)?;
        let plain = |builtin: Builtin| params.check(&[]).map(|()| builtin);
        match name.as_str() {
            "random" => plain(Builtin::Random(Random)),
            "noop" => plain(Builtin::Noop(Noop)),
            "simple" => plain(Builtin::Simple(Simple)),
            "greedy" => plain(Builtin::Greedy(Greedy)),
            "lookahead" => plain(Builtin::Lookahead(Lookahead)),
            "montecarlo" => {
                params.check(&["playouts", "policy"])?;
                let playouts = params.count(
                    "playouts",
                    MonteCarlo::DEFAULT_PLAYOUTS.into(),
                    u32::MAX.into(),
                )? as u32;
                let policy = match params.get("policy") {
                    None => MonteCarlo::DEFAULT_POLICY,
                    Some(text) => Policy::from_name(&text.to_lowercase()).ok_or_else(|| {
                        let names: Vec<String> = Policy::NAMES.iter().map(|n| py_repr(n)).collect();
                        params.bad_value("policy", text, &format!("one of {}", names.join(", ")))
                    })?,
                };
                Ok(Builtin::MonteCarlo(MonteCarlo { playouts, policy }))
            }
            "hindsight" => {
                params.check(&["samples", "nodes", "stock", "win"])?;
                let samples = params.count(
                    "samples",
                    Hindsight::DEFAULT_SAMPLES.into(),
                    u32::MAX.into(),
                )? as u32;
                let nodes = params.count("nodes", Hindsight::DEFAULT_NODES, u64::MAX)?;
                let stock = params.count("stock", Hindsight::DEFAULT_STOCK, u64::MAX)?;
                let win = params.count("win", Hindsight::DEFAULT_WIN, Hindsight::MAX_WIN)?;
                Ok(Builtin::Hindsight(Hindsight {
                    samples,
                    nodes,
                    stock,
                    win,
                }))
            }
            "optimal" => plain(Builtin::Optimal(Optimal)),
            _ => unreachable!("every name of builtin_names() has its arm"),
        }
    }
}

/// A count of a strategy parameter: 1 to `max` in ASCII digits, nothing else (no
/// sign, no white space inside, no `_`), as the reference engine reads it.
fn parse_count(text: &str, max: u64) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|&n| (1..=max).contains(&n))
}

impl Strategy for Builtin {
    #[inline]
    fn choose(&self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        each_builtin!(self, s => s.choose(pos, rng))
    }

    #[inline]
    fn play_out(&self, pos: &mut Position, rng: &mut Rng) {
        each_builtin!(self, s => s.play_out(pos, rng))
    }

    #[inline]
    fn is_random(&self) -> bool {
        each_builtin!(self, s => Strategy::is_random(s))
    }
}

fn strategy_error(message: String) -> Error {
    Error::new(ErrorKind::Strategy, message)
}

/// The `key=value` parameters of a strategy spec, as text. A built-in first
/// [`check`](Params::check)s that it knows them all, then reads them with
/// [`get`](Params::get), and reports a bad one with [`bad_value`](Params::bad_value).
#[derive(Debug)]
pub(crate) struct Params {
    strategy: String,
    items: Vec<(String, String)>,
}

impl Params {
    /// The parameters after the colon of `spec` (none without a colon).
    fn parse(strategy: &str, spec: &str, tail: Option<&str>) -> Result<Params> {
        let mut items: Vec<(String, String)> = Vec::new();
        for item in tail.map(|t| t.split(',')).into_iter().flatten() {
            let (key, value) = match item.split_once('=') {
                Some((key, value)) if !strip(key).is_empty() && !strip(value).is_empty() => {
                    (strip(key), strip(value))
                }
                _ => {
                    return Err(strategy_error(format!(
                        "strategy parameters must be key=value, got {} in {}",
                        py_repr(item),
                        py_repr(spec)
                    )))
                }
            };
            if items.iter().any(|(k, _)| k == key) {
                return Err(strategy_error(format!(
                    "parameter {} is given twice in {}",
                    py_repr(key),
                    py_repr(spec)
                )));
            }
            items.push((key.to_string(), value.to_string()));
        }
        Ok(Params {
            strategy: strategy.to_string(),
            items,
        })
    }

    /// `StrategyError` for a parameter that is not `allowed`.
    pub(crate) fn check(&self, allowed: &[&str]) -> Result<()> {
        match self
            .items
            .iter()
            .find(|(key, _)| !allowed.contains(&key.as_str()))
        {
            None => Ok(()),
            Some((key, _)) => {
                let takes = if allowed.is_empty() {
                    "it takes none".to_string()
                } else {
                    let names: Vec<String> = allowed.iter().map(|a| py_repr(a)).collect();
                    format!("its parameters are {}", names.join(", "))
                };
                Err(strategy_error(format!(
                    "strategy {} has no parameter {}: {takes}",
                    py_repr(&self.strategy),
                    py_repr(key)
                )))
            }
        }
    }

    /// The text of parameter `key`, if given.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Parameter `key` as a count from 1 to `max` (see [`parse_count`]), `default`
    /// when it is not given.
    pub(crate) fn count(&self, key: &str, default: u64, max: u64) -> Result<u64> {
        match self.get(key) {
            None => Ok(default),
            Some(text) => parse_count(text, max)
                .ok_or_else(|| self.bad_value(key, text, &format!("an int from 1 to {max}"))),
        }
    }

    /// The `StrategyError` of a bad value for `key`, saying what was `expected`.
    pub(crate) fn bad_value(&self, key: &str, value: &str, expected: &str) -> Error {
        strategy_error(format!(
            "bad value {} for parameter {} of strategy {}: expected {expected}",
            py_repr(value),
            py_repr(key),
            py_repr(&self.strategy)
        ))
    }
}

#[cfg(test)]
#[path = "tests/strategies.rs"]
mod tests;
