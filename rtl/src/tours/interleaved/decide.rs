//! The ring's fourth stage: the step a search takes, from what the stages
//! before found. It gives the record's next fields, the squares to mark and
//! unmark visited (the next stage applies them), the stack entry to write,
//! and the nodes and tours the step counts.
//!
//! - `Root`: enter the start square; the job's root when its path is empty.
//! - `Replay`: enter the job's next forced move; its level keeps no moves,
//!   so the search never backtracks into it. The last is the job's root.
//! - `Fresh`: count every child (a node each: a dead end is counted and not
//!   entered, as the reference does) and the tour among them, keep the live
//!   ones (not dead, not a leaf) on the stack and enter the first.
//! - With no live child, or `Resume`: pop. The parent's next move is entered
//!   in the same pass; a parent with none is popped in the next pass. A pop
//!   of the job's root ends the job.
//!
//! A walk (the search's own root job when the search is split) enters the
//! nodes of the job level as `Offer`: one is handed to the queue (and
//! popped) when the queue has room, else searched here as a fresh node.
//! The walk counts every node above the job level and the children there
//! that are no jobs (dead ends, leaves); a job's root is its searcher's. A
//! root job counts its path's squares (the reference's nodes of a search
//! below a path); another job only its root.

use rust_hdl::prelude::*;

use super::parent::ENTRY_BITS;
use super::record::Phase;
use crate::tours::common::geometry::Geometry;
use crate::tours::common::job_path::{MoveIndex, PathWrite};
use crate::tours::wide::knight_moves::KnightMoves;

#[derive(LogicBlock)]
pub struct Decide<const SQ: usize, const LB: usize> {
    /// The settings: the start square, one-hot and as an index, closed
    /// tours.
    pub start: Signal<In, Bits<SQ>>,
    pub start_at: Signal<In, Bits<LB>>,
    pub closed: Signal<In, bool>,
    /// The level below this one is the board's last.
    pub child_last: Signal<In, bool>,
    /// This level is the job level, and the one below it is (a walk's).
    pub at_split: Signal<In, bool>,
    pub child_at_split: Signal<In, bool>,
    /// This level is above the job level; it is not below it. (A walk
    /// keeps the moves it takes there: sixteen levels of a path.)
    pub above_split: Signal<In, bool>,
    pub not_below_split: Signal<In, bool>,
    /// A replay's move from this level, and the child it enters.
    pub forced_move: Signal<In, Bits<3>>,
    pub replay_child: Signal<In, Bits<SQ>>,
    pub replay_child_at: Signal<In, Bits<LB>>,
    /// Some move is live; the level is the job's root level; a replay has
    /// one move left.
    pub live_any: Signal<In, bool>,
    pub at_base: Signal<In, bool>,
    pub last_replay: Signal<In, bool>,
    /// The live moves (not dead, not to a leaf), and the first of them.
    pub live: Signal<In, Bits<8>>,
    pub first: Signal<In, Bits<8>>,
    /// The queue has room for a job.
    pub space: Signal<In, bool>,
    /// The board has one square.
    pub single: Signal<In, bool>,
    /// The record as it stands ([`super::record::RecordStage`]'s fields).
    pub busy: Signal<In, bool>,
    pub phase: Signal<In, Phase>,
    pub level: Signal<In, Bits<LB>>,
    pub base: Signal<In, Bits<LB>>,
    pub current: Signal<In, Bits<SQ>>,
    pub current_at: Signal<In, Bits<LB>>,
    pub dead: Signal<In, bool>,
    pub path: Signal<In, Bits<48>>,
    pub left: Signal<In, Bits<8>>,
    pub rooted: Signal<In, bool>,
    pub walking: Signal<In, bool>,
    /// The children, as [`super::reach`] and [`super::judge`] found them.
    pub moves: Signal<In, Bits<8>>,
    pub doomed: Signal<In, Bits<8>>,
    pub probe_dead: Signal<In, bool>,
    pub closes: Signal<In, Bits<8>>,
    /// The parent, as [`super::parent`] found it.
    pub parent: Signal<In, Bits<SQ>>,
    pub parent_at: Signal<In, Bits<LB>>,
    pub parent_has_move: Signal<In, bool>,
    pub parent_rest: Signal<In, Bits<8>>,
    pub parent_child: Signal<In, Bits<SQ>>,
    pub parent_child_at: Signal<In, Bits<LB>>,
    pub parent_move: Signal<In, Bits<3>>,
    /// Each move's child square as an index ([`super::front`] adds them).
    pub child_at: [Signal<In, Bits<LB>>; 8],
    /// This level and the one above it, one-hot (0 past the sixteen levels
    /// a path keeps).
    pub level_bit: Signal<In, Bits<16>>,
    pub parent_level_bit: Signal<In, Bits<16>>,
    /// The level below this one, and the one above.
    pub child_level: Signal<In, Bits<LB>>,
    pub parent_level: Signal<In, Bits<LB>>,

