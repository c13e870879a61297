//! The tests of `rules.rs`: the module `rules::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::options::unknown_option;
use super::*;
use crate::lanes::rising::lane_of;
use crate::position::Position;
use crate::rng::Rng;
use crate::ErrorKind;

#[test]
fn rank_order() {
    let c = |t: &str| Card::parse(t).unwrap();
    assert!(strength(c("Ah"), &Rules::standard()) > strength(c("Kh"), &Rules::standard()));
    assert!(strength(c("Kh"), &Rules::reverse()) > strength(c("Ah"), &Rules::reverse()));
    assert_eq!(strength(c("Ah"), &Rules::reverse()), 0);
    assert_eq!(strength(c("2h"), &Rules::standard()), 0);
    assert!(is_top_rank(c("As"), &Rules::standard()) && !is_top_rank(c("Ks"), &Rules::standard()));
    assert!(is_top_rank(c("Ks"), &Rules::reverse()) && !is_top_rank(c("As"), &Rules::reverse()));
    // A card's stronger bits are those of the higher cards of its suit.
    for ace_high in [false, true] {
        let rules = Rules {
            ace_high,
            ..Rules::standard()
        };
        for card in Card::all() {
            let stronger: u64 = Card::all()
                .filter(|c| {
                    c.suit() == card.suit() && strength(*c, &rules) > strength(card, &rules)
                })
                .map(|c| top_bit(c, ace_high))
                .sum();
            let all_cards: u64 = Card::all().map(|c| top_bit(c, ace_high)).sum();
            assert_eq!(
                stronger_bits(top_bit(card, ace_high)) & all_cards,
                stronger,
                "{card}"
            );
        }
        assert_eq!(
            stronger_bits(0) & Card::all().map(|c| top_bit(c, ace_high)).sum::<u64>(),
            0
        );
    }
    // The lanes of a set of cards are those of its cards' suits, for sets of up
    // to 4 cards drawn at random (so that any number of suits may be missing).
    let mut rng = Rng::new(13);
    for _ in 0..1000 {
        let count = rng.below(5);
        let cards: Vec<Card> = (0..count).map(|_| Card::new(rng.below(52) as u8)).collect();
        let bits = cards.iter().fold(0, |m, &c| m | top_bit(c, true));
        let lanes = cards.iter().fold(0, |m, &c| m | lane_of(top_bit(c, true)));
        assert_eq!(lanes_of(bits), lanes, "{cards:?}");
    }
    // Strengths are a permutation of 0..12 within a suit, for both orders.
    for rules in [Rules::standard(), Rules::reverse()] {
        let mut s: Vec<u8> = (0..13).map(|i| strength(Card::new(i), &rules)).collect();
        s.sort();
        assert_eq!(s, (0..13).collect::<Vec<u8>>());
    }
}

