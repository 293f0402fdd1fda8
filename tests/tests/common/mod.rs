//! Helpers the end-to-end tests share (each test file uses what it needs).
#![allow(dead_code)]

use knights::{Goal, Outcome, SearchSpec, Searcher, Square};

/// A fixed-order, unpruned search of `board` ("5", "6x4") from `start` ("a1").
pub fn spec(board: &str, start: &str, closed: bool) -> SearchSpec {
    SearchSpec::exhaustive(board.parse().unwrap(), start.parse().unwrap(), closed)
}

/// The CPU reference's outcome and tours.
pub fn reference(spec: SearchSpec, goal: Goal) -> (Outcome, Vec<Vec<Square>>) {
    Searcher::new(spec).unwrap().tours(goal)
}
