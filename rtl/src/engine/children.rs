//! The current node's children: which of the eight moves lead to a free
//! square, their Warnsdorff degrees, which of them are dead ends, and the
//! one to take (with the moves left after it), all in the node's clock.

use rust_hdl::prelude::*;

use super::dead_end::DeadEndJudge;
use super::knight_moves::KnightMoves;
use super::move_select::MoveSelect;
use super::onward::OnwardCounts;
use crate::geometry::Geometry;

#[derive(LogicBlock)]
pub struct Children<const SQ: usize, const LB: usize> {
    /// The current square, one-hot and as an index, and the free squares.
    pub current: Signal<In, Bits<SQ>>,
    pub current_index: Signal<In, Bits<LB>>,
    pub free: Signal<In, Bits<SQ>>,
    /// Order by Warnsdorff's degree (else every degree is 0).
    pub warnsdorff: Signal<In, bool>,
    /// Pruning and the closed rule, as `DeadEndJudge` takes them: the start's
    /// neighbours, the probe, the current level and the board's squares.
    pub prune: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub closing: Signal<In, Bits<SQ>>,
    pub probe: Signal<In, Bits<SQ>>,
    pub depth: Signal<In, Bits<LB>>,
    pub area: Signal<In, Bits<16>>,
    /// Replaying a job's path: this move is the only one offered.
    pub replaying: Signal<In, bool>,
    pub replay_move: Signal<In, Bits<8>>,
    /// Count mode: dead children are counted, not entered, so they are not
    /// offered to the choice.
    pub skip_dead: Signal<In, bool>,

    /// The free moves' degrees, four bits a move (as the stack keeps them).
    pub degrees: Signal<Out, Bits<32>>,
    /// The free moves whose target is a dead end, and how many; the probe
    /// is dead.
    pub doomed: Signal<Out, Bits<8>>,
    pub doomed_count: Signal<Out, Bits<4>>,
    pub probe_dead: Signal<Out, bool>,
    /// Some move is offered.
    pub has_move: Signal<Out, bool>,
    /// The move taken (one-hot) and the offered moves left after it.
    pub first: Signal<Out, Bits<8>>,
    pub rest: Signal<Out, Bits<8>>,
    /// The square the taken move enters, one-hot and as an index.
    pub child: Signal<Out, Bits<SQ>>,
    pub child_index: Signal<Out, Bits<LB>>,

    knight: KnightMoves<SQ, LB>,
    onward: OnwardCounts<SQ>,
    judge: DeadEndJudge<SQ, LB>,
    choice: MoveSelect,
    degree_shift: [Constant<Bits<8>>; 8],
    moves_chain: [Signal<Local, Bits<8>>; 8],
    degree: [Signal<Local, Bits<32>>; 8],
    degrees_chain: [Signal<Local, Bits<32>>; 8],
    offered: Signal<Local, Bits<8>>,
    tried: Signal<Local, Bits<8>>,
}

impl<const SQ: usize, const LB: usize> Children<SQ, LB> {
    /// With `warnsdorff`, Warnsdorff's order is built in.
    pub fn new(geometry: Geometry, warnsdorff: bool) -> Self {
        Children {
            current: Default::default(),
            current_index: Default::default(),
            free: Default::default(),
            warnsdorff: Default::default(),
            prune: Default::default(),
            closed: Default::default(),
            closing: Default::default(),
            probe: Default::default(),
            depth: Default::default(),
            area: Default::default(),
            replaying: Default::default(),
            replay_move: Default::default(),
            skip_dead: Default::default(),
            degrees: Default::default(),
            doomed: Default::default(),
            doomed_count: Default::default(),
            probe_dead: Default::default(),
            has_move: Default::default(),
            first: Default::default(),
            rest: Default::default(),
            child: Default::default(),
            child_index: Default::default(),
            knight: KnightMoves::new(geometry),
            onward: OnwardCounts::new(geometry, warnsdorff),
            judge: DeadEndJudge::new(warnsdorff),
            choice: Default::default(),
            degree_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            moves_chain: Default::default(),
            degree: Default::default(),
            degrees_chain: Default::default(),
            offered: Default::default(),
            tried: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Children<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.knight.square.next = self.current.val();
        self.knight.index.next = self.current_index.val();
        self.onward.free.next = self.free.val();
        self.moves_chain[0].next = bits::<8>(0).replace_bit(0, (self.knight.targets[0].val() & self.free.val()).any());
        for m in 1..8 {
            self.moves_chain[m].next =
                self.moves_chain[m - 1].val().replace_bit(m, (self.knight.targets[m].val() & self.free.val()).any());
        }
        for m in 0..8 {
            self.onward.targets[m].next = self.knight.targets[m].val();
            self.judge.targets[m].next = self.knight.targets[m].val();
            self.judge.target_count[m].next = self.onward.target_count[m].val();
            self.degree[m].next = 0.into();
            // (A build without Warnsdorff's order makes no counts: they are 0.)
            if self.warnsdorff.val() {
                self.degree[m].next = self.onward.target_count[m].val();
            }
        }
        self.degrees_chain[0].next = self.degree[0].val();
        for m in 1..8 {
            self.degrees_chain[m].next =
                self.degrees_chain[m - 1].val() | (self.degree[m].val() << self.degree_shift[m].val());
        }
        self.degrees.next = self.degrees_chain[7].val();

        self.judge.prune.next = self.prune.val();
        self.judge.closed.next = self.closed.val();
        self.judge.free.next = self.free.val();
        self.judge.closing.next = self.closing.val();
        self.judge.none.next = self.onward.none.val();
        self.judge.one.next = self.onward.one.val();
        self.judge.moves.next = self.moves_chain[7].val();
        self.judge.probe.next = self.probe.val();
        self.judge.depth.next = self.depth.val();
        self.judge.area.next = self.area.val();
        self.doomed.next = self.judge.doomed.val();
        self.doomed_count.next = self.judge.doomed_count.val();
        self.probe_dead.next = self.judge.probe_dead.val();

        // A replayed move is forced here, where the moves come in early, and
        // not on the chosen move, which is on the step's longest path. (It is
        // never dead in count mode: the walker entered it.)
        self.offered.next = self.moves_chain[7].val();
        if self.replaying.val() {
            self.offered.next = self.replay_move.val();
        }
        self.tried.next = self.offered.val();
        if self.skip_dead.val() {
            self.tried.next = self.offered.val() & !self.judge.doomed.val();
        }
        self.has_move.next = self.tried.val().any();
        self.choice.candidates.next = self.tried.val();
        self.choice.degrees.next = self.degrees_chain[7].val();
        self.first.next = self.choice.first.val();
        self.rest.next = self.choice.rest.val();
        self.knight.chosen.next = self.choice.first.val();
        self.child.next = self.knight.child.val();
        self.child_index.next = self.knight.child_index.val();
    }
}