#[test]
fn rules_text() {
    assert_eq!(
        Rules::standard().to_string(),
        "fill=top,deal=free,relocate_single=false,ace_high=true"
    );
    for rules in [
        Rules::standard(),
        Rules::strict(),
        Rules::easy(),
        Rules::reverse(),
    ] {
        assert_eq!(Rules::parse(&rules.to_string()).unwrap(), rules);
    }
    let stuck = Rules {
        deal: DealRule::Stuck,
        ..Rules::strict()
    };
    assert_eq!(Rules::parse("strict,deal=stuck").unwrap(), stuck);
    assert_eq!(Rules::parse("deal=stuck,fill=ace").unwrap(), stuck);
    assert_eq!(Rules::parse("reverse").unwrap(), Rules::reverse());
    assert_eq!(Rules::parse("ace_high=0").unwrap(), Rules::reverse());
    assert!(Rules::parse("relocate_single=yes").unwrap().relocate_single);
    assert_eq!(Rules::parse("").unwrap(), Rules::standard());
    assert_eq!(Rules::parse(" Strict , DEAL = Stuck ").unwrap(), stuck);
    for (bad, message) in [
        ("fill=all", "fill must be one of 'top', 'ace', 'any', 'stack', got 'all'"),
        ("colour=red", "unknown rules option 'colour': expected one of 'fill', 'deal', 'relocate_single', 'ace_high', 'piles', 'suits', 'ranks', 'deal_to', 'reserve'"),
        ("deal=stuck,strict", "the preset 'strict' must come first in 'deal=stuck,strict'"),
        ("bogus", "unknown rules preset 'bogus': expected one of 'standard', 'strict', 'easy', 'reverse', 'aces_up_5', 'russian_aces', 'kpat', 'pysol', 'pysol_aces_up_5', 'pysol_russian_aces', 'pysol_fortunes', 'pysol_firing_squad'"),
        ("ace_high=maybe", "ace_high must be one of 'true', '1', 'yes', 'false', '0', 'no', got 'maybe'"),
        ("fill", "expected option=value in 'fill', got 'fill'"),
        ("fill=top,fill=any", "option 'fill' is given twice in 'fill=top,fill=any'"),
        (",", "expected option=value in ',', got ''"),
    ] {
        let err = Rules::parse(bad).unwrap_err();
        assert_eq!((err.kind, err.message.as_str()), (ErrorKind::Rules, message), "{bad}");
    }
}

fn moves(p: &Position) -> Vec<String> {
    legal_moves(p).iter().map(Move::to_string).collect()
}

fn with_piles(piles: &str, rules: &str) -> Position {
    crate::position::position_with_piles(piles, rules)
}

fn reason(p: &Position, mv: Move) -> String {
    illegal_reason(p, mv).expect("an illegal move")
}

#[test]
fn documented_examples() {
    // R2.1: top cards 7s Js 5h Ac.
    let p = with_piles("7s/Js/5h/Ac", "standard");
    assert_eq!(moves(&p), ["d0"]);
    assert_eq!(
        reason(&p, Move::Discard(1)),
        "cannot discard Js from pile 1: no higher spade is on top of another pile"
    );
    assert_eq!(
        reason(&p, Move::Deal),
        "cannot deal: pile 0 must be discarded first"
    );
    // R2.2 / R2.3: piles [7s] [] [3d 5h] [Ac].
    let p = with_piles("7s/-/3d5h/Ac", "standard");
    assert_eq!(moves(&p), ["f2>1", "deal"]);
    let p = with_piles("7s/-/3d5h/Ac", "easy");
    assert_eq!(moves(&p), ["f2>1", "f2:1>1", "deal"]);
    let p = with_piles("7s/-/3d5h/Ac", "strict");
    assert_eq!(moves(&p), ["deal"]);
    assert_eq!(
        reason(
            &p,
            Move::Fill {
                src: 2,
                dst: 1,
                index: 0
            }
        ),
        "cannot fill pile 1 with 5h: fill='ace' lets only an ace fill an empty pile"
    );
    let p = with_piles("7s/-/3dAh/Kc", "strict");
    assert_eq!(moves(&p), ["f2>1", "deal"]);
    let p = with_piles("7s/-/3d5h/Ac", "deal=stuck");
    assert_eq!(moves(&p), ["f2>1"]);
    assert_eq!(
        reason(&p, Move::Deal),
        "cannot deal: deal='stuck' and a fill is still possible (f2>1)"
    );
    let p = with_piles("7s/-/3d5h/Ac", "relocate_single=true");
    assert_eq!(moves(&p), ["f0>1", "f2>1", "f3>1", "deal"]);
    let p = with_piles("7s/-/3d5h/Ac", "deal=stuck,relocate_single=true");
    assert_eq!(moves(&p), ["f0>1", "f2>1", "f3>1"]);
    let p = with_piles("7s/-/3d5h/Kc", "reverse,fill=ace");
    assert_eq!(
        reason(
            &p,
            Move::Fill {
                src: 2,
                dst: 1,
                index: 0
            }
        ),
        "cannot fill pile 1 with 5h: fill='ace' lets only a king fill an empty pile"
    );
}

