//! The resume level: the deepest level that still has an untried move, its
//! stack entry cached in registers, and the move a backtrack takes there.
//!
//! A dead end pops straight to this level and enters its next move in the
//! same clock: the visited squares become the level's, which frees every
//! deeper square at once. When the level runs out of moves, the next one
//! down is the one its entry links to; that entry is read from the stack
//! every clock (`read_address`), so it is in hand the clock after (a
//! *refill*). A job that rejoins the stack at a level *fetches* it the same
//! way, with the new path's move *forced* as its one untried move.

use rust_hdl::prelude::*;

use super::knight_moves::KnightMoves;
use super::move_select::MoveSelect;
use crate::geometry::Geometry;

#[derive(LogicBlock)]
pub struct ResumeLevel<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The stack entry at `read_address` of the clock before.
    pub stack_moves: Signal<In, Bits<8>>,
    pub stack_square: Signal<In, Bits<LB>>,
    pub stack_degrees: Signal<In, Bits<32>>,
    pub stack_doomed: Signal<In, Bits<8>>,
    pub stack_visited: Signal<In, Bits<SQ>>,
    pub stack_below: Signal<In, Bits<LB>>,
    pub stack_below_valid: Signal<In, bool>,
    pub read_address: Signal<Out, Bits<LB>>,

    /// There is no resume level (a search starts).
    pub clear: Signal<In, bool>,
    /// A descent leaves untried moves at `push_level`: it becomes the resume
    /// level with this entry (what the stack is written).
    pub push: Signal<In, bool>,
    pub push_level: Signal<In, Bits<LB>>,
    pub push_moves: Signal<In, Bits<8>>,
    pub push_square: Signal<In, Bits<LB>>,
    pub push_degrees: Signal<In, Bits<32>>,
    pub push_doomed: Signal<In, Bits<8>>,
    pub push_visited: Signal<In, Bits<SQ>>,
    /// A backtrack takes `taken` here: the level keeps `left`, or, with none
    /// left, the level it links to becomes the resume level.
    pub pop: Signal<In, bool>,
    /// `fetch_level` becomes the resume level, its entry read from the stack.
    pub fetch: Signal<In, bool>,
    pub fetch_level: Signal<In, Bits<LB>>,
    /// `forced_move` replaces the level's untried moves (a rejoin's move).
    pub forcing: Signal<In, bool>,
    pub forced_move: Signal<In, Bits<8>>,

    pub valid: Signal<Out, bool>,
    pub level: Signal<Out, Bits<LB>>,
    /// The level's entry as a backtrack sees it now (the cache, or the stack
    /// right after a refill), and the move it takes (one-hot) with the moves
    /// left after it.
    pub square: Signal<Out, Bits<LB>>,
    pub degrees: Signal<Out, Bits<32>>,
    pub doomed: Signal<Out, Bits<8>>,
    pub visited: Signal<Out, Bits<SQ>>,
    pub taken: Signal<Out, Bits<8>>,
    pub left: Signal<Out, Bits<8>>,
    /// The square the taken move enters, one-hot and as an index.
    pub child: Signal<Out, Bits<SQ>>,
    pub child_index: Signal<Out, Bits<LB>>,

    choice: MoveSelect,
    knight: KnightMoves<SQ, LB>,
    // Without Warnsdorff's order every degree is 0.
    keeps_degrees: Constant<bool>,
    resume_valid: DFF<bool>,
    resume_level: DFF<Bits<LB>>,
    resume_moves: DFF<Bits<8>>,
    resume_index: DFF<Bits<LB>>,
    resume_degrees: DFF<Bits<32>>,
    resume_doomed: DFF<Bits<8>>,
    resume_visited: DFF<Bits<SQ>>,
    resume_below: DFF<Bits<LB>>,
    resume_below_valid: DFF<bool>,
    refill: DFF<bool>,
    moves: Signal<Local, Bits<8>>,
    below: Signal<Local, Bits<LB>>,
    below_valid: Signal<Local, bool>,
}

