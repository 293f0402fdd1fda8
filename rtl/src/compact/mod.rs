//! The compact knight's-tour engine: the board in block RAM, a few clocks
//! a node, small enough to put the 8×8 board and larger on every FPGA.
//!
//! Same search as the reference (`knights_model::search`), node for node:
//! the same moves in the same order, the same dead-end pruning, the same
//! counts. It keeps the reference's incremental form:
//!
//! - [`cells`]: every cell's visited bit, closing bit and free neighbours
//!   in two block-RAM banks, and the tallies pruning reads. Entering a
//!   square reads its eight neighbours two a clock and updates the free
//!   ones; leaving it undoes that. Each takes six clocks.
//! - [`frames`]: the stack. A level's frame keeps its untried moves, and
//!   for each move the square's free neighbours and closing bit, read while
//!   the level was entered: the visited set is the same whenever the search
//!   is back at the level, so a move's dead-end judgement, whether it is a
//!   leaf and its Warnsdorff degree need no more RAM reads.
//! - This file: the state machine. A clock tries a move of the current
//!   level (the reference's order, [`MoveSelect`]): a dead end or a leaf
//!   costs that clock alone; a move with somewhere to go enters its square
//!   (a visit); a level with no moves left is left (an unvisit).
//!
//! A search may start below a path of moves (a prefix job): the path is
//! replayed a move a clock (plus its visits), its levels keep no untried
//! moves, and its last square is judged as the reference judges it.
//! A tour in first-K mode pauses the search and streams its squares
//! ([`TourStream`]). This engine does not share a search: a build has one.

pub mod accelerator;
pub mod cells;
pub mod frames;

use rust_hdl::prelude::*;

use crate::engine::arguments::KnightArguments;
use crate::engine::move_select::MoveSelect;
use crate::engine::tour_stream::TourStream;
use crate::geometry::Geometry;
use crate::platform::EnginePort;
use cells::{BoardCells, PaddedGrid};
use frames::FrameStack;

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
    Done,
}

/// A compact engine for boards up to `max_width` × `max_height`: `AB` bits
/// number a cell of the padded grid (`CB = AB - 1` a cell of a bank), `LB`
/// bits a square or a level.
#[derive(LogicBlock)]
pub struct CompactEngine<const AB: usize, const CB: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The port every engine kind has (jobs are not taken: one engine).
    pub port: EnginePort,

    request: KnightArguments<LB>,
    cells: BoardCells<AB, CB>,
    frames: FrameStack<AB, LB>,
    select: MoveSelect,
    tour: TourStream<LB>,

    cell_step: [Constant<Bits<AB>>; 8],
    square_step: [Constant<Bits<LB>>; 8],
    ways_shift: [Constant<Bits<32>>; 8],
    move_number: [Constant<Bits<3>>; 8],
    // The level below the root (the root's parent, as the stack wraps).
    below_root: Constant<Bits<LB>>,

    state: DFF<CompactState>,
    width: DFF<Bits<8>>,
    height: DFF<Bits<8>>,
    file: DFF<Bits<8>>,
    rank: DFF<Bits<8>>,
    // The path still to replay (three bit planes, next move in bit 0), and
    // its length: the level the search ends at.
    path_low: DFF<Bits<16>>,
    path_mid: DFF<Bits<16>>,
    path_high: DFF<Bits<16>>,
    base: DFF<Bits<LB>>,
    depth: DFF<Bits<LB>>,
    // The current level's frame.
    top_cell: DFF<Bits<AB>>,
    top_square: DFF<Bits<LB>>,
    top_untried: DFF<Bits<8>>,
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

    // Combinational values.
    chosen: Signal<Local, Bits<8>>,
    forced: Signal<Local, Bits<8>>,
    forced_number: Signal<Local, Bits<3>>,
    chosen_cell: Signal<Local, Bits<AB>>,
    chosen_square: Signal<Local, Bits<LB>>,
    chosen_shift: Signal<Local, Bits<32>>,
    chosen_ways: Signal<Local, Bits<4>>,
    chosen_closing: Signal<Local, bool>,
    leaf: Signal<Local, bool>,
    at_tour: Signal<Local, bool>,
    path_last: Signal<Local, bool>,
    starting: Signal<Local, bool>,
    try_move: Signal<Local, bool>,
    descend: Signal<Local, bool>,
    found_tour: Signal<Local, bool>,
}