#[test]
fn illegal_fill_reasons_in_order() {
    let p = with_piles("7s/-/3d5h/Ac", "standard");
    let fill = |src, dst, index| reason(&p, Move::Fill { src, dst, index });
    assert_eq!(fill(1, 0, 0), "cannot fill pile 0: it is not empty");
    assert_eq!(fill(3, 0, 5), "cannot fill pile 0: it is not empty");
    let p = with_piles("7s/-/-/3d5hAc", "standard");
    let fill = |src, dst, index| reason(&p, Move::Fill { src, dst, index });
    assert_eq!(
        fill(2, 1, 0),
        "cannot fill pile 1 from pile 2: pile 2 is empty"
    );
    assert_eq!(
        fill(3, 1, 3),
        "cannot fill pile 1 from pile 3: it has no card at index 3"
    );
    assert_eq!(
        fill(3, 1, 1),
        "cannot fill pile 1 with a buried card: fill='top' moves only the top card"
    );
    assert_eq!(
        fill(0, 1, 0),
        "cannot fill pile 1 from pile 0: its only card may not move"
    );
    // With the stock empty (every other card discarded), a lone card stays.
    let rules = Rules {
        relocate_single: true,
        ..Rules::standard()
    };
    let cards = |t: &str| -> Vec<Card> {
        t.as_bytes()
            .chunks(2)
            .map(|c| Card::parse(std::str::from_utf8(c).unwrap()).unwrap())
            .collect()
    };
    let piles = [cards("7s"), vec![], cards("AsAhAd"), cards("Ac")];
    let discards: Vec<Card> = Card::all()
        .filter(|c| !piles.iter().flatten().any(|p| p == c))
        .collect();
    let p = Position::from_parts(rules, &piles, &[], &discards, &[]).unwrap();
    assert_eq!(
        reason(
            &p,
            Move::Fill {
                src: 0,
                dst: 1,
                index: 0
            }
        ),
        "cannot fill pile 1 from pile 0: its only card may not move once the stock is empty"
    );
    assert_eq!(moves(&p), ["f2>1"]);
    assert_eq!(reason(&p, Move::Deal), "cannot deal: the stock is empty");
    assert_eq!(
        reason(&p, Move::Discard(1)),
        "cannot discard from pile 1: it is empty"
    );
}

fn cards(text: &str) -> Vec<Card> {
    crate::cards::parse_cards(text).unwrap()
}

