//! The tests of `strategies.rs`: the module `strategies::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::game::Game;
use crate::rules::Rules;

/// Random's play-out, which decides in registers (`Position::play_out_piles`),
/// plays the game that asking `choose` move after move plays (the plain version:
/// the legal moves of the position in memory, then `apply`): the same piles,
/// stock, score and stream at the end, under every rule set of the family.
#[test]
fn random_play_out_is_choose_move_after_move() {
    let all = crate::rules::all_rules();
    let standard = std::iter::repeat_n(Rules::standard(), 500);
    for (k, rules) in all.iter().copied().chain(standard).enumerate() {
        for seed in [k as u64, 1000 + k as u64 * 7] {
            let game = Game::from_seed(seed, rules);
            let (mut plain, mut plain_rng) = (game.position().clone(), *game.rng());
            while let Some(mv) = Random.choose(&plain, &mut plain_rng) {
                plain.apply(mv);
            }
            let (mut fast, mut rng) = (game.position().clone(), *game.rng());
            Random.play_out(&mut fast, &mut rng);
            fast.check_invariants();
            let text = |pos: &Position| {
                pos.to_text()
                    .split(' ')
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            assert_eq!(text(&fast), text(&plain), "seed {seed} under {rules}");
            assert_eq!(fast.score(), plain.score(), "seed {seed} under {rules}");
            assert_eq!(rng, plain_rng, "seed {seed} under {rules}");
        }
    }
}

/// How many cards a fill of the card at `index` moves: one, or under
/// `fill="stack"` that card and the `index` above it.
fn moved(pos: &Position, index: u64) -> usize {
    if pos.rules.fill == crate::rules::FillRule::Stack {
        index as usize + 1
    } else {
        1
    }
}

/// The listed real fills are the legal moves filtered as STRATEGIES.md words
/// it (the fills that leave a card on their source), in R3 order, on positions
/// of every layout and rule set.
#[test]
fn real_fills_are_the_filtered_legal_moves() {
    for pos in crate::rules::sample_positions(3000) {
        let plain: Vec<Move> = rules::legal_moves(&pos)
            .into_iter()
            .filter(|&mv| matches!(mv, Move::Fill { src, index, .. } if pos.height(usize::from(src)) > moved(&pos, index)))
            .collect();
        assert_eq!(
            real_fills(&pos, LegalMoves::of(&pos)).collect::<Vec<_>>(),
            plain,
            "{}",
            pos.to_text()
        );
    }
}

#[test]
fn parse_specs() {
    assert_eq!(Builtin::parse("random").unwrap(), Builtin::Random(Random));
    assert_eq!(Builtin::parse(" Random ").unwrap(), Builtin::Random(Random));
    for (bad, message) in [
        (
            "rand",
            "unknown strategy 'rand': expected one of 'random', 'noop', 'simple', 'greedy', 'lookahead', \
             'montecarlo', 'hindsight', 'optimal', or a callable strategy(game) -> Move",
        ),
        (
            "montecarlo:playouts=0",
            "bad value '0' for parameter 'playouts' of strategy 'montecarlo': expected an int from 1 to 4294967295",
        ),
        (
            "montecarlo:playouts=+3",
            "bad value '+3' for parameter 'playouts' of strategy 'montecarlo': expected an int from 1 to 4294967295",
        ),
        (
            "montecarlo:policy=random",
            "bad value 'random' for parameter 'policy' of strategy 'montecarlo': \
             expected one of 'noop', 'simple', 'greedy', 'lookahead'",
        ),
        (
            "montecarlo:depth=3",
            "strategy 'montecarlo' has no parameter 'depth': its parameters are 'playouts', 'policy'",
        ),
        (
            "hindsight:samples=0",
            "bad value '0' for parameter 'samples' of strategy 'hindsight': expected an int from 1 to 4294967295",
        ),
        (
            "hindsight:nodes=18446744073709551616",
            "bad value '18446744073709551616' for parameter 'nodes' of strategy 'hindsight': \
             expected an int from 1 to 18446744073709551615",
        ),
        (
            "hindsight:stock=-1",
            "bad value '-1' for parameter 'stock' of strategy 'hindsight': \
             expected an int from 1 to 18446744073709551615",
        ),
        (
            "hindsight:playouts=3",
            "strategy 'hindsight' has no parameter 'playouts': its parameters are 'samples', 'nodes', 'stock', 'win'",
        ),
        ("greedy:x=1", "strategy 'greedy' has no parameter 'x': it takes none"),
        ("random:", "strategy parameters must be key=value, got '' in 'random:'"),
        ("random:x=1", "strategy 'random' has no parameter 'x': it takes none"),
        ("random:x", "strategy parameters must be key=value, got 'x' in 'random:x'"),
        ("random:x=1,x=2", "parameter 'x' is given twice in 'random:x=1,x=2'"),
    ] {
        let err = Builtin::parse(bad).unwrap_err();
        assert_eq!((err.kind, err.message.as_str()), (ErrorKind::Strategy, message), "{bad:?}");
    }
    assert_eq!(
        Builtin::parse("lookahead").unwrap(),
        Builtin::Lookahead(Lookahead)
    );
    assert_eq!(
        Builtin::parse("montecarlo").unwrap(),
        Builtin::MonteCarlo(MonteCarlo {
            playouts: 64,
            policy: Policy::Noop
        })
    );
    assert_eq!(
        Builtin::parse(" MonteCarlo: playouts = 4294967295 , policy=Noop").unwrap(),
        Builtin::MonteCarlo(MonteCarlo {
            playouts: u32::MAX,
            policy: Policy::Noop
        })
    );
    assert!(Builtin::parse("montecarlo:playouts=4294967296").is_err());
    assert_eq!(
        Builtin::parse("hindsight").unwrap(),
        Builtin::Hindsight(Hindsight {
            samples: 64,
            nodes: 20_000,
            stock: 20,
            win: 16
        })
    );
    assert_eq!(
        Builtin::parse(
            "Hindsight: samples=007, nodes=18446744073709551615, stock=52, win=274877906944"
        )
        .unwrap(),
        Builtin::Hindsight(Hindsight {
            samples: 7,
            nodes: u64::MAX,
            stock: 52,
            win: 1 << 38
        })
    );
    assert!(Builtin::parse("hindsight:win=274877906945").is_err());
    assert!(Builtin::parse("hindsight:win=0").is_err());
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

/// Each built-in's fast `play_out` plays what asking `choose` move after move
/// plays: the same score, end piles and stream, under rules that exercise every
/// branch (stuck deals, lone-card relocations, buried fills, the reverse order).
#[test]
fn play_out_is_choose_move_after_move() {
    let builtins = [
        "noop",
        "simple",
        "greedy",
        "lookahead",
        "montecarlo:playouts=2",
        "montecarlo:playouts=1,policy=lookahead",
        "hindsight:samples=2,nodes=2000,stock=52",
    ];
    let rules = [
        Rules::standard(),
        Rules {
            deal: crate::rules::DealRule::Stuck,
            relocate_single: true,
            ..Rules::easy()
        },
        Rules {
            ace_high: false,
            ..Rules::strict()
        },
        Rules::aces_up_5(),
        Rules::russian_aces(),
        Rules::parse("easy,deal=any,suits=3,ranks=6,piles=5,deal_to=empty").unwrap(),
        Rules::parse("deal=stuck,relocate_single=true,suits=2,ranks=4").unwrap(),
    ];
    for (k, spec) in builtins.iter().enumerate() {
        let builtin = Builtin::parse(spec).unwrap();
        for seed in 0..12u64 {
            let rules = rules[(seed as usize + k) % rules.len()];
            let mut asked = Game::from_seed(seed, rules);
            while let Some(mv) = asked.ask(&builtin) {
                asked.play(mv).unwrap();
            }
            let (mut fast, mut rng) = (
                Game::from_seed(seed, rules).position().clone(),
                *Game::from_seed(seed, rules).rng(),
            );
            builtin.play_out(&mut fast, &mut rng);
            fast.check_invariants();
            assert_eq!(fast.score(), asked.score(), "{spec} on seed {seed}");
            assert_eq!(
                (0..fast.piles())
                    .map(|p| fast.pile(p).to_vec())
                    .collect::<Vec<_>>(),
                (0..fast.piles())
                    .map(|p| asked.position().pile(p).to_vec())
                    .collect::<Vec<_>>()
            );
            assert_eq!(&rng, asked.rng(), "{spec} on seed {seed}");
        }
    }
}

/// Lone cards never move under the built-ins but random: under deal="stuck" with
/// relocate_single=True the first legal move is often one, and taking it would
/// move the same card back and forth forever.
#[test]
fn no_builtin_but_random_relocates_a_lone_card() {
    let rules = Rules {
        deal: crate::rules::DealRule::Stuck,
        relocate_single: true,
        ..Rules::standard()
    };
    for spec in [
        "noop",
        "simple",
        "greedy",
        "lookahead",
        "montecarlo:playouts=1",
        "hindsight:samples=1,nodes=500,stock=52",
    ] {
        let builtin = Builtin::parse(spec).unwrap();
        for seed in 0..20u64 {
            let mut game = Game::from_seed(seed, rules);
            while let Some(mv) = game.ask(&builtin) {
                if let Move::Fill { src, .. } = mv {
                    assert!(
                        game.position().height(usize::from(src)) >= 2,
                        "{spec} relocated a lone card"
                    );
                }
                game.play(mv).unwrap();
            }
        }
    }
}

/// Every built-in plays every layout to its end, within the layout's scores and
/// with the layout's cards (STRATEGIES.md holds for any P, S and R).
#[test]
fn every_builtin_plays_every_layout() {
    for spec in builtin_names().iter().map(|n| n.to_string()).chain([
        "montecarlo:playouts=2".into(),
        "hindsight:samples=2,stock=52".into(),
    ]) {
        let builtin = Builtin::parse(&spec).unwrap();
        for (k, rules) in [
            "piles=5",
            "deal_to=empty",
            "deal=any",
            "suits=1,ranks=4",
            "suits=2,ranks=5,piles=5,deal_to=empty",
            "easy,suits=4,ranks=3,deal=stuck",
            "strict,ace_high=false,suits=3,ranks=7,piles=5",
        ]
        .iter()
        .enumerate()
        {
            let rules = Rules::parse(rules).unwrap();
            if matches!(builtin, Builtin::Optimal(_)) && crate::optimal::refusal(&rules).is_some() {
                continue; // "optimal" beyond its reach
            }
            let mut game = Game::from_seed(k as u64, rules);
            while let Some(mv) = game.ask(&builtin) {
                game.play(mv).unwrap();
                assert!(
                    game.history().len() < 10_000,
                    "{spec} does not end under {rules}"
                );
            }
            assert!(game.is_over() && game.score() <= rules.win_score());
            game.position().check_invariants();
        }
    }
}
