//! The state's moves against the rules module, and the prunings' own tests.

use super::*;

/// The search state's rules (`StockContext::legal`, `StockContext::apply`) are those of the
/// rules module, move for move.
#[test]
fn state_moves_match_the_rules() {
    let mut all = positions(300, 3, 48);
    all.extend(positions(300, 4, 24));
    all.extend(late_positions(300, 6));
    all.extend(tall_positions(300, 7));
    all.extend(family_positions(600, 8, 30));
    all.extend(family_positions(600, 9, 5));
    all.extend(family_tall_positions(600, 10));
    for pos in all {
        with_piles!(pos, P => state_moves_match::<P>(&pos));
    }
}

fn state_moves_match<const P: usize>(pos: &Position) {
    let (ctx, s) = (StockContext::of(pos), CompactState::<LARGE, P>::of(pos));
    assert_eq!(ctx.score(&s), pos.score());
    assert_eq!(
        s.empty(),
        (0..P).fold(0, |m, p| m | u8::from(pos.height(p) == 0) << p)
    );
    assert_eq!(s.total(), (0..P).map(|p| pos.height(p)).sum::<usize>());
    let legal = ctx.legal(&s, ctx.discards(&s));
    let moves: Vec<Move> = legal.iter().collect();
    assert_eq!(moves, pos.legal_moves(), "{}", pos.to_text());
    for mv in moves {
        let (mut t, mut next) = (s, pos.clone());
        ctx.apply(&mut t, mv);
        next.apply(mv);
        for p in 0..P {
            let pile: Vec<u8> = next.pile(p).iter().map(|c| c.index() as u8).collect();
            assert_eq!(t.pile(p), &pile[..], "{mv} in {}", pos.to_text());
            assert_eq!(t.tops[p], pile.last().copied().unwrap_or(NO_CARD));
        }
        assert_eq!(ctx.stock_left(&t), next.stock().len());
    }
}

/// S8 only ever condemns positions that the plain search finds lost.
#[test]
fn doomed_stocks_are_lost() {
    let mut doomed = 0;
    let mut all = late_positions(3000, 12);
    all.extend(family_positions(3000, 13, 15));
    for pos in all {
        if with_piles!(pos, P => with_search::<P, _>(&pos, |search| search.stock_is_doomed())) {
            doomed += 1;
            assert_eq!(
                plain_search(&pos, Some(1_000_000)),
                Some(false),
                "{}",
                pos.to_text()
            );
        }
    }
    assert!(doomed > 200, "{doomed}");
}

/// S7: every arrangement of the lone cards, once each, and `arrange` reaches
/// each of them by legal relocations.
#[test]
fn arrangements_are_reached_by_legal_moves() {
    let cases = [
        ("7s/-/3d5h/Ac", 3 * 2),
        ("7s/-/-/Ac", 4 * 3),
        ("7s/-/-/-", 4),
        ("5d9d/-/3d5h/Ac", 2),
    ];
    for (piles, expected) in cases {
        let pos = crate::position::position_with_piles(piles, "relocate_single=true");
        let s = CompactState::<LARGE, 4>::of(&pos);
        with_search(&pos, |search| {
            search.record = true;
            let light = search.light_piles(&s);
            let (lone, n) = lone_cards(&s, light);
            let mut layouts = Vec::new();
            arrangements(light, &lone[..n], &mut layouts);
            assert_eq!(layouts.len(), expected, "{piles}");
            let distinct: HashSet<[u8; MAX_PILES]> = layouts.iter().copied().collect();
            assert_eq!(distinct.len(), layouts.len());
            for layout in layouts {
                let mut t = s;
                search.buffers.line.clear();
                search.arrange(&mut t, &layout);
                let mut real = pos.clone();
                for &mv in &search.buffers.line {
                    real.play(mv).unwrap();
                }
                for (p, &want) in layout.iter().enumerate().take(PILES) {
                    match want {
                        HEAVY => assert_eq!(t.pile(p), s.pile(p)),
                        BLANK => assert_eq!(t.height(p), 0),
                        card => assert_eq!(t.pile(p), &[card]),
                    }
                    let pile: Vec<u8> = real.pile(p).iter().map(|c| c.index() as u8).collect();
                    assert_eq!(t.pile(p), &pile[..]);
                }
            }
        });
    }
}

