//! The compact knight's-tour engine: the board in block RAM, a few clocks
//! a node, small enough to put the 8×8 board and larger on every FPGA.
//!
//! Same search as the reference (`knights_model::tours`), node for node:
//! the same moves in the same order, the same dead-end pruning, the same
//! counts. It keeps the reference's incremental form:
//!
//! - [`cells`]: every cell's visited bit, closing bit and free neighbours
//!   in two block-RAM banks, with the [`tallies`] pruning reads (laid out
//!   by the [`sweep`] at a search's start). Entering a square reads its
//!   eight neighbours two a clock and updates the free ones; leaving it
//!   undoes that from its level's frame.
//! - [`frames`]: the stack. A level's frame keeps its untried moves, and
//!   for each move the square's free neighbours and closing bit, read while
//!   the level was entered: the visited set is the same whenever the search
//!   is back at the level, so a move's dead-end judgement, whether it is a
//!   leaf and its Warnsdorff degree ([`MoveSelect`], [`move_target`]) need
//!   no more reads.
//! - This file: the state machine. A clock tries a move of the current
//!   level: a dead end or a leaf costs that clock alone; a move with
//!   somewhere to go enters its square (a visit); a level with no moves
//!   left is left (an unvisit).
//!
//! Sharing a search ([`EnginePort::split_level`]): the walker (engine 0)
//! searches the levels above the split level, and hands each node it would
//! enter at that level to the job queue as a job (its path of moves), or
//! searches it itself when the queue is full; then, like every other
//! engine, it takes jobs. A job is entered by unwinding to the deepest level
//! its path shares with the stack's ([`JobPath`]) and replaying the rest, a
//! move a visit; its replayed levels keep no untried moves. The walker
//! counts the nodes above the jobs and the jobs' own; an engine counts the
//! nodes below its job. A search confined to a path (a prefix job from the
//! host) replays it the same way from the start square, counting its
//! squares, and its last square is judged as the reference judges it.
//!
//! A tour in first-K mode pauses the search and streams its squares
//! ([`TourStream`]; two bytes a square on builds past 256 squares).

pub mod bank;
pub mod cells;
mod found_moves;
pub mod frames;
pub mod grid;
pub mod move_target;
mod pair_cells;
mod pair_picks;
mod share;
pub mod sweep;
pub mod tallies;

use rust_hdl::prelude::*;

use crate::platform::JobRole;
use crate::platform::{EnginePort, JobPort, JOB_PATH_BITS};
use crate::tours::common::arguments::KnightArguments;
use crate::tours::common::geometry::Geometry;
use crate::tours::common::job_path::JobPath;
use crate::tours::common::move_select::MoveSelect;
use crate::tours::common::tour_stream::TourStream;
use cells::BoardCells;
use frames::FrameStack;
pub use grid::CompactWidths;
use knights_protocol::square_bytes;
use move_target::MoveTarget;
use share::CompactShare;

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum CompactState {
    Idle,
    Setup,
    Root,
    Run,
    Replay,
    Enter,
    Leave,
    Emit,
    Next,
    Unwind,
    Done,
}