    /// The record's next fields.
    pub next_busy: Signal<Out, bool>,
    pub next_phase: Signal<Out, Phase>,
    pub next_level: Signal<Out, Bits<LB>>,
    pub next_current: Signal<Out, Bits<SQ>>,
    pub next_current_at: Signal<Out, Bits<LB>>,
    pub next_dead: Signal<Out, bool>,
    pub next_path: Signal<Out, Bits<48>>,
    pub next_left: Signal<Out, Bits<8>>,
    pub next_walking: Signal<Out, bool>,
    /// The current node (at the job level) goes to the queue as a job.
    pub offer: Signal<Out, bool>,
    /// The square to unmark and the one to mark (one-hot, or 0).
    pub clear: Signal<Out, Bits<SQ>>,
    pub set: Signal<Out, Bits<SQ>>,
    /// The stack entry to write, and its level.
    pub write: Signal<Out, bool>,
    pub write_level: Signal<Out, Bits<LB>>,
    pub write_entry: Signal<Out, Bits<ENTRY_BITS>>,
    /// Nodes and tours this step counts.
    pub nodes: Signal<Out, Bits<4>>,
    pub tours: Signal<Out, Bits<4>>,

    knight: KnightMoves<SQ, LB>,
    square_shift: Constant<Bits<8>>,
    forced: Signal<Local, Bits<8>>,
    first_at: Signal<Local, Bits<LB>>,
    child_tour: Signal<Local, bool>,
    tour_moves: Signal<Local, Bits<8>>,
    move_count: [Signal<Local, Bits<4>>; 8],
    shed_count: [Signal<Local, Bits<4>>; 8],
    pop: Signal<Local, bool>,
    expanding: Signal<Local, bool>,
    index_of_first: MoveIndex,
    // The walk's path with the child's move written, and with the
    // sibling's (the move a pop enters): both made, one kept.
    child_path: PathWrite,
    sibling_path: PathWrite,
    child_path_write: Signal<Local, bool>,
    sibling_path_write: Signal<Local, bool>,
    child_phase: Signal<Local, Phase>,
    sibling_phase: Signal<Local, Phase>,
}