impl<const SQ: usize, const LB: usize> ResumeLevel<SQ, LB> {
    /// With `keeps_degrees`, the stack's degrees order a backtrack's moves.
    pub fn new(geometry: Geometry, keeps_degrees: bool) -> Self {
        ResumeLevel {
            clock: Default::default(),
            stack_moves: Default::default(),
            stack_square: Default::default(),
            stack_degrees: Default::default(),
            stack_doomed: Default::default(),
            stack_visited: Default::default(),
            stack_below: Default::default(),
            stack_below_valid: Default::default(),
            read_address: Default::default(),
            clear: Default::default(),
            push: Default::default(),
            push_level: Default::default(),
            push_moves: Default::default(),
            push_square: Default::default(),
            push_degrees: Default::default(),
            push_doomed: Default::default(),
            push_visited: Default::default(),
            pop: Default::default(),
            fetch: Default::default(),
            fetch_level: Default::default(),
            forcing: Default::default(),
            forced_move: Default::default(),
            valid: Default::default(),
            level: Default::default(),
            square: Default::default(),
            degrees: Default::default(),
            doomed: Default::default(),
            visited: Default::default(),
            taken: Default::default(),
            left: Default::default(),
            child: Default::default(),
            child_index: Default::default(),
            choice: Default::default(),
            knight: KnightMoves::new(geometry),
            keeps_degrees: Constant::new(keeps_degrees),
            resume_valid: Default::default(),
            resume_level: Default::default(),
            resume_moves: Default::default(),
            resume_index: Default::default(),
            resume_degrees: Default::default(),
            resume_doomed: Default::default(),
            resume_visited: Default::default(),
            resume_below: Default::default(),
            resume_below_valid: Default::default(),
            refill: Default::default(),
            moves: Default::default(),
            below: Default::default(),
            below_valid: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for ResumeLevel<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            resume_valid,
            resume_level,
            resume_moves,
            resume_index,
            resume_degrees,
            resume_doomed,
            resume_visited,
            resume_below,
            resume_below_valid,
            refill
        );
        self.valid.next = self.resume_valid.q.val();
        self.level.next = self.resume_level.q.val();
        self.moves.next = self.resume_moves.q.val();
        self.square.next = self.resume_index.q.val();
        self.degrees.next = self.resume_degrees.q.val();
        self.doomed.next = self.resume_doomed.q.val();
        self.visited.next = self.resume_visited.q.val();
        self.below.next = self.resume_below.q.val();
        self.below_valid.next = self.resume_below_valid.q.val();
        if self.refill.q.val() {
            self.moves.next = self.stack_moves.val();
            self.square.next = self.stack_square.val();
            self.degrees.next = self.stack_degrees.val();
            self.doomed.next = self.stack_doomed.val();
            self.visited.next = self.stack_visited.val();
            self.below.next = self.stack_below.val();
            self.below_valid.next = self.stack_below_valid.val();
        }
        if !self.keeps_degrees.val() {
            self.degrees.next = 0.into();
        }
        if self.forcing.val() {
            self.moves.next = self.forced_move.val();
        }
        self.choice.candidates.next = self.moves.val();
        self.choice.degrees.next = self.degrees.val();
        self.taken.next = self.choice.first.val();
        self.left.next = self.choice.rest.val();
        self.knight.square.next = bits::<SQ>(1) << self.square.val();
        self.knight.index.next = self.square.val();
        self.knight.chosen.next = self.choice.first.val();
        self.child.next = self.knight.child.val();
        self.child_index.next = self.knight.child_index.val();

        // The cache keeps what it shows; the next level down is read.
        self.resume_moves.d.next = self.moves.val();
        self.resume_index.d.next = self.square.val();
        self.resume_degrees.d.next = self.degrees.val();
        self.resume_doomed.d.next = self.doomed.val();
        self.resume_visited.d.next = self.visited.val();
        self.resume_below.d.next = self.below.val();
        self.resume_below_valid.d.next = self.below_valid.val();
        self.refill.d.next = false;
        self.read_address.next = self.below.val();

        if self.clear.val() {
            self.resume_valid.d.next = false;
        }
        if self.fetch.val() {
            self.resume_level.d.next = self.fetch_level.val();
            self.refill.d.next = true;
            self.read_address.next = self.fetch_level.val();
        }
        if self.push.val() {
            self.refill.d.next = false;
            self.resume_below.d.next = self.resume_level.q.val();
            self.resume_below_valid.d.next = self.resume_valid.q.val();
            self.resume_valid.d.next = true;
            self.resume_level.d.next = self.push_level.val();
            self.resume_moves.d.next = self.push_moves.val();
            self.resume_index.d.next = self.push_square.val();
            self.resume_degrees.d.next = self.push_degrees.val();
            self.resume_doomed.d.next = self.push_doomed.val();
            self.resume_visited.d.next = self.push_visited.val();
        }
        if self.pop.val() {
            if self.choice.rest.val().any() {
                self.resume_moves.d.next = self.choice.rest.val();
            } else {
                self.resume_valid.d.next = self.below_valid.val();
                self.resume_level.d.next = self.below.val();
                self.refill.d.next = true;
            }
        }
    }
}