impl<const AB: usize, const CB: usize, const LB: usize> CompactEngine<AB, CB, LB> {
    pub fn new(max_width: usize, max_height: usize) -> Self {
        let geometry = Geometry::new(max_width, max_height);
        let grid = PaddedGrid::new(geometry);
        // (A tour's squares go out a byte each.)
        assert!(geometry.squares() <= 1 << LB && LB <= 8, "{LB} bits must number the squares, 256 at most");
        CompactEngine {
            clock: Default::default(),
            port: Default::default(),
            request: KnightArguments::new(geometry, true),
            cells: BoardCells::new(geometry),
            frames: Default::default(),
            select: Default::default(),
            tour: Default::default(),
            cell_step: std::array::from_fn(|m| Constant::new(grid.offset_modulo(m, AB).into())),
            square_step: std::array::from_fn(|m| Constant::new(geometry.offset_modulo(m, LB).into())),
            ways_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            move_number: std::array::from_fn(|m| Constant::new((m as u64).into())),
            below_root: Constant::new(((1u64 << LB) - 1).into()),
            state: Default::default(),
            width: Default::default(),
            height: Default::default(),
            file: Default::default(),
            rank: Default::default(),
            path_low: Default::default(),
            path_mid: Default::default(),
            path_high: Default::default(),
            base: Default::default(),
            depth: Default::default(),
            top_cell: Default::default(),
            top_square: Default::default(),
            top_untried: Default::default(),
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
            chosen: Default::default(),
            forced: Default::default(),
            forced_number: Default::default(),
            chosen_cell: Default::default(),
            chosen_square: Default::default(),
            chosen_shift: Default::default(),
            chosen_ways: Default::default(),
            chosen_closing: Default::default(),
            leaf: Default::default(),
            at_tour: Default::default(),
            path_last: Default::default(),
            starting: Default::default(),
            try_move: Default::default(),
            descend: Default::default(),
            found_tour: Default::default(),
        }
    }
}