impl<const SQ: usize, const LB: usize> Decide<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        Decide {
            start: Default::default(),
            start_at: Default::default(),
            child_last: Default::default(),
            offer: Default::default(),
            next_walking: Default::default(),
            parent_move: Default::default(),
            walking: Default::default(),
            rooted: Default::default(),
            space: Default::default(),
            child_at_split: Default::default(),
            above_split: Default::default(),
            not_below_split: Default::default(),
            forced_move: Default::default(),
            at_split: Default::default(),
            single: Default::default(),
            closed: Default::default(),
            busy: Default::default(),
            phase: Default::default(),
            level: Default::default(),
            base: Default::default(),
            current: Default::default(),
            current_at: Default::default(),
            dead: Default::default(),
            path: Default::default(),
            left: Default::default(),
            moves: Default::default(),
            doomed: Default::default(),
            probe_dead: Default::default(),
            closes: Default::default(),
            parent: Default::default(),
            parent_at: Default::default(),
            parent_has_move: Default::default(),
            parent_rest: Default::default(),
            parent_child: Default::default(),
            parent_child_at: Default::default(),
            next_busy: Default::default(),
            next_phase: Default::default(),
            next_level: Default::default(),
            next_current: Default::default(),
            next_current_at: Default::default(),
            next_dead: Default::default(),
            next_path: Default::default(),
            next_left: Default::default(),
            clear: Default::default(),
            set: Default::default(),
            write: Default::default(),
            write_level: Default::default(),
            write_entry: Default::default(),
            nodes: Default::default(),
            tours: Default::default(),
            knight: KnightMoves::new(geometry),
            square_shift: Constant::new(8.into()),
            forced: Default::default(),
            first_at: Default::default(),
            replay_child: Default::default(),
            replay_child_at: Default::default(),
            live_any: Default::default(),
            at_base: Default::default(),
            last_replay: Default::default(),
            child_at: Default::default(),
            live: Default::default(),
            first: Default::default(),
            child_tour: Default::default(),
            tour_moves: Default::default(),
            move_count: Default::default(),
            shed_count: Default::default(),
            pop: Default::default(),
            expanding: Default::default(),
            index_of_first: Default::default(),
            child_path: Default::default(),
            sibling_path: Default::default(),
            child_path_write: Default::default(),
            sibling_path_write: Default::default(),
            level_bit: Default::default(),
            parent_level_bit: Default::default(),
            child_level: Default::default(),
            parent_level: Default::default(),
            child_phase: Default::default(),
            sibling_phase: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Decide<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.forced.next = bits::<8>(1) << self.forced_move.val();
        self.index_of_first.move_bit.next = self.first.val();
        self.knight.square.next = self.current.val();
        self.knight.index.next = self.current_at.val();
        self.knight.chosen.next = self.first.val();
        // The first live child's index, picked (not added: the step's path).
        self.first_at.next = self.current_at.val();
        for m in 0..8 {
            if self.first.val().get_bit(m) {
                self.first_at.next = self.child_at[m].val();
            }
        }
        // A child on the last level is the board's last free square.
        self.tour_moves.next = self.moves.val();
        if self.closed.val() {
            self.tour_moves.next = self.closes.val();
        }
        self.child_tour.next = self.child_last.val() & (self.tour_moves.val() & self.forced.val()).any();
        // Every child is a node; above the job level, a walk counts only
        // those that are no jobs.
        self.move_count[0].next = bit_cast::<4, 1>(bits::<1>(0).replace_bit(0, self.moves.val().get_bit(0)));
        self.shed_count[0].next =
            bit_cast::<4, 1>(bits::<1>(0).replace_bit(0, self.moves.val().get_bit(0) & !self.live.val().get_bit(0)));
        for m in 1..8 {
            self.move_count[m].next = self.move_count[m - 1].val();
            if self.moves.val().get_bit(m) {
                self.move_count[m].next = self.move_count[m - 1].val() + 1;
            }
            self.shed_count[m].next = self.shed_count[m - 1].val();
            if self.moves.val().get_bit(m) & !self.live.val().get_bit(m) {
                self.shed_count[m].next = self.shed_count[m - 1].val() + 1;
            }
        }
        // A walk enters the job level's nodes as offers.
        self.child_phase.next = Phase::Fresh;
        if self.walking.val() & self.child_at_split.val() {
            self.child_phase.next = Phase::Offer;
        }
        self.sibling_phase.next = Phase::Fresh;
        if self.walking.val() & self.at_split.val() {
            self.sibling_phase.next = Phase::Offer;
        }

        self.next_busy.next = self.busy.val();
        self.next_phase.next = self.phase.val();
        self.next_level.next = self.level.val();
        self.next_current.next = self.current.val();
        self.next_current_at.next = self.current_at.val();
        self.next_dead.next = self.dead.val();
        self.next_path.next = self.path.val();
        self.next_left.next = self.left.val();
        self.next_walking.next = self.walking.val();
        self.offer.next = false;
        self.child_path.path.next = self.path.val();
        self.child_path.level_bit.next = self.level_bit.val();
        self.child_path.move_index.next = self.index_of_first.index.val();
        self.sibling_path.path.next = self.path.val();
        self.sibling_path.level_bit.next = self.parent_level_bit.val();
        self.sibling_path.move_index.next = self.parent_move.val();
        self.child_path_write.next = false;
        self.sibling_path_write.next = false;
        self.clear.next = 0.into();
        self.set.next = 0.into();
        self.write.next = false;
        self.write_level.next = self.level.val();
        self.write_entry.next = (bit_cast::<ENTRY_BITS, LB>(self.current_at.val()) << self.square_shift.val())
            | bit_cast::<ENTRY_BITS, 8>(self.live.val() & !self.first.val());
        self.nodes.next = 0.into();
        self.tours.next = 0.into();
        self.pop.next = false;
        self.expanding.next = false;

