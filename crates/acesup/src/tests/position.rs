//! The tests of `position.rs`: the module `position::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::Game;

/// A position is small enough that copying one costs little (montecarlo and
/// greedy copy one per candidate): this fails when it grows.
#[test]
fn position_is_compact() {
    assert_eq!(std::mem::size_of::<Position>(), 240);
}

/// Tall piles, buried fills and their undo keep the representation whole.
#[test]
fn tall_piles_and_buried_fills() {
    let rules = Rules::easy();
    let deck = rules.deck();
    let piles = vec![deck[..49].to_vec(), vec![], vec![], deck[49..].to_vec()];
    let pos = Position::from_parts(rules, &piles, &[], &[], &[]).unwrap();
    pos.check_invariants();
    assert_eq!(&*pos.pile(0), &deck[..49]);
    assert_eq!(pos.card_from_top(0, 48), deck[0]);
    let mut after = pos.clone();
    for (index, dst) in [(30, 1), (0, 2)] {
        let mv = Move::Fill { src: 0, dst, index };
        after.play(mv).unwrap();
        after.check_invariants();
    }
    assert_eq!(after.pile(1)[0], deck[48 - 30]);
    assert_eq!(after.height(0), 47);
    after.unapply(Move::Fill {
        src: 0,
        dst: 2,
        index: 0,
    });
    after.unapply(Move::Fill {
        src: 0,
        dst: 1,
        index: 30,
    });
    after.check_invariants();
    assert_eq!(after, pos);
}

#[test]
fn tableau() {
    let pos = position_with_piles("7s/Js/5h3d/Ac", "standard");
    assert_eq!(
        pos.tableau(),
        "7♠  J♠  5♥  A♣\n        3♦\nstock 44  discards 3"
    );
    let pos = position_with_piles("-/Js/5h3d/Ac", "standard");
    assert_eq!(
        pos.tableau(),
        "--  J♠  5♥  A♣\n        3♦\nstock 48  discards 0"
    );
    let pos = position_with_piles("-/-/-/-", "standard");
    assert_eq!(pos.tableau(), "--  --  --  --\nstock 48  discards 4");
    let pos = position_with_piles("Th3d/-/-/-", "standard");
    assert_eq!(pos.tableau(), "T♥  --  --  --\n3♦\nstock 48  discards 2");
}

#[test]
fn position_errors() {
    let good = Game::from_seed(3, Rules::standard()).to_text();
    assert!(Position::parse(&good).is_ok());
    assert_eq!(
        Position::parse(&good.replacen(' ', " \t\n ", 2))
            .unwrap()
            .to_text(),
        good
    );
    let bad = [
        good.replacen('/', "", 1),
        format!("{good} extra"),
        good.replacen("fill=top", "fill=up", 1),
        good.replacen(' ', " X", 1),
    ];
    for text in bad {
        assert_eq!(
            Position::parse(&text).unwrap_err().kind,
            ErrorKind::Position,
            "{text}"
        );
    }
    // An ace among the discards (the helper puts the aces first in the stock).
    let text = position_with_piles("7s/Js/5h3d/Kc", "standard").to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let (ace, stock) = fields[1].split_at(2);
    let (first, discards) = fields[2].split_at(2);
    let swapped = format!("{} {first}{stock} {ace}{discards}", fields[0]);
    let err = Position::parse(&format!("{swapped} standard")).unwrap_err();
    assert!(err.message.contains(ace), "{}", err.message);
    // An ace is fine among the discards of the reverse game, where the king is the top rank.
    let reverse = position_with_piles("7s/Js/5h3d/Kc", "reverse").to_text();
    assert!(
        reverse.contains("As ") && Position::parse(&reverse).is_ok(),
        "{reverse}"
    );
}

/// R6.5's stock lengths: those a deal can leave.
#[test]
fn stock_lengths() {
    let ok = |len: usize, rules: &Rules| stock_length_problem(len, rules).is_none();
    let standard = Rules::standard();
    let lengths: Vec<usize> = (0..=52).filter(|&n| ok(n, &standard)).collect();
    assert_eq!(lengths, (0..=12).map(|k| 4 * k).collect::<Vec<_>>());
    let five = Rules::aces_up_5();
    let lengths: Vec<usize> = (0..=52).filter(|&n| ok(n, &five)).collect();
    assert_eq!(lengths, [0, 2, 7, 12, 17, 22, 27, 32, 37, 42, 47]);
    assert!((0..=48).all(|n| ok(n, &Rules::russian_aces())) && !ok(49, &Rules::russian_aces()));
    let small = Rules::parse("ranks=3").unwrap();
    assert_eq!(
        (0..=12).filter(|&n| ok(n, &small)).collect::<Vec<_>>(),
        [0, 4, 8]
    );
    assert_eq!(
        stock_length_problem(43, &standard).unwrap(),
        "the stock holds 43 cards, which no deal leaves: under deal_to='all' it holds 0 or 48 less a multiple of 4"
    );
    assert_eq!(
        stock_length_problem(52, &standard).unwrap(),
        "the stock holds 52 cards, more than the 48 left after the first cards of the piles"
    );
}

/// Positions of other layouts: P piles in the text, the layout's cards only.
#[test]
fn positions_of_layouts() {
    let game = Game::from_seed(8, Rules::aces_up_5());
    let text = game.to_text();
    assert_eq!(text.split(' ').next().unwrap().split('/').count(), 5);
    assert!(text.ends_with(" - fill=top,deal=free,relocate_single=false,ace_high=true,piles=5"));
    assert_eq!(Position::parse(&text).unwrap(), *game.position());
    let four = text.replacen('/', "", 1);
    assert_eq!(
        Position::parse(&four).unwrap_err().message,
        format!(
            "the piles field has 5 piles separated by '/', got 4 in '{}'",
            four.split(' ').next().unwrap()
        )
    );
    let tableau = game.position().tableau();
    assert_eq!(tableau.lines().next().unwrap().split("  ").count(), 5);
    assert!(tableau.ends_with("stock 47  discards 0"));
    // A small deck: its own cards, no other.
    let small = Rules::parse("suits=2,ranks=2").unwrap();
    let game = Game::from_seed(0, small);
    let text = game.to_text();
    assert_eq!(Position::parse(&text).unwrap(), *game.position());
    let stray = text.replacen("Ac", "2c", 1);
    assert_eq!(
        Position::parse(&stray).unwrap_err().message,
        "the position holds 2c, which is not in the deck of these rules (4 cards)"
    );
    let pos = position_with_piles("Ac/Ad/-/-", "suits=2,ranks=2");
    assert_eq!(pos.tableau(), "A♣  A♦  --  --\nstock 0  discards 2");
}
