//! The tour checker every reported tour goes through, whatever device found it.
//!
//! It is written independently of the search (plain coordinates, no padded
//! grid, no move indices) so that a bug in either is caught by the other.

use anyhow::{bail, Result};

use super::moves::is_knight_move;
use crate::board::{BoardSize, Square};

/// Checks that `tour` is a knight's tour of `board` starting on `start`:
/// every square exactly once, every step a knight move, and for a closed
/// tour the last square a knight move from the first.
pub fn check_tour(board: BoardSize, start: Square, closed: bool, tour: &[Square]) -> Result<()> {
    if tour.len() != board.area() {
        bail!("tour has {} squares but the {board} board has {}", tour.len(), board.area());
    }
    if tour[0] != start {
        bail!("tour starts on {} instead of {start}", tour[0]);
    }
    let mut seen = vec![false; board.area()];
    for (i, &square) in tour.iter().enumerate() {
        if !board.contains(square) {
            bail!("move {} goes to {square}, off the {board} board", i + 1);
        }
        let index = square.index(board);
        if seen[index] {
            bail!("move {} revisits {square}", i + 1);
        }
        seen[index] = true;
        if i > 0 && !is_knight_move(tour[i - 1], square) {
            bail!("move {} from {} to {square} is not a knight move", i + 1, tour[i - 1]);
        }
    }
    if closed && tour.len() > 1 && !is_knight_move(tour[tour.len() - 1], start) {
        bail!("tour is not closed: {} is not a knight move from {start}", tour[tour.len() - 1]);
    }
    if closed && tour.len() == 1 {
        bail!("a one-square tour cannot be closed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(names: &str) -> Vec<Square> {
        names.split_whitespace().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn rejects_each_kind_of_fault() {
        let board = BoardSize::new(3, 3);
        let start = Square::new(0, 0);
        // 3x3 has no tour; any 9-square path must fail somewhere.
        let path = squares("a1 b3 c1 a2 c3 b1 a3 c2 b2");
        let err = check_tour(board, start, false, &path).unwrap_err().to_string();
        assert!(err.contains("not a knight move"), "{err}");
        let err = check_tour(board, start, false, &path[..8]).unwrap_err().to_string();
        assert!(err.contains("has 8 squares"), "{err}");
        let err = check_tour(BoardSize::new(1, 1), Square::new(0, 0), false, &squares("b1")).unwrap_err().to_string();
        assert!(err.contains("starts on b1"), "{err}");
        let err = check_tour(BoardSize::new(1, 1), Square::new(0, 0), true, &squares("a1")).unwrap_err().to_string();
        assert!(err.contains("cannot be closed"), "{err}");
    }

    #[test]
    fn accepts_a_known_open_tour_and_checks_closure() {
        // An open tour of 3x4 (checked by hand); it ends on b1, which is not
        // a knight move from a1, so the same path fails as a closed tour.
        let board = BoardSize::new(3, 4);
        let start = Square::new(0, 0);
        let tour = squares("a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1");
        check_tour(board, start, false, &tour).unwrap();
        assert!(check_tour(board, start, true, &tour).unwrap_err().to_string().contains("not closed"));
        let mut revisit = tour.clone();
        revisit[11] = revisit[9];
        assert!(check_tour(board, start, false, &revisit).unwrap_err().to_string().contains("revisits"));
        let mut off_board = tour.clone();
        off_board[11] = Square::new(3, 0);
        assert!(check_tour(board, start, false, &off_board).unwrap_err().to_string().contains("off the"));
    }
}
