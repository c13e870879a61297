//! The tests of `game.rs`: the module `game::tests`, in `src/tests/` with the
//! tests of the other modules.

use super::*;
use crate::deals::deck_from_seed;
use crate::position::Position;

#[test]
fn start_of_a_game() {
    let deck = deck_from_seed(0, &Rules::standard());
    let game = Game::from_seed(0, Rules::standard());
    for p in 0..4 {
        assert_eq!(&*game.position().pile(p), &deck[p..p + 1]);
    }
    assert_eq!(game.position().stock(), &deck[4..]);
    assert_eq!(Position::parse(&game.to_text()).unwrap(), *game.position());
    game.position().check_invariants();
}

#[test]
fn play_and_undo_restore_everything() {
    use crate::rng::Rng;
    let mut rng = Rng::new(5);
    for seed in 0..300 {
        let rules = [
            Rules::standard(),
            Rules::easy(),
            Rules {
                relocate_single: true,
                ..Rules::reverse()
            },
        ][seed % 3];
        let mut game = Game::from_seed(seed as u64, rules);
        let mut seen = vec![game.clone()];
        while !game.is_over() && game.history().len() < 300 {
            let moves = game.legal_moves();
            game.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
            game.position().check_invariants();
            seen.push(game.clone());
        }
        let text = game.to_text();
        assert_eq!(
            Game::from_position(Position::parse(&text).unwrap(), Rng::new(0)),
            game
        );
        let replayed = Game::replay(game.start_position(), game.history(), *game.rng()).unwrap();
        assert_eq!(replayed.to_text(), text);
        while let Some(before) = seen.pop() {
            assert_eq!(game.to_text(), before.to_text());
            game.position().check_invariants();
            if game.undo().is_err() {
                assert!(seen.is_empty());
            }
        }
        assert_eq!(game.undo().unwrap_err().kind, ErrorKind::Undo);
    }
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = Game::from_seed(1, Rules::standard());
    let before = game.to_text();
    for mv in [
        Move::Discard(0),
        Move::Discard(1),
        Move::Discard(2),
        Move::Discard(3),
        Move::Deal,
    ] {
        if game.play(mv).is_err() {
            assert_eq!(game.to_text(), before);
        } else {
            game.undo().unwrap();
        }
    }
    assert_eq!(game.history(), &[]);
}