        if self.busy.val() {
            match self.phase.val() {
                Phase::Root => {
                    self.next_level.next = 0.into();
                    self.next_current.next = self.start.val();
                    self.next_current_at.next = self.start_at.val();
                    self.set.next = self.start.val();
                    self.next_phase.next = Phase::Replay;
                    if self.rooted.val() {
                        self.nodes.next = 1.into();
                    }
                    if !self.left.val().any() {
                        self.next_phase.next = Phase::Fresh;
                        self.next_dead.next = self.probe_dead.val();
                        self.nodes.next = 1.into();
                        if self.single.val() & !self.closed.val() {
                            self.tours.next = 1.into();
                        }
                    }
                }
                Phase::Replay => {
                    self.write.next = true;
                    self.write_entry.next =
                        bit_cast::<ENTRY_BITS, LB>(self.current_at.val()) << self.square_shift.val();
                    self.next_level.next = self.child_level.val();
                    self.next_current.next = self.replay_child.val();
                    self.next_current_at.next = self.replay_child_at.val();
                    self.set.next = self.replay_child.val();
                    self.next_left.next = self.left.val() - 1;
                    if self.rooted.val() {
                        self.nodes.next = 1.into();
                    }
                    if self.last_replay.val() {
                        self.next_phase.next = Phase::Fresh;
                        self.next_dead.next = (self.doomed.val() & self.forced.val()).any();
                        self.nodes.next = 1.into();
                        if self.child_tour.val() {
                            self.tours.next = 1.into();
                        }
                    }
                }
                Phase::Fresh => {
                    self.expanding.next = true;
                }
                Phase::Offer => {
                    self.expanding.next = true;
                }
                Phase::Resume => {
                    self.pop.next = true;
                }
                _ => {}
            }
        }

        if self.expanding.val() {
            if (self.phase.val() == Phase::Offer) & self.space.val() {
                // A job for the queue: its node is its searcher's.
                self.offer.next = true;
                self.pop.next = true;
            } else {
                if !self.dead.val() {
                    self.nodes.next = self.move_count[7].val();
                    if self.walking.val() & self.child_at_split.val() {
                        self.nodes.next = self.shed_count[7].val();
                    }
                    if self.phase.val() == Phase::Offer {
                        // The walk searches this job itself.
                        self.nodes.next = self.move_count[7].val() + 1;
                    }
                    // (At most one child is on the last level: the
                    // board's last free square, a leaf.)
                    if self.child_last.val() & self.tour_moves.val().any() {
                        self.tours.next = 1.into();
                    }
                }
                if self.live_any.val() & !self.dead.val() {
                    self.write.next = true;
                    self.next_level.next = self.child_level.val();
                    self.next_current.next = self.knight.child.val();
                    self.next_current_at.next = self.first_at.val();
                    self.set.next = self.knight.child.val();
                    self.next_phase.next = self.child_phase.val();
                    self.child_path_write.next = self.walking.val() & self.above_split.val();
                } else {
                    self.pop.next = true;
                }
            }
        }

        if self.pop.val() {
            self.clear.next = self.current.val();
            self.next_dead.next = false;
            if self.at_base.val() {
                self.next_busy.next = false;
                self.next_walking.next = false;
            } else if self.parent_has_move.val() {
                self.write.next = true;
                self.write_level.next = self.parent_level.val();
                self.write_entry.next = (bit_cast::<ENTRY_BITS, LB>(self.parent_at.val()) << self.square_shift.val())
                    | bit_cast::<ENTRY_BITS, 8>(self.parent_rest.val());
                self.next_current.next = self.parent_child.val();
                self.next_current_at.next = self.parent_child_at.val();
                self.set.next = self.parent_child.val();
                self.next_phase.next = self.sibling_phase.val();
                self.sibling_path_write.next = self.walking.val() & self.not_below_split.val();
            } else {
                self.next_current.next = self.parent.val();
                self.next_current_at.next = self.parent_at.val();
                self.next_level.next = self.parent_level.val();
                self.next_phase.next = Phase::Resume;
            }
        }
        // A walk keeps the move it takes at each level above the jobs: the
        // path a job it offers carries.
        if self.child_path_write.val() {
            self.next_path.next = self.child_path.written.val();
        }
        if self.sibling_path_write.val() {
            self.next_path.next = self.sibling_path.written.val();
        }
    }
}