fn text_of(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A position of these piles and this stock (in deal order), the other cards of
/// the layout discarded.
fn position(rules: Rules, piles: &[&str], stock: &str) -> Position {
    let piles: Vec<Vec<Card>> = piles.iter().map(|p| cards(p)).collect();
    let stock = cards(stock);
    let discards: Vec<Card> = rules
        .deck()
        .into_iter()
        .filter(|c| !piles.iter().flatten().chain(&stock).any(|o| o == c))
        .collect();
    Position::from_parts(rules, &piles, &stock, &discards, &[]).unwrap()
}

#[test]
fn layouts_of_r1_4() {
    let small = Rules::parse("ranks=3").unwrap();
    assert_eq!(
        text_of(&small.deck()),
        "Qc Kc Ac Qd Kd Ad Qh Kh Ah Qs Ks As"
    );
    assert_eq!((small.deck_size(), small.win_score()), (12, 8));
    let game = crate::Game::from_seed(1, small);
    assert_eq!(
        (game.position().stock().len(), game.position().piles()),
        (8, 4)
    );
    let reverse = Rules::parse("reverse,ranks=5,suits=1").unwrap();
    assert_eq!(text_of(&reverse.deck()), "9c Tc Jc Qc Kc");
    let two = Rules::parse("suits=2").unwrap();
    assert_eq!(two.deck().len(), 26);
    assert!(two.deck().iter().all(|c| c.suit() < 2));
    assert_eq!(Rules::standard().deck(), Card::all().collect::<Vec<_>>());
    assert_eq!(Rules::standard().win_score(), 48);
    assert_eq!(Rules::aces_up_5().win_score(), 48);
    let five = crate::Game::from_seed(1, Rules::aces_up_5());
    assert_eq!(five.position().stock().len(), 47);
    assert_eq!(
        Rules::parse("suits=1,ranks=3").unwrap_err().message,
        "suits=1 and ranks=3 make a deck of 3 cards, fewer than the 4 piles"
    );
    assert!(Rules::parse("suits=1,ranks=4").is_ok());
    assert!(Rules::parse("suits=1,ranks=4,piles=5").is_err());
}

#[test]
fn family_options_text_and_values() {
    let rules = Rules {
        piles: 5,
        ranks: 6,
        ..Rules::standard()
    };
    assert_eq!(
        rules.to_string(),
        "fill=top,deal=free,relocate_single=false,ace_high=true,piles=5,ranks=6"
    );
    assert_eq!(
        Rules::russian_aces().to_string(),
        "fill=top,deal=free,relocate_single=false,ace_high=true,deal_to=empty"
    );
    for rules in [
        rules,
        Rules::aces_up_5(),
        Rules::russian_aces(),
        Rules::parse("deal=any,suits=3,ranks=2,piles=4,deal_to=empty").unwrap(),
    ] {
        assert_eq!(Rules::parse(&rules.to_string()).unwrap(), rules);
    }
    assert_eq!(Rules::parse("aces_up_5").unwrap(), Rules::aces_up_5());
    // R8.3: the programs' games as a person plays them.
    assert_eq!(
        Rules::parse("kpat").unwrap().to_string(),
        "fill=top,deal=any,relocate_single=true,ace_high=true"
    );
    assert_eq!(Rules::preset("pysol").unwrap(), Rules::kpat());
    assert_eq!(
        Rules::preset("PySol_Aces_Up_5").unwrap().to_string(),
        "fill=top,deal=any,relocate_single=true,ace_high=true,piles=5"
    );
    assert_eq!(
        Rules::preset("pysol_russian_aces").unwrap().to_string(),
        "fill=top,deal=any,relocate_single=true,ace_high=true,deal_to=empty"
    );
    assert_eq!(
        Rules::parse("Russian_Aces, piles=5").unwrap(),
        Rules {
            piles: 5,
            ..Rules::russian_aces()
        }
    );
    for (bad, message) in [
        ("piles=3", "piles must be 4 or 5, got 3"),
        ("piles=five", "piles must be 4 or 5, got 'five'"),
        ("suits=0", "suits must be an int from 1 to 4, got 0"),
        ("ranks=14", "ranks must be an int from 2 to 13, got 14"),
        ("ranks=-2", "ranks must be an int from 2 to 13, got '-2'"),
        (
            "deal=never",
            "deal must be one of 'free', 'stuck', 'any', got 'never'",
        ),
        (
            "deal_to=some",
            "deal_to must be one of 'all', 'empty', got 'some'",
        ),
    ] {
        let err = Rules::parse(bad).unwrap_err();
        assert_eq!(
            (err.kind, err.message.as_str()),
            (ErrorKind::Rules, message),
            "{bad}"
        );
    }
    // The keyword values, as the bindings pass them.
    let mut rules = Rules::standard();
    rules.set_option("piles", OptionValue::Int(5)).unwrap();
    rules
        .set_option("deal_to", OptionValue::Text("empty"))
        .unwrap();
    rules
        .set_option("ace_high", OptionValue::Bool(false))
        .unwrap();
    assert_eq!(
        rules,
        Rules {
            ace_high: false,
            ..Rules::parse("piles=5,deal_to=empty").unwrap()
        }
    );
    for (option, value, message) in [
        (
            "piles",
            OptionValue::Bool(true),
            "piles must be 4 or 5, got True",
        ),
        (
            "suits",
            OptionValue::Other("2.0"),
            "suits must be an int from 1 to 4, got 2.0",
        ),
        (
            "ace_high",
            OptionValue::Text("yes"),
            "ace_high must be True or False, got 'yes'",
        ),
        (
            "ace_high",
            OptionValue::Int(1),
            "ace_high must be True or False, got 1",
        ),
        (
            "fill",
            OptionValue::Text("TOP"),
            "fill must be one of 'top', 'ace', 'any', 'stack', got 'TOP'",
        ),
        (
            "fill",
            OptionValue::Int(0),
            "fill must be one of 'top', 'ace', 'any', 'stack', got 0",
        ),
    ] {
        let before = rules;
        let err = rules.set_option(option, value).unwrap_err();
        assert_eq!(
            (err.kind, err.message.as_str()),
            (ErrorKind::Rules, message)
        );
        assert_eq!(rules, before, "a bad value changes nothing");
    }
    assert_eq!(
        rules
            .set_option("colour", OptionValue::Text("red"))
            .unwrap_err()
            .message,
        unknown_option("colour").message
    );
}

/// R2.3: `deal="any"` deals with a discard or a fill pending.
#[test]
fn deal_any_example() {
    let p = with_piles("7s/Js/5h/Ac", "deal=any");
    assert_eq!(moves(&p), ["d0", "deal"]);
    assert!(can_deal(&p) && illegal_reason(&p, Move::Deal).is_none());
    let p = with_piles("7s/-/3d5h/Ac", "deal=any");
    assert_eq!(moves(&p), ["f2>1", "deal"]);
    let p = with_piles("7s/-/3d5h/Ac", "deal=stuck");
    assert!(!can_deal(&p));
}

/// R2.3's examples of `deal_to`, and the partial last deal of five piles.
#[test]
fn deal_to_examples() {
    let stock = "9c Jd 2h 4c Ac Ad Ah As";
    let all = position(Rules::standard(), &["7s", "", "3d 5h", ""], stock);
    assert_eq!(deal_targets(&all), 0b1111);
    let empty = position(Rules::russian_aces(), &["7s", "", "3d 5h", ""], stock);
    assert_eq!(deal_targets(&empty), 0b1010);
    let mut dealt = empty.clone();
    dealt.play(Move::Deal).unwrap();
    assert_eq!(
        dealt.to_text().split(' ').take(2).collect::<Vec<_>>(),
        ["7s/9c/3d5h/Jd", "2h4cAcAdAhAs"]
    );
    dealt.check_invariants();
    dealt.unapply(Move::Deal);
    assert_eq!(dealt, empty);
    // No empty pile: every pile, as under "all".
    let full = position(Rules::russian_aces(), &["7s", "Kd", "3d 5h", "Qh"], stock);
    assert_eq!(deal_targets(&full), 0b1111);
    // Five piles: a stock of 2 goes to piles 0 and 1, and comes back.
    let five = position(
        Rules::aces_up_5(),
        &["7s As", "Kd", "3d 5h", "Ad Ah Ac", ""],
        "9c Jd",
    );
    assert_eq!(deal_targets(&five), 0b00011);
    let mut dealt = five.clone();
    dealt.play(Move::Deal).unwrap();
    assert_eq!(
        dealt.to_text().split(' ').next(),
        Some("7sAs9c/KdJd/3d5h/AdAhAc/-")
    );
    assert_eq!(
        illegal_reason(&dealt, Move::Deal).unwrap(),
        "cannot deal: the stock is empty"
    );
    dealt.unapply(Move::Deal);
    assert_eq!(dealt, five);
    // A seeded game of five piles deals 5 cards nine times, then 2.
    let mut game = crate::Game::from_seed(3, Rules::aces_up_5());
    let mut sizes = Vec::new();
    while !game.position().stock().is_empty() {
        let before = game.position().stock().len();
        let mv = match first_discard(game.position()) {
            Some(p) => Move::Discard(p as u8),
            None if can_deal(game.position()) => Move::Deal,
            None => blocking_fill(game.position()).unwrap(),
        };
        game.play(mv).unwrap();
        if mv == Move::Deal {
            sizes.push(before - game.position().stock().len());
        }
    }
    assert_eq!(sizes, [5, 5, 5, 5, 5, 5, 5, 5, 5, 2]);
    while game.undo().is_ok() {
        game.position().check_invariants();
    }
    assert_eq!(
        *game.position(),
        *crate::Game::from_seed(3, Rules::aces_up_5()).position()
    );
}

/// R4.2's examples: the wins of smaller layouts.
#[test]
fn wins_of_layouts() {
    let small = Rules::parse("ranks=3").unwrap();
    let won = position(small, &["Ac", "Ad", "Ah", "As"], "");
    assert!(is_won(&won) && won.is_won() && score(&won) == 8);
    let lost = position(small, &["Ac", "Ad", "Ah", "As Ks"], "");
    assert!(is_over(&lost) && !is_won(&lost));
    let five = Rules::parse("suits=2,ranks=5,piles=5").unwrap();
    let won = position(five, &["Ac", "", "Ad", "", ""], "");
    assert!(is_won(&won) && score(&won) == five.win_score() && five.win_score() == 8);
}

/// R7 check 0: a pile the layout lacks.
#[test]
fn no_such_pile() {
    let p = with_piles("7s/Js/5h/Ac", "standard");
    let fill = |src, dst| Move::Fill { src, dst, index: 0 };
    for (mv, message) in [
        (
            Move::Discard(4),
            "there is no pile 4: these rules have 4 piles",
        ),
        (fill(4, 0), "there is no pile 4: these rules have 4 piles"),
        (fill(0, 4), "there is no pile 4: these rules have 4 piles"),
    ] {
        assert_eq!(reason(&p, mv), message);
    }
    let five = position(
        Rules::aces_up_5(),
        &["7s", "Kd", "3d 5h Ac", "Qh Ad Ah As", ""],
        "9c Jd",
    );
    assert_eq!(
        reason(&five, Move::Discard(4)),
        "cannot discard from pile 4: it is empty"
    );
}

// --- The plain versions, and the fast ones checked against them. ---

/// R2.1 by looking at the other piles, without the masks.
fn plain_can_discard(pos: &Position, p: usize) -> bool {
    let Some(card) = pos.top(p) else { return false };
    (0..pos.piles()).any(|q| {
        q != p
            && pos.top(q).is_some_and(|other| {
                other.suit() == card.suit()
                    && strength(other, &pos.rules) > strength(card, &pos.rules)
            })
    })
}

/// R2.2 read literally.
fn plain_can_fill(pos: &Position, src: usize, dst: usize, index: usize) -> bool {
    let len = pos.height(src);
    let rules = &pos.rules;
    dst != src
        && pos.height(dst) == 0
        && (len >= 2 || (len == 1 && rules.relocate_single && !pos.stock().is_empty()))
        && index < len
        && match rules.fill {
            FillRule::Top => index == 0,
            FillRule::Ace => index == 0 && is_top_rank(pos.card_from_top(src, 0), rules),
            FillRule::Any => true,
            // The whole pile moves as a lone card does.
            FillRule::Stack => {
                index + 1 < len || (rules.relocate_single && !pos.stock().is_empty())
            }
        }
}

/// R2.3 read literally.
fn plain_can_deal(pos: &Position) -> bool {
    let piles = pos.piles();
    let no_discard = !(0..piles).any(|p| plain_can_discard(pos, p));
    let no_real_fill = !(0..piles).any(|s| {
        pos.height(s) >= 2
            && (0..piles).any(|d| (0..pos.height(s)).any(|i| plain_can_fill(pos, s, d, i)))
    });
    !pos.stock().is_empty()
        && match pos.rules.deal {
            DealRule::Any => true,
            DealRule::Free => no_discard,
            DealRule::Stuck => no_discard && no_real_fill,
        }
}

/// R2.3 `deal_to` read literally: the receiving piles in order, while the stock lasts.
fn plain_deal_targets(pos: &Position) -> Vec<usize> {
    let piles = pos.piles();
    let empty: Vec<usize> = (0..piles).filter(|&p| pos.height(p) == 0).collect();
    let receiving = if pos.rules.deal_to == DealTo::Empty && !empty.is_empty() {
        empty
    } else {
        (0..piles).collect()
    };
    receiving.into_iter().take(pos.stock().len()).collect()
}

/// R3 read literally: every candidate move in order, kept when legal.
fn plain_legal_moves(pos: &Position) -> Vec<Move> {
    let piles = pos.piles();
    let mut out: Vec<Move> = (0..piles)
        .filter(|&p| plain_can_discard(pos, p))
        .map(|p| Move::Discard(p as u8))
        .collect();
    for src in 0..piles {
        for dst in 0..piles {
            for index in 0..pos.height(src) {
                if plain_can_fill(pos, src, dst, index) {
                    out.push(Move::Fill {
                        src: src as u8,
                        dst: dst as u8,
                        index: index as u64,
                    });
                }
            }
        }
    }
    if plain_can_deal(pos) {
        out.push(Move::Deal);
    }
    out
}

/// Positions met along random games under every combination of options, plus
/// random deals of the layout's cards into tall piles.
pub(crate) fn sample_positions(count: usize) -> Vec<Position> {
    let mut rng = Rng::new(99);
    let mut out = Vec::new();
    let all_rules = all_rules();
    let mut game_no = 0u64;
    while out.len() < count {
        let rules = all_rules[game_no as usize % all_rules.len()];
        let mut game = crate::Game::from_seed(game_no, rules);
        game_no += 1;
        for _ in 0..200 {
            out.push(game.position().clone());
            let moves = plain_legal_moves(game.position());
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            game.play(mv).unwrap();
        }
        // A random scatter of the cards: tall piles, few or many in the stock.
        let mut deck = rules.deck();
        crate::rng::shuffle_slice(&mut deck, &mut rng);
        let piles = usize::from(rules.piles);
        let mut pile_cards: Vec<Vec<Card>> = vec![Vec::new(); piles];
        let first = deck.len() - piles;
        let stock_len = if rules.deal_to == DealTo::Empty {
            rng.below(first as u64 + 1) as usize
        } else {
            first - piles * rng.below((first / piles) as u64 + 1) as usize
        };
        let n_discards = rng.below(10) as usize;
        let mut discards = Vec::new();
        let mut stock = Vec::new();
        for &card in deck.iter() {
            if stock.len() < stock_len {
                stock.push(card);
            } else if discards.len() < n_discards && !is_top_rank(card, &rules) {
                discards.push(card);
            } else {
                let spread = if rng.below(3) == 0 { 2 } else { piles as u64 };
                pile_cards[rng.below(spread) as usize].push(card);
            }
        }
        out.push(Position::from_parts(rules, &pile_cards, &stock, &discards, &[]).unwrap());
    }
    out
}

#[test]
fn fast_legal_moves_match_the_plain_rules() {
    for pos in sample_positions(30_000) {
        pos.check_invariants();
        let plain = plain_legal_moves(&pos);
        let fast = LegalMoves::of(&pos);
        assert_eq!(legal_moves(&pos), plain, "{}", pos.to_text());
        assert_eq!(fast.len(), plain.len());
        assert_eq!(fast.is_empty(), plain.is_empty());
        assert_eq!(is_over(&pos), plain.is_empty());
        assert_eq!(can_deal(&pos), plain_can_deal(&pos));
        let targets: Vec<usize> = (0..MAX_PILES)
            .filter(|&p| deal_targets(&pos) >> p & 1 == 1)
            .collect();
        assert_eq!(targets, plain_deal_targets(&pos), "{}", pos.to_text());
        for p in 0..pos.piles() {
            assert_eq!(can_discard(&pos, p), plain_can_discard(&pos, p));
        }
        // R7 agrees with R2: a move has no reason to be illegal exactly when it is legal.
        for mv in candidate_moves(&pos) {
            assert_eq!(
                illegal_reason(&pos, mv).is_none(),
                plain.contains(&mv),
                "{mv} in {}",
                pos.to_text()
            );
        }
        // A deal, played and taken back, puts the cards on its targets and back.
        if plain.contains(&Move::Deal) {
            let mut dealt = pos.clone();
            dealt.apply(Move::Deal);
            dealt.check_invariants();
            for (k, &p) in targets.iter().enumerate() {
                assert_eq!(dealt.top(p), Some(pos.stock()[k]));
            }
            dealt.unapply(Move::Deal);
            assert_eq!(dealt, pos);
            dealt.check_invariants();
        }
    }
}

fn candidate_moves(pos: &Position) -> Vec<Move> {
    let mut out: Vec<Move> = (0..MAX_PILES as u8).map(Move::Discard).collect();
    out.push(Move::Deal);
    for src in 0..MAX_PILES as u8 {
        for dst in (0..MAX_PILES as u8).filter(|&d| d != src) {
            let height = if usize::from(src) < pos.piles() {
                pos.height(usize::from(src))
            } else {
                0
            };
            for index in 0..=height as u64 + 1 {
                out.push(Move::Fill { src, dst, index });
            }
        }
    }
    out
}

/// R2.4 and R3 read literally: the moves of the piles, then the moves to the
/// reserve by source pile, from it by destination pile, then the deal.
fn plain_legal_moves_with_reserve(pos: &Position) -> Vec<Move> {
    let mut out = plain_legal_moves(pos);
    let deal = out.pop_if(|mv| *mv == Move::Deal);
    let piles = 0..pos.piles();
    let held = pos.reserve_card().is_some();
    if pos.rules.reserve > 0 && !held && pos.score() < pos.rules.win_score() {
        out.extend(
            piles
                .clone()
                .filter(|&p| pos.height(p) > 0)
                .map(|p| Move::ToReserve(p as u8)),
        );
    }
    if held {
        out.extend(
            piles
                .filter(|&p| pos.height(p) == 0)
                .map(|p| Move::FromReserve(p as u8)),
        );
    }
    out.extend(deal);
    out
}

#[test]
fn reserve_moves_match_the_plain_rules() {
    let mut rng = Rng::new(49);
    for (n, rules) in all_rules().into_iter().enumerate() {
        let rules = Rules {
            reserve: 1,
            ..rules
        };
        let mut game = crate::Game::from_seed(n as u64, rules);
        for _ in 0..300 {
            let pos = game.position().clone();
            pos.check_invariants();
            let plain = plain_legal_moves_with_reserve(&pos);
            let fast = LegalMoves::of(&pos);
            assert_eq!(legal_moves(&pos), plain, "{}", pos.to_text());
            assert_eq!(
                (fast.len(), fast.is_empty()),
                (plain.len(), plain.is_empty())
            );
            let reserve_moves =
                (0..MAX_PILES as u8).flat_map(|p| [Move::ToReserve(p), Move::FromReserve(p)]);
            for mv in candidate_moves(&pos).into_iter().chain(reserve_moves) {
                assert_eq!(
                    illegal_reason(&pos, mv).is_none(),
                    plain.contains(&mv),
                    "{mv} in {}",
                    pos.to_text()
                );
            }
            assert_eq!(Position::parse(&pos.to_text()).unwrap(), pos);
            let Some(&mv) = plain.get(rng.below(plain.len().max(1) as u64) as usize) else {
                assert!(!is_won(&pos) || pos.reserve_card().is_none());
                break;
            };
            let mut after = pos.clone();
            after.apply(mv);
            after.check_invariants();
            after.unapply(mv);
            assert_eq!(after, pos, "{mv} taken back");
            game.play(mv).unwrap();
        }
    }
}
