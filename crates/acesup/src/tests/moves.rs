//! The tests of `moves.rs`: the module `moves::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;

#[test]
fn move_text() {
    for (text, mv) in [
        ("d2", Move::Discard(2)),
        (
            "f2>0",
            Move::Fill {
                src: 2,
                dst: 0,
                index: 0,
            },
        ),
        (
            "f2:3>0",
            Move::Fill {
                src: 2,
                dst: 0,
                index: 3,
            },
        ),
        ("deal", Move::Deal),
    ] {
        assert_eq!(Move::parse(text).unwrap(), mv);
        assert_eq!(mv.to_string(), text);
    }
    assert_eq!(Move::parse(" F2:0>0\n").unwrap().to_string(), "f2>0");
    assert_eq!(Move::parse("DEAL").unwrap(), Move::Deal);
    for bad in [
        "", "d", "d5", "d-1", "f2>2", "f2:-1>0", "f5>0", "f2>", "x", "deal2", "f2:>0", "d 2",
        "f2:1:1>0", "d--1",
    ] {
        assert_eq!(
            Move::parse(bad).unwrap_err().kind,
            ErrorKind::Move,
            "{bad:?}"
        );
    }
    assert_eq!(
        Move::parse("f0:999999999999999999999>1").unwrap_err().kind,
        ErrorKind::Move
    );
    assert_eq!(Move::parse("d-0").unwrap(), Move::Discard(0));
    assert_eq!(Move::parse("F02:003>1").unwrap().to_string(), "f2:3>1");
    assert_eq!(
        Move::parse("d5").unwrap_err().message,
        "not a move: 'd5' (pile must be an int from 0 to 4, got 5)"
    );
    assert_eq!(
        Move::parse("f1:2>1").unwrap_err().message,
        "not a move: 'f1:2>1' (a fill moves a card to another pile, got src = dst = 1)"
    );
    assert_eq!(Move::parse("d4").unwrap(), Move::Discard(4));
    assert_eq!(
        Move::parse("f9>9").unwrap_err().message,
        "not a move: 'f9>9' (src must be an int from 0 to 4, got 9)"
    );
    assert_eq!(
        Move::parse("f1:-2>0").unwrap_err().message,
        "not a move: 'f1:-2>0' (index must be a non-negative int, got -2)"
    );
    assert_eq!(Move::fill(1, 3, 2).unwrap().to_string(), "f1:2>3");
    assert!(Move::discard(5).is_err() && Move::fill(2, 2, 0).is_err());
}

#[test]
fn move_order_is_r3_order() {
    let mut moves = [
        Move::Deal,
        Move::Fill {
            src: 1,
            dst: 0,
            index: 0,
        },
        Move::Fill {
            src: 0,
            dst: 2,
            index: 1,
        },
        Move::Fill {
            src: 0,
            dst: 2,
            index: 0,
        },
        Move::Fill {
            src: 0,
            dst: 1,
            index: 5,
        },
        Move::Discard(3),
        Move::Discard(0),
    ];
    moves.sort();
    let text: Vec<String> = moves.iter().map(Move::to_string).collect();
    assert_eq!(
        text,
        ["d0", "d3", "f0:5>1", "f0>2", "f0:1>2", "f1>0", "deal"]
    );
}