impl<const AB: usize, const CB: usize, const LB: usize> Logic for CompactEngine<AB, CB, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            width,
            height,
            file,
            rank,
            path_low,
            path_mid,
            path_high,
            base,
            depth,
            top_cell,
            top_square,
            top_untried,
            top_free,
            top_ways,
            top_closing,
            top_own_ways,
            top_own_closing,
            child_cell,
            child_square,
            child_ways,
            child_closing,
            emit_depth,
            emit_square,
            ends_after_emit,
            node_pulse,
            solution_pulse
        );
        clock!(self, clock, request, cells, frames, tour);
        self.request.arguments.next = self.port.arguments.val();
        self.port.refusal.next = self.request.refusal.val();

        // The port: counts, streaming, and no jobs.
        self.port.nodes.next = bit_cast::<16, 1>(bits::<1>(0).replace_bit(0, self.node_pulse.q.val()));
        self.port.solution.next = self.solution_pulse.q.val();
        self.port.busy.next = (self.state.q.val() != CompactState::Idle) & (self.state.q.val() != CompactState::Done);
        self.port.streaming.next = self.state.q.val() == CompactState::Emit;
        self.port.result_items.next = self.cells.area.val();
        self.port.jobs.found.next = false;
        self.port.jobs.found_path.next = 0.into();
        self.port.jobs.found_number.next = 0.into();
        self.port.jobs.walking.next = false;
        self.port.jobs.request.next = false;
        self.port.jobs.job.next = 0.into();
        self.node_pulse.d.next = false;
        self.solution_pulse.d.next = false;

        // The board's cells, for the search's board and start.
        self.cells.width.next = self.width.q.val();
        self.cells.height.next = self.height.q.val();
        self.cells.start_file.next = self.file.q.val();
        self.cells.start_rank.next = self.rank.q.val();
        self.cells.closed.next = self.request.closed.val();
        self.cells.prune.next = self.request.prune.val();
        self.cells.sweep.next = false;
        self.cells.visit.next = false;
        // Leaving a level frees its square as its frame says.
        self.cells.unvisit.next = false;
        self.cells.frame_cell.next = self.top_cell.q.val();
        self.cells.frame_ways.next = self.top_own_ways.q.val();
        self.cells.frame_closing.next = self.top_own_closing.q.val();
        self.cells.frame_free.next = self.top_free.q.val();
        self.cells.frame_moves_ways.next = self.top_ways.q.val();
        self.cells.frame_moves_closing.next = self.top_closing.q.val();

        // The move tried now: the next in the reference's order, or the
        // path's.
        self.select.candidates.next = self.top_untried.q.val();
        self.select.degrees.next = 0.into();
        if self.request.warnsdorff.val() {
            self.select.degrees.next = self.top_ways.q.val();
        }
        self.forced_number.next = bits::<3>(0)
            .replace_bit(0, self.path_low.q.val().get_bit(0))
            .replace_bit(1, self.path_mid.q.val().get_bit(0))
            .replace_bit(2, self.path_high.q.val().get_bit(0));
        self.forced.next = 0.into();
        for m in 0..8 {
            if self.forced_number.val() == self.move_number[m].val() {
                self.forced.next = bits::<8>(0).replace_bit(m, true);
            }
        }
        self.chosen.next = self.select.first.val();
        if self.state.q.val() == CompactState::Replay {
            self.chosen.next = self.forced.val();
        }
        self.chosen_cell.next = 0.into();
        self.chosen_square.next = 0.into();
        self.chosen_shift.next = 0.into();
        self.chosen_closing.next = false;
        for m in 0..8 {
            if self.chosen.val().get_bit(m) {
                self.chosen_cell.next = self.top_cell.q.val() + self.cell_step[m].val();
                self.chosen_square.next = self.top_square.q.val() + self.square_step[m].val();
                self.chosen_shift.next = self.ways_shift[m].val();
                self.chosen_closing.next = self.top_closing.q.val().get_bit(m);
            }
        }
        self.chosen_ways.next = bit_cast::<4, 32>(self.top_ways.q.val() >> self.chosen_shift.val());
        if !self.chosen.val().any() {
            self.chosen_ways.next = 0.into();
        }
        self.cells.target.next = self.chosen_cell.val();
        self.cells.target_ways.next = self.chosen_ways.val();
        self.cells.target_closing.next = self.chosen_closing.val();
        // The dead-end judge: the start square at the root, else the move.
        self.cells.judge_ways.next = self.chosen_ways.val();
        self.cells.judge_closing.next = self.chosen_closing.val();
        if self.state.q.val() == CompactState::Root {
            self.cells.judge_ways.next = self.cells.start_ways.val();
            self.cells.judge_closing.next = false;
        }
        self.leaf.next = !self.chosen_ways.val().any();
        // A leaf is a tour when it is the last free square (and closes one).
        self.at_tour.next = self.leaf.val()
            & (self.cells.free_cells.val() == 1)
            & (!self.request.closed.val() | self.chosen_closing.val());
        self.path_last.next = (self.depth.q.val() + 1) == self.base.q.val();

        // The stack: the frame below the current level is read ahead, for a
        // backtrack; the squares for a tour being streamed.
        self.frames.read_level.next = self.depth.q.val() - 1;
        self.frames.square_read_level.next = self.depth.q.val() - 1;
        if self.state.q.val() == CompactState::Leave {
            self.frames.read_level.next = self.depth.q.val();
            self.frames.square_read_level.next = self.depth.q.val();
        }
        if self.state.q.val() == CompactState::Emit {
            self.frames.square_read_level.next = self.tour.read_level.val();
        }
        self.frames.push.next = false;
        self.frames.write_level.next = self.depth.q.val();
        self.frames.write_cell.next = self.top_cell.q.val();
        self.frames.write_untried.next = self.select.rest.val();
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
        self.tour.cancel.next = self.port.cancel.val();
        self.tour.ready.next = self.port.item_ready.val();
        self.port.item.next = bit_cast::<8, LB>(self.tour.square.val());
        self.port.item_valid.next = self.tour.valid.val();
        self.port.item_last.next = self.tour.last.val();

        self.try_move.next = false;
        self.descend.next = false;
        self.found_tour.next = false;
        match self.state.q.val() {
            CompactState::Idle => {}
            CompactState::Setup => {
                if !self.cells.busy.val() {
                    self.state.d.next = CompactState::Root;
                }
            }
            CompactState::Root => {
                // The start square, judged like a move (unless a path
                // follows: its squares are entered unjudged but the last).
                self.node_pulse.d.next = true;
                self.child_cell.d.next = self.cells.start_cell.val();
                self.child_square.d.next = self.request.start_square.val();
                self.child_ways.d.next = self.cells.start_ways.val();
                self.child_closing.d.next = false;
                self.depth.d.next = self.below_root.val();
                self.state.d.next = CompactState::Done;
                if self.port.cancel.val() {
                    self.node_pulse.d.next = false;
                } else if self.base.q.val().any() | (self.cells.start_ways.val().any() & !self.cells.dead.val()) {
                    self.cells.visit.next = true;
                    self.cells.target.next = self.cells.start_cell.val();
                    self.cells.target_ways.next = self.cells.start_ways.val();
                    self.cells.target_closing.next = false;
                    self.state.d.next = CompactState::Enter;
                } else if !self.cells.dead.val() & (self.cells.free_cells.val() == 1) & !self.request.closed.val() {
                    // A board of one square: the start is the tour.
                    self.found_tour.next = true;
                    self.ends_after_emit.d.next = true;
                    self.emit_depth.d.next = 0.into();
                    self.emit_square.d.next = self.request.start_square.val();
                }
            }
            CompactState::Run => {
                if self.port.cancel.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.top_untried.q.val().any() {
                    self.try_move.next = true;
                    self.top_untried.d.next = self.select.rest.val();
                } else if self.depth.q.val() == self.base.q.val() {
                    self.state.d.next = CompactState::Done;
                } else {
                    // Back to the level below: free this square.
                    self.cells.unvisit.next = true;
                    self.depth.d.next = self.depth.q.val() - 1;
                    self.state.d.next = CompactState::Leave;
                }
            }
            CompactState::Replay => {
                // The path's next move, forced; only its last is judged.
                if self.port.cancel.val() {
                    self.state.d.next = CompactState::Done;
                } else {
                    self.try_move.next = true;
                    self.path_low.d.next = self.path_low.q.val() >> 1;
                    self.path_mid.d.next = self.path_mid.q.val() >> 1;
                    self.path_high.d.next = self.path_high.q.val() >> 1;
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
                if self.port.cancel.val() {
                    self.state.d.next = CompactState::Done;
                } else if self.cells.visit_ends.val() {
                    self.top_cell.d.next = self.child_cell.q.val();
                    self.top_square.d.next = self.child_square.q.val();
                    self.top_untried.d.next = self.cells.found_free.val();
                    self.top_free.d.next = self.cells.found_free.val();
                    self.top_ways.d.next = self.cells.found_ways.val();
                    self.top_closing.d.next = self.cells.found_closing.val();
                    self.top_own_ways.d.next = self.child_ways.q.val();
                    self.top_own_closing.d.next = self.child_closing.q.val();
                    self.frames.square_write.next = true;
                    self.depth.d.next = self.depth.q.val() + 1;
                    self.state.d.next = CompactState::Run;
                    if (self.depth.q.val() + 1) < self.base.q.val() {
                        self.state.d.next = CompactState::Replay;
                    }
                }
            }
            CompactState::Leave => {
                // The square's unvisit; the level below comes back.
                if self.port.cancel.val() {
                    self.state.d.next = CompactState::Done;
                } else if !self.cells.busy.val() {
                    self.top_cell.d.next = self.frames.level_cell.val();
                    self.top_square.d.next = self.frames.square.val();
                    self.top_untried.d.next = self.frames.untried.val();
                    self.top_free.d.next = self.frames.free.val();
                    self.top_ways.d.next = self.frames.ways.val();
                    self.top_closing.d.next = self.frames.closing.val();
                    self.top_own_ways.d.next = self.frames.own_ways.val();
                    self.top_own_closing.d.next = self.frames.own_closing.val();
                    self.state.d.next = CompactState::Run;
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
            CompactState::Done => {}
            _ => {
                self.state.d.next = CompactState::Idle;
            }
        }

        // A move tried: a node. A dead end or a leaf ends there (a leaf may
        // be a tour); else its square is entered.
        if self.try_move.val() {
            self.node_pulse.d.next = true;
            if !self.cells.dead.val() | ((self.state.q.val() == CompactState::Replay) & !self.path_last.val()) {
                if self.leaf.val() {
                    self.found_tour.next = self.at_tour.val();
                    self.emit_depth.d.next = self.depth.q.val() + 1;
                    self.emit_square.d.next = self.chosen_square.val();
                } else {
                    self.descend.next = true;
                }
            }
        }
        if self.descend.val() {
            self.frames.push.next = true;
            self.cells.visit.next = true;
            self.child_cell.d.next = self.chosen_cell.val();
            self.child_square.d.next = self.chosen_square.val();
            self.child_ways.d.next = self.chosen_ways.val();
            self.child_closing.d.next = self.chosen_closing.val();
            self.state.d.next = CompactState::Enter;
        }
        if self.found_tour.val() {
            if self.request.count_all.val() {
                self.solution_pulse.d.next = true;
            } else {
                self.tour.found.next = true;
                self.state.d.next = CompactState::Emit;
            }
        }

        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == CompactState::Idle) | (self.state.q.val() == CompactState::Done));
        self.request.latch.next = self.starting.val();
        if self.starting.val() {
            self.width.d.next = self.port.arguments.val().get_bits::<8>(0);
            self.height.d.next = self.port.arguments.val().get_bits::<8>(8);
            self.file.d.next = self.port.arguments.val().get_bits::<8>(16);
            self.rank.d.next = self.port.arguments.val().get_bits::<8>(24);
            self.path_low.d.next = self.port.path.val().get_bits::<16>(0);
            self.path_mid.d.next = self.port.path.val().get_bits::<16>(16);
            self.path_high.d.next = self.port.path.val().get_bits::<16>(32);
            self.base.d.next = bit_cast::<LB, 8>(self.port.path_length.val());
            self.ends_after_emit.d.next = false;
            self.cells.sweep.next = true;
            self.state.d.next = CompactState::Setup;
        }
    }
}
