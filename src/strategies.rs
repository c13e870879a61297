//! The built-in strategies (docs/STRATEGIES.md).
//!
//! A strategy is a [`Strategy`]: given a position and the game's strategy stream, it
//! picks the next move. [`Builtin`] names the built-ins and parses their
//! `"name:key=value,..."` specs. To add one: write a type that implements
//! [`Strategy`] (and, for speed, [`Strategy::play_out`]), add a variant to
//! [`Builtin`] and an arm to each of its `match`es, its name to [`Builtin::NAMES`],
//! and an arm to [`Builtin::parse`] that reads its parameters with [`Params`].

use crate::cards::{py_repr, strip};
use crate::game::{Move, Position};
use crate::rng::Rng;
use crate::rules::LegalMoves;
use crate::{Error, ErrorKind, Result};

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
}

/// `"random"`: after the forced discards, a uniformly random legal move, with one
/// draw `below(len(moves))` per decision, even when only one move is legal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Strategy for Random {
    #[inline]
    fn choose(&self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        let moves = LegalMoves::of(pos);
        if let Some(p) = moves.first_discard() {
            return Some(Move::Discard(p as u8));
        }
        if moves.is_empty() {
            return None;
        }
        // Counted, not listed: `nth` finds the move that `legal_moves()[i]` would be.
        let i = rng.below(moves.len() as u64);
        Some(moves.nth(i as usize))
    }

    /// The hot loop of `simulate`: `choose`, with the forced discards played in
    /// rounds and the commonest decision, a deal with no empty pile, short-cut.
    #[inline]
    fn play_out(&self, pos: &mut Position, rng: &mut Rng) {
        loop {
            pos.discard_forced();
            if pos.empty_piles() == 0 {
                // With no discard and no empty pile, the deal is the only legal move,
                // if any; it still takes its draw of below(1), which is always 0 and
                // always one next_u64().
                if pos.stock_is_empty() {
                    return;
                }
                rng.skip(1);
                pos.deal();
                continue;
            }
            let moves = LegalMoves::of(pos);
            if moves.is_empty() {
                return;
            }
            let i = rng.below(moves.len() as u64);
            pos.apply(moves.nth(i as usize));
        }
    }
}

/// A built-in strategy with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    Random(Random),
}

impl Builtin {
    /// The names of the built-ins, for messages.
    pub const NAMES: &'static [&'static str] = &["random"];

    /// Parse a spec, `"name"` or `"name:key=value,key=value"` (white space around
    /// the parts and the case of the name are ignored): `StrategyError` for an
    /// unknown name, a malformed parameter list, an unknown parameter or a bad value.
    pub fn parse(spec: &str) -> Result<Builtin> {
        let (head, tail) = match spec.split_once(':') {
            Some((head, tail)) => (head, Some(tail)),
            None => (spec, None),
        };
        let name = strip(head).to_lowercase();
        if !Builtin::NAMES.contains(&name.as_str()) {
            let known: Vec<String> = Builtin::NAMES.iter().map(|n| py_repr(n)).collect();
            return Err(strategy_error(format!(
                "unknown strategy {}: expected one of {}, or a callable strategy(game) -> Move",
                py_repr(strip(head)),
                known.join(", ")
            )));
        }
        let params = Params::parse(&name, spec, tail)?;
        match name.as_str() {
            "random" => {
                params.check(&[])?;
                Ok(Builtin::Random(Random))
            }
            _ => unreachable!("every name of NAMES has its arm"),
        }
    }

    /// The name of the built-in.
    pub fn name(&self) -> &'static str {
        match self {
            Builtin::Random(_) => "random",
        }
    }
}

impl Strategy for Builtin {
    #[inline]
    fn choose(&self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        match self {
            Builtin::Random(s) => s.choose(pos, rng),
        }
    }

    #[inline]
    fn play_out(&self, pos: &mut Position, rng: &mut Rng) {
        match self {
            Builtin::Random(s) => s.play_out(pos, rng),
        }
    }
}

fn strategy_error(message: String) -> Error {
    Error::new(ErrorKind::Strategy, message)
}

/// The `key=value` parameters of a strategy spec, as text. A built-in first
/// [`check`](Params::check)s that it knows them all, then reads them with
/// [`get`](Params::get), and reports a bad one with [`bad_value`](Params::bad_value).
#[derive(Debug)]
pub struct Params {
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
    pub fn check(&self, allowed: &[&str]) -> Result<()> {
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
    pub fn get(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `StrategyError` of a bad value for `key`, saying what was `expected`.
    pub fn bad_value(&self, key: &str, value: &str, expected: &str) -> Error {
        strategy_error(format!(
            "bad value {} for parameter {} of strategy {}: expected {expected}",
            py_repr(value),
            py_repr(key),
            py_repr(&self.strategy)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;

    #[test]
    fn parse_specs() {
        assert_eq!(Builtin::parse("random").unwrap(), Builtin::Random(Random));
        assert_eq!(Builtin::parse(" Random ").unwrap(), Builtin::Random(Random));
        for (bad, message) in [
            ("rand", "unknown strategy 'rand': expected one of 'random', or a callable strategy(game) -> Move"),
            ("random:", "strategy parameters must be key=value, got '' in 'random:'"),
            ("random:x=1", "strategy 'random' has no parameter 'x': it takes none"),
            ("random:x", "strategy parameters must be key=value, got 'x' in 'random:x'"),
            ("random:x=1,x=2", "parameter 'x' is given twice in 'random:x=1,x=2'"),
        ] {
            let err = Builtin::parse(bad).unwrap_err();
            assert_eq!((err.kind, err.message.as_str()), (ErrorKind::Strategy, message), "{bad:?}");
        }
        let params = Params::parse(
            "montecarlo",
            "montecarlo:playouts = 64, policy=greedy",
            Some("playouts = 64, policy=greedy"),
        )
        .unwrap();
        assert!(params.check(&["playouts", "policy"]).is_ok());
        assert_eq!(params.get("playouts"), Some("64"));
        assert_eq!(
            params.check(&["playouts"]).unwrap_err().message,
            "strategy 'montecarlo' has no parameter 'policy': its parameters are 'playouts'"
        );
    }

    /// The random strategy makes the documented choice: the first discard, or
    /// `legal_moves()[below(len)]`.
    #[test]
    fn random_follows_the_documented_algorithm() {
        for seed in 0..500u64 {
            let rules = [
                Rules::standard(),
                Rules::easy(),
                Rules {
                    relocate_single: true,
                    ..Rules::strict()
                },
            ][seed as usize % 3];
            let mut fast = Game::from_seed(seed, rules);
            let mut plain = fast.clone();
            loop {
                let moves = plain.legal_moves();
                let expected = match moves.first() {
                    None => None,
                    Some(&first @ Move::Discard(_)) => Some(first),
                    Some(_) => Some(moves[plain.randbelow(moves.len() as u64) as usize]),
                };
                let mut rng = *fast.rng();
                let chosen = Random.choose(fast.position(), &mut rng);
                *fast.rng_mut() = rng;
                assert_eq!(chosen, expected);
                assert_eq!(fast.rng(), plain.rng());
                let Some(mv) = chosen else { break };
                fast.play(mv).unwrap();
                plain.play(mv).unwrap();
                if plain.history().len() > 2000 {
                    break;
                }
            }
        }
    }
}
