//! Helpers the end-to-end tests share (each test file uses what it needs).
#![allow(dead_code)]

use knights::search::TourList;
use knights::{Goal, MoveOrder, Outcome, SearchSpec, Searcher, Square};

/// A fixed-order, unpruned search of `board` ("5", "6x4") from `start` ("a1").
pub fn spec(board: &str, start: &str, closed: bool) -> SearchSpec {
    SearchSpec {
        board: board.parse().unwrap(),
        start: start.parse().unwrap(),
        closed,
        order: MoveOrder::Fixed,
        prune: false,
    }
}

/// The CPU reference's outcome and tours.
pub fn reference(spec: SearchSpec, goal: Goal) -> (Outcome, Vec<Vec<Square>>) {
    let mut keep = TourList::default();
    let outcome = Searcher::new(spec).unwrap().run(goal, &mut keep);
    (outcome, keep.0)
}
