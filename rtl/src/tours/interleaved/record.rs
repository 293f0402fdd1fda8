//! A search's record as it rides the ring: one register stage of it.
//!
//! Every field a search's step reads or writes, apart from its stack (in
//! block RAM, indexed by the search's slot): the ring passes the record from
//! stage to stage, so each stage's logic works on the search that stands in
//! it, and the five searches of an engine never meet.

use rust_hdl::prelude::*;

/// What a search's next pass through the ring does.
#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum Phase {
    /// Enter the start square (judged like a child, nothing visited yet).
    Root,
    /// Enter the job's next forced move.
    Replay,
    /// Judge the current square's children, count them, enter the first live one.
    Fresh,
    /// The current level has nothing left: pop it.
    Resume,
    /// A walk's node at the job level: handed to the queue if it has room,
    /// else searched here like a fresh node.
    Offer,
}

/// One register stage of a record: `*_in` taken at the clock's edge, shown
/// on the outputs of the same names without the suffix.
#[derive(LogicBlock, Default)]
pub struct RecordStage<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    pub busy_in: Signal<In, bool>,
    pub phase_in: Signal<In, Phase>,
    pub level_in: Signal<In, Bits<LB>>,
    pub base_in: Signal<In, Bits<LB>>,
    pub current_in: Signal<In, Bits<SQ>>,
    pub current_at_in: Signal<In, Bits<LB>>,
    pub visited_in: Signal<In, Bits<SQ>>,
    pub dead_in: Signal<In, bool>,
    pub path_in: Signal<In, Bits<48>>,
    pub left_in: Signal<In, Bits<8>>,
    pub rooted_in: Signal<In, bool>,
    pub walking_in: Signal<In, bool>,

    /// The slot holds a search.
    pub busy: Signal<Out, bool>,
    pub phase: Signal<Out, Phase>,
    /// The current square's level, and the job's root level (the search is
    /// over when it pops that one).
    pub level: Signal<Out, Bits<LB>>,
    pub base: Signal<Out, Bits<LB>>,
    /// The current square, one-hot and as an index; the visited squares.
    pub current: Signal<Out, Bits<SQ>>,
    pub current_at: Signal<Out, Bits<LB>>,
    pub visited: Signal<Out, Bits<SQ>>,
    /// The job's root was judged a dead end as it was entered.
    pub dead: Signal<Out, bool>,
    /// The moves from the start square (bit-sliced: move k's bits at k,
    /// 16 + k and 32 + k): the job's, replayed a level a pass while `left`
    /// are left; a walk writes each move it takes above the job level.
    pub path: Signal<Out, Bits<48>>,
    pub left: Signal<Out, Bits<8>>,
    /// The search is the search's own root job (it counts its path's
    /// squares, as the walker does); it walks the levels above the jobs.
    pub rooted: Signal<Out, bool>,
    pub walking: Signal<Out, bool>,

    busy_q: DFF<bool>,
    phase_q: DFF<Phase>,
    level_q: DFF<Bits<LB>>,
    base_q: DFF<Bits<LB>>,
    current_q: DFF<Bits<SQ>>,
    current_at_q: DFF<Bits<LB>>,
    visited_q: DFF<Bits<SQ>>,
    dead_q: DFF<bool>,
    path_q: DFF<Bits<48>>,
    left_q: DFF<Bits<8>>,
    rooted_q: DFF<bool>,
    walking_q: DFF<bool>,
}

impl<const SQ: usize, const LB: usize> Logic for RecordStage<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            busy_q,
            phase_q,
            level_q,
            base_q,
            current_q,
            current_at_q,
            visited_q,
            dead_q,
            path_q,
            left_q,
            rooted_q,
            walking_q
        );
        self.busy_q.d.next = self.busy_in.val();
        self.phase_q.d.next = self.phase_in.val();
        self.level_q.d.next = self.level_in.val();
        self.base_q.d.next = self.base_in.val();
        self.current_q.d.next = self.current_in.val();
        self.current_at_q.d.next = self.current_at_in.val();
        self.visited_q.d.next = self.visited_in.val();
        self.dead_q.d.next = self.dead_in.val();
        self.path_q.d.next = self.path_in.val();
        self.left_q.d.next = self.left_in.val();
        self.rooted_q.d.next = self.rooted_in.val();
        self.walking_q.d.next = self.walking_in.val();
        self.busy.next = self.busy_q.q.val();
        self.phase.next = self.phase_q.q.val();
        self.level.next = self.level_q.q.val();
        self.base.next = self.base_q.q.val();
        self.current.next = self.current_q.q.val();
        self.current_at.next = self.current_at_q.q.val();
        self.visited.next = self.visited_q.q.val();
        self.dead.next = self.dead_q.q.val();
        self.path.next = self.path_q.q.val();
        self.left.next = self.left_q.q.val();
        self.rooted.next = self.rooted_q.q.val();
        self.walking.next = self.walking_q.q.val();
    }
}