/// S14: with the stock not empty and a pile empty, a card lying right on a
/// stronger card of its suit is moved and discarded under `fill="top"` only,
/// and only when that card is the next one down.
#[test]
fn a_card_on_a_stronger_one_of_its_suit_goes() {
    let cases = [
        ("Ks2s/9h/-/4d", "standard", "Ks/9h/-/4d"),
        (
            "Ks2s/9h/-/4d",
            "deal=stuck,relocate_single=true",
            "Ks/9h/-/4d",
        ),
        ("Ks2s/9h/-/4d", "strict", "Ks2s/9h/-/4d"),
        ("Ks5d2s/9h/-/4d", "standard", "Ks5d2s/9h/-/4d"),
        ("2sKs/9h/-/4d", "standard", "2sKs/9h/-/4d"),
        ("Ks2s/9h/8c/4d", "standard", "Ks2s/9h/8c/4d"),
    ];
    for (piles, rules, expected) in cases {
        let pos = crate::position::position_with_piles(piles, rules);
        assert!(!pos.stock().is_empty());
        let want =
            CompactState::<LARGE, 4>::of(&crate::position::position_with_piles(expected, rules));
        with_search(&pos, |search| {
            search.record = true;
            let mut s = CompactState::of(&pos);
            search.close(&mut s);
            let cards = |s: &CompactState<LARGE, 4>| {
                (0..PILES).map(|p| s.pile(p).to_vec()).collect::<Vec<_>>()
            };
            assert_eq!(cards(&s), cards(&want), "{piles} {rules}");
            let mut real = pos.clone();
            for &mv in &search.buffers.line {
                real.play(mv).unwrap();
            }
            assert_eq!(real.score(), pos.score() + usize::from(piles != expected));
        });
    }
}

/// S15 condemns only lost positions: those on the winning lines of kpat deals
/// with one deal left or none, and a few random moves off them.
#[test]
fn blocked_last_suits_are_lost() {
    let mut rng = Rng::new(37);
    let blocked = |pos: &Position| {
        let s = CompactState::<LARGE, 4>::of(pos);
        with_open_search::<4, true, _>(pos, |search| search.last_suit_blocked(&s))
    };
    let late: Vec<Position> = (1..200)
        .flat_map(kpat_line)
        .filter(|pos| pos.stock().len() <= 4)
        .collect();
    let condemned: usize = late
        .into_iter()
        .map(|pos| condemned_on_a_walk(pos, 3, &mut rng, blocked))
        .sum();
    assert!(condemned > 50, "{condemned}");
}

/// S16 and S17 condemn only lost positions: none of those on the winning lines
/// of kpat deals (S13's fixpoint, with S16's held suits, and S17 at every stock
/// size), and a few random moves off them only where the plain search finds no
/// win (with two deals left or fewer).
#[test]
fn held_suits_condemn_only_lost_positions() {
    let mut rng = Rng::new(41);
    let lost = |pos: &Position| {
        let s = CompactState::<LARGE, 4>::of(pos);
        with_open_search::<4, true, _>(pos, |search| {
            search.no_suit_clears(&s, search.deals_from(s.dealt))
                || s.empty() == 0 && search.locked(&s)
        })
    };
    let mut off_line = 0;
    for n in 1..300 {
        for pos in kpat_line(n) {
            assert!(!lost(&pos), "kpat {n}: {}", pos.to_text());
            if pos.stock().len() <= 8 && rng.below(4) == 0 {
                off_line += condemned_on_a_walk(pos, 4, &mut rng, lost);
            }
        }
    }
    assert!(off_line > 50, "{off_line}");
}
