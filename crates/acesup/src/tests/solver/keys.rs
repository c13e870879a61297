//! The transposition table and the states' keys.

use super::*;

/// S10 with S7: a hold goes with its lone card, so that every arrangement of a
/// held card has one key, and the same position without the hold another.
#[test]
fn holds_go_with_their_cards_in_the_key() {
    let pos = crate::position::position_with_piles("7s/-/3d5h/Ac", "deal=any,relocate_single=true");
    let s = CompactState::<LARGE, 4>::of(&pos);
    with_open_search::<4, true, _>(&pos, |search| {
        search.buffers.table.clear();
        let (mut held, mut moved) = (s, s);
        held.pins = 1;
        moved.pins = 1;
        search.play(
            &mut moved,
            Move::Fill {
                src: 0,
                dst: 1,
                index: 0,
            },
        );
        assert_eq!(moved.pins, 0b10, "the hold moves with 7s");
        let mut other = s;
        other.pins = 1 << 3;
        assert!(search.insert(&held).is_ok_and(|new| new));
        assert!(search.insert(&moved).is_ok_and(|new| !new));
        assert!(search.insert(&s).is_ok_and(|new| new));
        assert!(search.insert(&other).is_ok_and(|new| new));
    });
}

#[test]
fn the_table_is_exact() {
    fn check<K: TableKey + std::fmt::Debug>(keys: &[K]) {
        let mut table = TranspositionTable::<K>::new();
        for _ in 0..3 {
            table.clear();
            for &key in keys {
                assert_eq!(table.insert(key).ok(), Some(true), "{key:?}");
            }
            for &key in keys {
                assert_eq!(table.insert(key).ok(), Some(false), "{key:?}");
            }
            assert_eq!(table.len, keys.len());
        }
    }
    // Across a wrap of the generations, at a clear and at a growth.
    for (clears, keys) in [(1, 5), (0, 5000)] {
        let mut table = TranspositionTable::<u128>::new();
        table.generation = (1 << GENERATION_BITS) - 2;
        for key in 0..5000 {
            assert_eq!(table.insert(key).ok(), Some(true));
        }
        for _ in 0..clears {
            table.clear();
        }
        for key in 0..keys {
            assert_eq!(table.insert(key).ok(), Some(clears > 0), "{key}");
        }
        table.clear();
        assert_eq!(table.insert(0).ok(), Some(true));
    }
    // Keys that differ in one bit, and keys whose hashes share their low bits.
    let mut keys: Vec<u128> = (0..128 - GENERATION_BITS)
        .map(|bit| 1 << bit)
        .chain((0..20_000u128).map(|i| (i << 40) | (i * 0x9e37)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    check(&keys);
    let wide: Vec<[u64; 4]> = keys
        .iter()
        .flat_map(|&k| [[k as u64, 0, 0, 0], [0, 0, k as u64, (k >> 64) as u64]])
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    check(&wide);
}

/// Every key that the searches of the plain-search comparisons store stands
/// for one state, and each state has one key, under every layout and option:
/// random positions of the family and of the standard deck, kpat's rules,
/// sparse endgames, and the first kpat deals.
#[test]
fn the_keys_tell_states_apart() {
    let mut solver = Solver::new();
    solver.buffers.keys.on = true;
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let mut all = positions(300, 11, 12);
    all.extend(positions(300, 12, 30));
    all.extend(family_positions(400, 13, 16));
    all.extend(family_positions_of(300, 14, 16, kpat_options));
    all.extend(family_tall_positions(200, 15));
    all.extend(sparse_positions(1000, 16, random_rules));
    all.extend(
        (1..=20)
            .map(|n| Position::from_deck(&crate::deals::deck_from_kpat(n).unwrap(), Rules::kpat())),
    );
    for pos in &all {
        solver.solve(pos, &limits);
    }
    assert!(
        solver.buffers.keys.checked > 80_000,
        "{}",
        solver.buffers.keys.checked
    );
}
