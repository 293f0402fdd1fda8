//! A replay's move (a job's path walked down to the job level), found over
//! three stages: stage 0 reads the move from the path; stage 1 makes it
//! one-hot and looks up its index offset; stage 2 makes the child it enters,
//! one-hot and as an index. Each stage's result is registered for the next.
//!
//! The child's index has an adder of its own, fed by registers: made by
//! [`KnightMoves`]' chosen-move adders, yosys shared those with the
//! children's (`Front`'s `child_at`) and routed the sum across the part, the
//! longest path of an 80 MHz build. The read and the lookup in one stage
//! were the longest path of an 81.25 MHz one.

use rust_hdl::prelude::*;

use crate::tours::common::geometry::Geometry;
use crate::tours::common::job_path::{PathRead, JOB_PATH_BITS};
use crate::tours::wide::knight_moves::KnightMoves;

#[derive(LogicBlock)]
pub struct Replay<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// Stage 0: the record's path and level.
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub level: Signal<In, Bits<LB>>,
    /// Stage 2: the record's square, one-hot and as an index.
    pub square: Signal<In, Bits<SQ>>,
    pub square_at: Signal<In, Bits<LB>>,
    /// Out of stage 2's registers: the move and the child it enters.
    pub move_index: Signal<Out, Bits<3>>,
    pub child: Signal<Out, Bits<SQ>>,
    pub child_at: Signal<Out, Bits<LB>>,

    read: PathRead<LB>,
    move1: DFF<Bits<3>>,
    chosen: Signal<Local, Bits<8>>,
    move2: DFF<Bits<3>>,
    chosen2: DFF<Bits<8>>,
    delta2: DFF<Bits<LB>>,
    moves: KnightMoves<SQ, LB>,
    move3: DFF<Bits<3>>,
    child3: DFF<Bits<SQ>>,
    child_at3: DFF<Bits<LB>>,
    // Move m's index offset, modulo 2^LB.
    delta: [Constant<Bits<LB>>; 8],
}

impl<const SQ: usize, const LB: usize> Replay<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        Replay {
            clock: Default::default(),
            path: Default::default(),
            level: Default::default(),
            square: Default::default(),
            square_at: Default::default(),
            move_index: Default::default(),
            child: Default::default(),
            child_at: Default::default(),
            read: Default::default(),
            move1: Default::default(),
            chosen: Default::default(),
            move2: Default::default(),
            chosen2: Default::default(),
            delta2: Default::default(),
            moves: KnightMoves::new(geometry),
            move3: Default::default(),
            child3: Default::default(),
            child_at3: Default::default(),
            delta: geometry.move_offsets(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Replay<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, move1, move2, chosen2, delta2, move3, child3, child_at3);
        // Stage 0: the move.
        self.read.path.next = self.path.val();
        self.read.level.next = self.level.val();
        self.move1.d.next = self.read.move_index.val();
        // Stage 1: the move, one-hot, and its offset.
        self.chosen.next = bits::<8>(1) << self.move1.q.val();
        self.move2.d.next = self.move1.q.val();
        self.chosen2.d.next = self.chosen.val();
        self.delta2.d.next = self.delta[0].val();
        for m in 1..8 {
            if self.chosen.val().get_bit(m) {
                self.delta2.d.next = self.delta[m].val();
            }
        }
        // Stage 2: the child.
        self.moves.square.next = self.square.val();
        self.moves.index.next = self.square_at.val();
        self.moves.chosen.next = self.chosen2.q.val();
        self.move3.d.next = self.move2.q.val();
        self.child3.d.next = self.moves.child.val();
        self.child_at3.d.next = self.square_at.val() + self.delta2.q.val();
        self.move_index.next = self.move3.q.val();
        self.child.next = self.child3.q.val();
        self.child_at.next = self.child_at3.q.val();
    }
}