/// A compact engine for boards up to the geometry's; its widths are
/// [`CompactWidths`]: `AB` (`CB = AB - 1`), `LB` and `TB`.
#[derive(LogicBlock)]
pub struct CompactEngine<const AB: usize, const CB: usize, const LB: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    /// The port every engine kind has.
    pub port: EnginePort,

    walker: Constant<bool>,
    // The build takes boards past 256 squares: a square is two bytes.
    two_bytes: Constant<bool>,
    below_root: Constant<Bits<LB>>,
    request: KnightArguments<LB>,
    cells: BoardCells<AB, CB, TB>,
    frames: FrameStack<AB, LB>,
    select: MoveSelect,
    target: MoveTarget<AB, LB>,
    paths: JobPath<LB>,
    share: CompactShare<LB>,
    tour: TourStream<LB>,

    state: DFF<CompactState>,
    width: DFF<Bits<8>>,
    height: DFF<Bits<8>>,
    file: DFF<Bits<8>>,
    rank: DFF<Bits<8>>,
    // Items of a tour.
    items: DFF<Bits<16>>,
    // The path's moves by level (the host's, the walk's, or the job's),
    // and the level the search does not go back above.
    path: DFF<Bits<JOB_PATH_BITS>>,
    base: DFF<Bits<LB>>,
    // The level above it: the path's last move is tried from there (a
    // level compared, not a sum, late in a clock).
    base_parent: DFF<Bits<LB>>,
    depth: DFF<Bits<LB>>,
    // The current level's frame.
    top_cell: DFF<Bits<AB>>,
    top_square: DFF<Bits<LB>>,
    // The move the level tries next (one-hot, chosen a clock ahead), and
    // its moves untried after that.
    next_move: DFF<Bits<8>>,
    later: DFF<Bits<8>>,
    // A path's move at the level a replay is at next, read a clock ahead
    // (its level's slice of the path is deep logic): a replay comes after a
    // visit, a level deeper, or after an unwind, at its level.
    replay_next: DFF<Bits<8>>,
    top_free: DFF<Bits<8>>,
    top_ways: DFF<Bits<32>>,
    top_closing: DFF<Bits<8>>,
    top_own_ways: DFF<Bits<4>>,
    top_own_closing: DFF<bool>,
    // The square being entered.
    child_cell: DFF<Bits<AB>>,
    child_square: DFF<Bits<LB>>,
    child_ways: DFF<Bits<4>>,
    child_closing: DFF<bool>,
    // A tour to stream: its last level and square; and whether the search
    // ends after it (a path's last square).
    emit_depth: DFF<Bits<LB>>,
    emit_square: DFF<Bits<LB>>,
    ends_after_emit: DFF<bool>,
    node_pulse: DFF<bool>,
    solution_pulse: DFF<bool>,
    // The platform's cancel, a clock late: it comes from the tour count
    // across the chip, and the search only has to stop soon.
    cancelled: DFF<bool>,

    chosen: Signal<Local, Bits<8>>,
    leaf: Signal<Local, bool>,
    at_tour: Signal<Local, bool>,
    deeper: Signal<Local, Bits<LB>>,
    below: Signal<Local, Bits<LB>>,
    path_last: Signal<Local, bool>,
    starting: Signal<Local, bool>,
    try_move: Signal<Local, bool>,
    entering: Signal<Local, bool>,
    descend: Signal<Local, bool>,
    found_tour: Signal<Local, bool>,
    leave: Signal<Local, bool>,
}

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> CompactEngine<AB, CB, LB, TB> {
    /// An engine for boards up to `max_width` × `max_height`, the walker or
    /// a worker of a shared search.
    pub fn new(max_width: usize, max_height: usize, role: JobRole) -> Self {
        let geometry = Geometry::new(max_width, max_height);
        let widths = CompactWidths::new(geometry);
        assert_eq!((AB, CB, LB, TB), (widths.cell_bits, widths.cell_bits - 1, widths.level_bits, widths.tally_bits));
        assert!(LB >= 4, "paths of 16 moves need levels of four bits at least");
        CompactEngine {
            clock: Default::default(),
            port: Default::default(),
            walker: Constant::new(role == JobRole::Walker),
            two_bytes: Constant::new(square_bytes(geometry.squares()) == 2),
            below_root: Constant::new(Bits::<LB>::mask()),
            request: KnightArguments::new(geometry, true),
            cells: BoardCells::new(geometry),
            frames: Default::default(),
            select: Default::default(),
            target: MoveTarget::new(geometry),
            paths: Default::default(),
            share: CompactShare::new(role == JobRole::Walker),
            tour: Default::default(),
            state: Default::default(),
            width: Default::default(),
            height: Default::default(),
            file: Default::default(),
            rank: Default::default(),
            items: Default::default(),
            path: Default::default(),
            base: Default::default(),
            base_parent: Default::default(),
            depth: Default::default(),
            top_cell: Default::default(),
            top_square: Default::default(),
            next_move: Default::default(),
            later: Default::default(),
            replay_next: Default::default(),
            top_free: Default::default(),
            top_ways: Default::default(),
            top_closing: Default::default(),
            top_own_ways: Default::default(),
            top_own_closing: Default::default(),
            child_cell: Default::default(),
            child_square: Default::default(),
            child_ways: Default::default(),
            child_closing: Default::default(),
            emit_depth: Default::default(),
            emit_square: Default::default(),
            ends_after_emit: Default::default(),
            node_pulse: Default::default(),
            solution_pulse: Default::default(),
            cancelled: Default::default(),
            chosen: Default::default(),
            leaf: Default::default(),
            at_tour: Default::default(),
            deeper: Default::default(),
            below: Default::default(),
            path_last: Default::default(),
            starting: Default::default(),
            try_move: Default::default(),
            entering: Default::default(),
            descend: Default::default(),
            found_tour: Default::default(),
            leave: Default::default(),
        }
    }
}

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> Logic for CompactEngine<AB, CB, LB, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, width, height, file, rank, items, path, base, base_parent, depth, top_cell);
        dff_setup!(self, clock, top_square, next_move, later, replay_next, top_free, top_ways, top_closing);
        dff_setup!(self, clock, top_own_ways, top_own_closing, child_cell, child_square, child_ways, child_closing);
        dff_setup!(self, clock, emit_depth, emit_square, ends_after_emit, node_pulse, solution_pulse, cancelled);
        self.cancelled.d.next = self.port.cancel.val();
        clock!(self, clock, request, cells, frames, share, tour);
        self.request.arguments.next = self.port.arguments.val();
        self.port.refusal.next = self.request.refusal.val();
        self.port.nodes.next = bit_cast::<16, 1>(bits::<1>(0).replace_bit(0, self.node_pulse.q.val()));
        self.port.solutions.next = 0.into();
        if self.solution_pulse.q.val() {
            self.port.solutions.next = 1.into();
        }
        self.port.busy.next = (self.state.q.val() != CompactState::Idle) & (self.state.q.val() != CompactState::Done);
        self.port.streaming.next = self.state.q.val() == CompactState::Emit;
        self.port.result_items.next = self.items.q.val();
        self.node_pulse.d.next = false;
        self.solution_pulse.d.next = false;

        // Jobs: the walker's found ones out, the queue's taken in Next.
        JobPort::link(&mut self.port.jobs, &mut self.share.jobs);
        self.share.split_level.next = self.port.split_level.val();
        self.share.waiting.next = self.state.q.val() == CompactState::Next;
        self.share.rooted_now.next = self.state.q.val() == CompactState::Root;
        self.share.walk_over.next = false;
        self.share.take_job.next = false;
        self.share.rejoin_level.next = self.paths.rejoin_level.val();
        self.share.unwound.next = false;
        self.share.entered_path.next = self.paths.entered_path.val();
        self.share.done.next = self.state.q.val() == CompactState::Done;
        self.paths.path.next = self.path.q.val();
        self.paths.offered.next = self.port.jobs.path.val();
        self.paths.descent_level.next = self.depth.q.val();
        self.paths.pop_level.next = self.depth.q.val();
        self.paths.popping.next = false;

        // The board's cells, for the search's board and start; leaving a
        // level frees its square as its frame says.
        self.cells.width.next = self.width.q.val();
        self.cells.height.next = self.height.q.val();
        self.cells.start_file.next = self.file.q.val();
        self.cells.start_rank.next = self.rank.q.val();
        self.cells.closed.next = self.request.closed.val();
        self.cells.prune.next = self.request.prune.val();
        self.cells.sweep.next = false;
        self.cells.visit.next = false;
        self.cells.unvisit.next = false;
        self.cells.frame_cell.next = self.top_cell.q.val();
        self.cells.frame_ways.next = self.top_own_ways.q.val();
        self.cells.frame_closing.next = self.top_own_closing.q.val();
        self.cells.frame_free.next = self.top_free.q.val();
        self.cells.frame_moves_ways.next = self.top_ways.q.val();
        self.cells.frame_moves_closing.next = self.top_closing.q.val();

        // The move tried now: the next in the reference's order, or the
        // path's; where it goes; whether it is dead, a leaf or a tour (the
        // start square at the root).
        // A level is left: no move left in Run (not the search's base), or
        // unwinding above a job's rejoin level.
        self.leave.next = !self.cancelled.q.val()
            & (((self.state.q.val() == CompactState::Run)
                & !self.next_move.q.val().any()
                & (self.depth.q.val() != self.base.q.val()))
                | ((self.state.q.val() == CompactState::Unwind) & (self.depth.q.val() > self.share.rejoin_at.val())));
        // (The next move is chosen from the moves left after this one, or
        // from a level's moves as it is entered or returned to.)
        self.select.candidates.next = self.later.q.val();
        self.select.degrees.next = self.top_ways.q.val();
        if self.state.q.val() == CompactState::Enter {
            self.select.candidates.next = self.cells.found_free.val();
            self.select.degrees.next = self.cells.found_ways.val();
        }
        if self.leave.val() {
            self.select.candidates.next = self.frames.untried.val();
            self.select.degrees.next = self.frames.ways.val();
        }
        if !self.request.warnsdorff.val() {
            self.select.degrees.next = 0.into();
        }
        self.chosen.next = self.next_move.q.val();
        if self.state.q.val() == CompactState::Replay {
            self.chosen.next = self.replay_next.q.val();
        }
        self.paths.entered_move.next = self.chosen.val();
        self.target.from_cell.next = self.top_cell.q.val();
        self.target.from_square.next = self.top_square.q.val();
        self.target.moves_ways.next = self.top_ways.q.val();
        self.target.moves_closing.next = self.top_closing.q.val();
        self.target.chosen.next = self.chosen.val();
        self.cells.target.next = self.target.target_cell.val();
        self.cells.target_ways.next = self.target.target_ways.val();
        self.cells.target_closing.next = self.target.target_closing.val();
        self.target.closed.next = self.request.closed.val();
        self.cells.judge_base_none.next = self.target.target_base_none.val();
        self.cells.judge_base_one.next = self.target.target_base_one.val();
        self.cells.judge_closing.next = self.target.target_closing.val();
        if self.state.q.val() == CompactState::Root {
            self.cells.judge_base_none.next = self.cells.start_ways.val() == 0;
            self.cells.judge_base_one.next = self.cells.start_ways.val() == 1;
            self.cells.judge_closing.next = false;
        }
        self.leaf.next = self.target.target_leaf.val();
        self.at_tour.next = self.leaf.val()
            & self.cells.free_one.val()
            & (!self.request.closed.val() | self.target.target_closing.val());
        // (The level below, wrapping from below the root to 0: a sum in a
        // compare is as wide as the Verilog's literal, and would not wrap.)
        self.deeper.next = self.depth.q.val() + 1;
        self.path_last.next = self.depth.q.val() == self.base_parent.q.val();
        self.paths.replay_level.next = self.depth.q.val();
        if self.state.q.val() == CompactState::Enter {
            self.paths.replay_level.next = self.deeper.val();
        }
        self.replay_next.d.next = self.paths.replay_move.val();

        // The stack: the frame below the current level is read ahead, for a
        // backtrack; the squares for a tour being streamed.
        // (The read is registered: it asks for the level below the one
        // current in the next clock, which a visit deepens and a leave
        // lifts.)
        self.below.next = self.depth.q.val() - 1;
        if self.state.q.val() == CompactState::Enter {
            self.below.next = self.depth.q.val();
        }
        if self.leave.val() {
            self.below.next = self.depth.q.val() - 2;
        }
        self.frames.read_level.next = self.below.val();
        self.frames.square_read_level.next = self.below.val();
        if self.state.q.val() == CompactState::Emit {
            self.frames.square_read_level.next = self.tour.read_level.val();
        }
        self.frames.push.next = false;
        self.frames.write_level.next = self.depth.q.val();
        self.frames.write_cell.next = self.top_cell.q.val();
        self.frames.write_untried.next = self.later.q.val();
        self.frames.write_free.next = self.top_free.q.val();
        self.frames.write_ways.next = self.top_ways.q.val();
        self.frames.write_closing.next = self.top_closing.q.val();
        self.frames.write_own_ways.next = self.top_own_ways.q.val();
        self.frames.write_own_closing.next = self.top_own_closing.q.val();
        self.frames.square_write.next = false;
        self.frames.square_write_level.next = self.depth.q.val() + 1;
        self.frames.write_square.next = self.child_square.q.val();

        // A tour goes out square by square: the path's, then its last.
        self.tour.found.next = false;
        self.tour.active.next = self.state.q.val() == CompactState::Emit;
        self.tour.depth.next = self.emit_depth.q.val();
        self.tour.current_index.next = self.emit_square.q.val();
        self.tour.stack_square.next = self.frames.square.val();
        self.tour.cancel.next = self.cancelled.q.val();
        self.tour.ready.next = self.port.item_ready.val();
        self.tour.two_bytes.next = self.two_bytes.val();
        self.port.item.next = self.tour.item.val();
        self.port.item_valid.next = self.tour.valid.val();
        self.port.item_last.next = self.tour.last.val();

        self.try_move.next = false;
        self.found_tour.next = false;
        match self.state.q.val() {
            CompactState::Idle => {}
            CompactState::Setup => {
                // The board laid out: its squares are the free cells.
                self.items.d.next = bit_cast::<16, TB>(self.cells.free_cells.val());
                if self.two_bytes.val() {
                    self.items.d.next = bit_cast::<16, TB>(self.cells.free_cells.val()) << 1;
                }
                if !self.cells.busy.val() {
                    self.state.d.next = CompactState::Next;
                    if self.walker.val() {
                        self.state.d.next = CompactState::Root;
                    }
                }
            }
            CompactState::Root => {
                // The start square, judged like a move (unless a path
                // follows: its squares are entered unjudged but the last).
                self.node_pulse.d.next = self.share.counting_replay.val();
                self.child_cell.d.next = self.cells.start_cell.val();
                self.child_square.d.next = self.request.start_square.val();
                self.child_ways.d.next = self.cells.start_ways.val();
                self.child_closing.d.next = false;
                self.depth.d.next = self.below_root.val();
                self.state.d.next = CompactState::Done;
                if self.cancelled.q.val() {
                    self.node_pulse.d.next = false;
                } else if self.base.q.val().any() | (self.cells.start_ways.val().any() & !self.cells.dead.val()) {
                    self.cells.visit.next = true;
                    self.cells.target.next = self.cells.start_cell.val();
                    self.cells.target_ways.next = self.cells.start_ways.val();
                    self.cells.target_closing.next = false;
                    self.state.d.next = CompactState::Enter;
                } else if !self.cells.dead.val() & self.cells.free_one.val() & !self.request.closed.val() {
                    // A board of one square: the start is the tour.
                    self.found_tour.next = true;
                    self.ends_after_emit.d.next = true;
                    self.emit_depth.d.next = 0.into();
                    self.emit_square.d.next = self.request.start_square.val();
                }
            }
            CompactState::Run => {
                if self.cancelled.q.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.next_move.q.val().any() {
                    self.try_move.next = true;
                    self.next_move.d.next = self.select.first.val();
                    self.later.d.next = self.select.rest.val();
                } else if self.depth.q.val() != self.base.q.val() {
                    // (Left: see `leave` below.)
                } else if self.share.splitting.val() {
                    // The walk, or the job, is over: the next job.
                    self.share.walk_over.next = true;
                    self.state.d.next = CompactState::Next;
                } else {
                    self.state.d.next = CompactState::Done;
                }
            }
            CompactState::Replay => {
                // The path's next move, forced; only its last is judged.
                if self.cancelled.q.val() {
                    self.state.d.next = CompactState::Done;
                } else {
                    self.try_move.next = true;
                    self.frames.write_untried.next = 0.into();
                    if (self.path_last.val() & self.cells.dead.val()) | self.leaf.val() {
                        self.state.d.next = CompactState::Done;
                        self.ends_after_emit.d.next = true;
                    }
                }
            }
            CompactState::Enter => {
                // The square's visit: its free neighbours are the new
                // level's moves, taken in the visit's last clock.
                if self.cancelled.q.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.cells.visit_ends.val() {
                    self.top_cell.d.next = self.child_cell.q.val();
                    self.top_square.d.next = self.child_square.q.val();
                    self.next_move.d.next = self.select.first.val();
                    self.later.d.next = self.select.rest.val();
                    self.top_free.d.next = self.cells.found_free.val();
                    self.top_ways.d.next = self.cells.found_ways.val();
                    self.top_closing.d.next = self.cells.found_closing.val();
                    self.top_own_ways.d.next = self.child_ways.q.val();
                    self.top_own_closing.d.next = self.child_closing.q.val();
                    self.frames.square_write.next = true;
                    self.depth.d.next = self.depth.q.val() + 1;
                    self.state.d.next = CompactState::Run;
                    if self.deeper.val() < self.base.q.val() {
                        self.state.d.next = CompactState::Replay;
                    }
                }
            }
            CompactState::Leave => {
                // The rest of the square's unvisit.
                if self.cancelled.q.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.cells.unvisit_ends.val() {
                    self.state.d.next = CompactState::Run;
                    if self.share.unwinding.val() {
                        self.state.d.next = CompactState::Unwind;
                    }
                }
            }
            CompactState::Emit => {
                if self.tour.cancelled.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.tour.finished.val() {
                    self.state.d.next = CompactState::Run;
                    if self.ends_after_emit.q.val() {
                        self.state.d.next = CompactState::Done;
                    }
                }
            }
            CompactState::Next => {
                // A job: its path, replayed from the deepest level it
                // shares with the stack (from the root, the first).
                if self.cancelled.q.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.port.jobs.grant.val() {
                    self.share.take_job.next = true;
                    self.path.d.next = self.port.jobs.path.val();
                    self.base.d.next = self.share.split.val();
                    self.base_parent.d.next = self.share.split.val() - 1;
                    self.state.d.next = CompactState::Root;
                    if self.share.rooted.val() {
                        self.state.d.next = CompactState::Unwind;
                    }
                } else if self.port.jobs.over.val() {
                    self.state.d.next = CompactState::Done;
                }
            }
            CompactState::Unwind => {
                if self.cancelled.q.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.depth.q.val() > self.share.rejoin_at.val() {
                    // (Left: see `leave` below.)
                } else {
                    self.share.unwound.next = true;
                    self.state.d.next = CompactState::Replay;
                }
            }
            CompactState::Done => {}
            _ => {
                self.state.d.next = CompactState::Idle;
            }
        }
        if self.leave.val() {
            // Back to the level below: free this square (the cells keep its
            // frame), and take the level's frame back, read ahead. The
            // search goes on once the square's neighbours are written back
            // (at once when there is at most one, in the other bank).
            self.cells.unvisit.next = true;
            self.depth.d.next = self.depth.q.val() - 1;
            self.top_cell.d.next = self.frames.level_cell.val();
            self.top_square.d.next = self.frames.square.val();
            self.next_move.d.next = self.select.first.val();
            self.later.d.next = self.select.rest.val();
            self.top_free.d.next = self.frames.free.val();
            self.top_ways.d.next = self.frames.ways.val();
            self.top_closing.d.next = self.frames.closing.val();
            self.top_own_ways.d.next = self.frames.own_ways.val();
            self.top_own_closing.d.next = self.frames.own_closing.val();
            self.state.d.next = CompactState::Leave;
            if self.cells.unvisit_ends.val() {
                self.state.d.next = CompactState::Run;
                if self.share.unwinding.val() {
                    self.state.d.next = CompactState::Unwind;
                }
            }
        }

        // A move tried: a node (a replayed job's square is the walker's).
        // A dead end or a leaf ends there (a leaf may be a tour); else its
        // square is entered, or, at the job level of the walk, handed out
        // as a job when the queue has room.
        self.entering.next = false;
        if self.try_move.val() {
            self.node_pulse.d.next = (self.state.q.val() == CompactState::Run) | self.share.counting_replay.val();
            if !self.cells.dead.val() | ((self.state.q.val() == CompactState::Replay) & !self.path_last.val()) {
                if self.leaf.val() {
                    self.found_tour.next = self.at_tour.val();
                    self.emit_depth.d.next = self.depth.q.val() + 1;
                    self.emit_square.d.next = self.target.target_square.val();
                } else {
                    self.entering.next = true;
                }
            }
        }
        self.share.entering.next = self.entering.val();
        self.share.level.next = self.depth.q.val();
        self.descend.next = self.entering.val() & !self.share.hand_out.val();
        if self.descend.val() {
            self.frames.push.next = true;
            self.cells.visit.next = true;
            self.child_cell.d.next = self.target.target_cell.val();
            self.child_square.d.next = self.target.target_square.val();
            self.child_ways.d.next = self.target.target_ways.val();
            self.child_closing.d.next = self.target.target_closing.val();
            self.state.d.next = CompactState::Enter;
            if self.share.walking.val() {
                self.path.d.next = self.paths.entered_path.val();
            }
        }
        if self.found_tour.val() {
            if self.request.count_all.val() {
                self.solution_pulse.d.next = true;
            } else {
                self.tour.found.next = true;
                self.state.d.next = CompactState::Emit;
            }
        }

        // (A search ended: its walk too, in the share. A new one may start
        // at once.)
        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == CompactState::Idle) | (self.state.q.val() == CompactState::Done));
        self.request.latch.next = self.starting.val();
        self.share.start.next = self.starting.val();
        if self.starting.val() {
            self.width.d.next = self.port.arguments.val().get_bits::<8>(0);
            self.height.d.next = self.port.arguments.val().get_bits::<8>(8);
            self.file.d.next = self.port.arguments.val().get_bits::<8>(16);
            self.rank.d.next = self.port.arguments.val().get_bits::<8>(24);
            self.path.d.next = self.port.path.val();
            self.base.d.next = bit_cast::<LB, 8>(self.port.path_length.val());
            self.base_parent.d.next = bit_cast::<LB, 8>(self.port.path_length.val()) - 1;
            self.ends_after_emit.d.next = false;
            self.cells.sweep.next = true;
            self.state.d.next = CompactState::Setup;
        }
    }
}
