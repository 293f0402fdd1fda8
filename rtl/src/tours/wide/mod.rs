//! The backtracking engine: one search node per clock.
//!
//! Same search as the reference (`knights_model::tours`), in hardware form:
//!
//! - The current square is one-hot, so its free neighbours are eight masked
//!   constant shifts ANDed with the free-square vector: no muxes.
//! - Each stack level keeps the moves it has not tried yet (8 bits), its
//!   square (for streaming tours out), the visited squares as it was left,
//!   and the next level down that has untried moves (all in RAM).
//! - Backtracking from a dead end pops straight to the deepest level with an
//!   untried move (the *resume level*, cached in registers with its visited
//!   squares) and enters that move in the same clock: the visited squares
//!   become the resume level's, which frees every deeper square at once. So
//!   every clock of a search enters one node.
//! - When the resume level runs out of moves, the next one down is the one
//!   it links to; its entry, read from RAM every clock, serves the next.
//! - Dead-end pruning judges all eight children of the current square in
//!   its clock, from counts over the whole board (the host's
//!   `Searcher::dead_end`, the same rule). In count mode the dead children
//!   are counted without being entered, so a clock can count up to nine
//!   nodes; in first-K mode they are entered (a clock each), which keeps the
//!   node count in the reference's order at every tour.
//!
//! A tour in first-K mode pauses the search and streams its squares with a
//! valid/ready handshake: back-pressure stalls the search, nothing is dropped.
//!
//! The engine is in blocks, one a file: [`arguments`] (SOLVE's arguments as
//! this engine kind reads and refuses them), [`board_setup`] (the run-time
//! board), [`step`] (the data path: the position and the step it takes,
//! with [`children`], the current node's children: [`knight_moves`],
//! [`onward`] counts of every square, the [`dead_end`] judge and
//! [`move_select`]; the [`stack`]; and [`resume`], the resume level, which
//! takes a backtrack's move), [`job_share`] (its share of a split search, with
//! [`job_path`]: jobs as paths) and [`tour_stream`] (a tour out, square by
//! square). This file is the state machine that drives them; its port is the
//! [`EnginePort`] every engine kind has.

pub mod bank;
pub mod board_setup;
pub mod children;
pub mod dead_end;
pub mod job_share;
pub mod knight_moves;
pub mod onward;
pub mod resume;
pub mod stack;
pub mod step;

use rust_hdl::prelude::*;

use crate::platform::{EnginePort, JobPort, JobRole};
use crate::tours::common::arguments::KnightArguments;
use crate::tours::common::geometry::Geometry;
use crate::tours::common::tour_stream::TourStream;
use board_setup::BoardSetup;
use job_share::JobShare;
use step::SearchStep;

/// The engine's control states (the job share reads them too).
#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum EngineState {
    Idle,
    Setup,
    Root,
    Next,
    Rejoin,
    Replay,
    Run,
    Emit,
    Done,
}

/// A search engine for boards up to `SQ` squares; `LB` bits number a square
/// or a level (`2^LB >= SQ`).
#[derive(LogicBlock)]
pub struct Engine<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The port every engine kind has: a search's arguments (a board up to
    /// the build's, a start square, the flags) and start, jobs, the tours
    /// streamed square by square from the start square on, counts.
    pub port: EnginePort,
    /// Tours to stream before stopping, in first-K mode (0: every tour);
    /// read as tours are found, so hold it while the search runs. (Ignored
    /// by [`Engine::for_accelerator`]: the accelerator counts tours itself.)
    pub limit: Signal<In, Bits<48>>,

    // A standalone engine stops itself at `limit` tours. The accelerator
    // counts tours, so this constant drops that logic (an engine synthesised
    // as its own module keeps logic its tied-off inputs would otherwise fold
    // away).
    standalone: Constant<bool>,
    // Warnsdorff's order is built in. A build can leave it out (about an
    // eighth of an engine's logic) to fit more engines.
    has_warnsdorff: Constant<bool>,

    request: KnightArguments<LB>,
    board_setup: BoardSetup<SQ>,
    step: SearchStep<SQ, LB>,
    share: JobShare<LB>,
    tour: TourStream<LB>,

    state: DFF<EngineState>,
    tour_pulse: DFF<bool>,
    reported: DFF<bool>,
    tour_count: DFF<Bits<48>>,

    // Combinational values.
    expand: Signal<Local, bool>,
    entering: Signal<Local, bool>,
    job_starts: Signal<Local, bool>,
    pop_into_held: Signal<Local, bool>,
    walk_over: Signal<Local, bool>,
    starting: Signal<Local, bool>,
    children_judged: Signal<Local, bool>,
}

impl<const SQ: usize, const LB: usize> Engine<SQ, LB> {
    /// An engine for boards up to `max_width` × `max_height` that stops
    /// itself at `limit` tours. (Given a split level with `job_space` low, it searches
    /// every job itself.)
    pub fn new(max_width: usize, max_height: usize) -> Self {
        Self::build(max_width, max_height, true, true, JobRole::Walker)
    }

    /// As [`Engine::new`], with `limit` ignored: the
    /// logic the accelerator's engines need (they take jobs from a queue, and
    /// the accelerator counts the tours sent). Without `warnsdorff` the
    /// engine searches in the fixed order whatever its `warnsdorff` input.
    /// The role is built in, as the accelerator's engines are synthesised
    /// one module at a time, where a tied-off input would not fold away.
    pub fn for_accelerator(max_width: usize, max_height: usize, warnsdorff: bool, role: JobRole) -> Self {
        Self::build(max_width, max_height, false, warnsdorff, role)
    }

    fn build(max_width: usize, max_height: usize, standalone: bool, warnsdorff: bool, role: JobRole) -> Self {
        let geometry = Geometry::new(max_width, max_height);
        assert_eq!(geometry.squares(), SQ, "SQ must be max_width * max_height");
        assert!(LB >= 4 && SQ <= 1 << LB, "LB bits must number SQ squares (and levels up to 16)");
        // (A tour's squares go out a byte each.)
        assert!(max_width <= 255 && max_height <= 255 && SQ <= 256 && LB <= 8);
        Engine {
            clock: Default::default(),
            port: Default::default(),
            limit: Default::default(),
            standalone: Constant::new(standalone),
            has_warnsdorff: Constant::new(warnsdorff),
            request: KnightArguments::new(geometry, warnsdorff),
            board_setup: BoardSetup::new(geometry),
            step: SearchStep::new(geometry, warnsdorff),
            share: JobShare::new(role == JobRole::Walker),
            tour: Default::default(),
            state: Default::default(),
            tour_pulse: Default::default(),
            reported: Default::default(),
            tour_count: Default::default(),
            expand: Default::default(),
            entering: Default::default(),
            job_starts: Default::default(),
            pop_into_held: Default::default(),
            walk_over: Default::default(),
            starting: Default::default(),
            children_judged: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Engine<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, tour_pulse, reported, tour_count);
        clock!(self, clock, request, board_setup, step, share, tour);
        self.request.arguments.next = self.port.arguments.val();
        self.port.refusal.next = self.request.refusal.val();

        // The data path: the search's settings, the job's forced moves, and
        // no step unless the state below takes one.
        self.step.board.next = self.board_setup.board.val();
        self.step.area.next = self.board_setup.area.val();
        self.step.warnsdorff.next = self.request.warnsdorff.val();
        self.step.prune.next = self.request.prune.val();
        self.step.closed.next = self.request.closed.val();
        self.step.count_mode.next = self.request.count_all.val();
        self.step.start_index.next = self.request.start_square.val();
        self.step.judging_start.next = self.state.q.val() == EngineState::Root;
        self.step.replaying.next = self.state.q.val() == EngineState::Replay;
        self.step.job_move.next = self.share.replay_move.val();
        self.step.forcing.next = self.share.forcing.val();
        self.step.fetch.next = self.share.fetch.val();
        self.step.fetch_level.next = self.share.fetch_level.val();
        self.step.streaming.next = self.state.q.val() == EngineState::Emit;
        self.step.stream_level.next = self.tour.read_level.val();
        self.step.clear.next = false;
        self.step.restart.next = false;
        self.step.descend.next = false;
        self.step.backtrack.next = false;
        self.expand.next = self.step.has_move.val() & !self.step.dead.val() & !self.share.skip_job.val();

        // The job share: told what the search does, it answers with jobs.
        self.share.split_level.next = bit_cast::<LB, 8>(self.port.split_level.val());
        self.share.search_path.next = self.port.path.val();
        self.share.path_length.next = bit_cast::<LB, 8>(self.port.path_length.val());
        self.share.state.next = self.state.q.val();
        self.share.last_level.next = bit_cast::<LB, 16>(self.board_setup.area.val() - 1);
        self.share.depth.next = self.step.depth.val();
        self.share.resume_valid.next = self.step.resume_valid.val();
        self.share.resume_level.next = self.step.resume_level.val();
        self.share.first_move.next = self.step.first.val();
        self.share.taken.next = self.step.taken.val();
        self.share.dead.next = self.step.doomed_count.val();
        JobPort::link(&mut self.port.jobs, &mut self.share.jobs);
        self.port.nodes.next = self.share.nodes.val();

        self.board_setup.start.next = false;
        self.board_setup.step.next = false;
        self.board_setup.width.next = self.request.width.val();
        self.board_setup.height.next = self.request.height.val();
        // A tour found goes out square by square.
        self.tour.found.next = false;
        self.tour.active.next = self.state.q.val() == EngineState::Emit;
        self.tour.depth.next = self.step.depth.val();
        self.tour.current_index.next = self.step.current_index.val();
        self.tour.stack_square.next = self.step.stream_square.val();
        self.tour.cancel.next = self.port.cancel.val();
        self.tour.ready.next = self.port.item_ready.val();
        self.tour.two_bytes.next = false;
        self.port.item.next = self.tour.item.val();
        self.port.item_valid.next = self.tour.valid.val();
        self.port.item_last.next = self.tour.last.val();
        // Busy from start to done.
        self.port.busy.next = (self.state.q.val() != EngineState::Idle) & (self.state.q.val() != EngineState::Done);
        self.port.streaming.next = self.state.q.val() == EngineState::Emit;
        self.port.result_items.next = self.board_setup.area.val();
        self.port.solutions.next = 0.into();
        if self.tour_pulse.q.val() {
            self.port.solutions.next = 1.into();
        }
        self.tour_pulse.d.next = false;
        self.children_judged.next = false;
        self.job_starts.next = false;
        self.pop_into_held.next = false;
        self.walk_over.next = false;
        self.entering.next = false;

        match self.state.q.val() {
            EngineState::Idle => {}
            EngineState::Setup => {
                self.board_setup.step.next = true;
                if self.board_setup.last_rank.val() {
                    // Nothing is visited while the start square is judged.
                    self.step.clear.next = true;
                    self.reported.d.next = false;
                    self.state.d.next = EngineState::Root;
                }
            }
            EngineState::Root => {
                // Enter the start square, judged like a child.
                // A board too small for the requested split level is
                // searched whole by the walker, and the others stop; else the
                // others wait for jobs.
                if !self.step.start_on_board.val() | self.share.root_done.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.share.root_waits.val() {
                    self.state.d.next = EngineState::Next;
                } else {
                    self.entering.next = true;
                    self.step.restart.next = true;
                    self.state.d.next = EngineState::Run;
                    if self.share.replays_path.val() {
                        self.state.d.next = EngineState::Replay;
                    }
                }
            }
            EngineState::Run => {
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.step.at_tour.val() & !self.reported.q.val() & !self.request.count_all.val() {
                    self.tour_count.d.next = self.tour_count.q.val() + 1;
                    self.reported.d.next = true;
                    self.tour.found.next = true;
                    self.state.d.next = EngineState::Emit;
                } else {
                    if self.step.at_tour.val() & self.request.count_all.val() {
                        self.tour_count.d.next = self.tour_count.q.val() + 1;
                        self.tour_pulse.d.next = true;
                    }
                    self.reported.d.next = false;
                    self.children_judged.next = true;
                    if self.expand.val() {
                        // Descend: push this level, enter its first free move.
                        self.step.descend.next = true;
                    } else if self.step.resume_valid.val() {
                        // Dead end: pop to the resume level, enter its next move.
                        self.step.backtrack.next = true;
                    } else if self.share.rejoin_pending.val() {
                        // The job is over and the next one's rejoin level is
                        // the resume level: pop into it, then replay the rest.
                        self.step.backtrack.next = true;
                        self.pop_into_held.next = true;
                        if !self.share.pop_reaches_job.val() {
                            self.state.d.next = EngineState::Replay;
                        }
                    } else if self.share.splitting.val() {
                        // The job, or the walk, is over: on to the next job.
                        // (Started from Next, a clock later: deciding it here
                        // put the job's registers on the step's longest path.)
                        self.walk_over.next = true;
                        self.state.d.next = EngineState::Next;
                    } else {
                        self.state.d.next = EngineState::Done;
                    }
                }
            }
            EngineState::Next => {
                // Waiting for a job (the walker too, once its walk is done).
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.share.job_held.val() {
                    // Start the job held (one granted in this clock starts in
                    // the next): from the deepest level its path shares with
                    // the last job's (the first moves of two jobs handed out
                    // near each other mostly agree; that level's entry is
                    // read from the stack now), else from the start square;
                    // then replay the rest of its path.
                    self.job_starts.next = true;
                    self.reported.d.next = false;
                    if self.share.rejoin_ok.val() {
                        self.state.d.next = EngineState::Rejoin;
                    } else {
                        self.step.restart.next = true;
                        self.state.d.next = EngineState::Replay;
                    }
                } else if self.share.jobs_over.val() {
                    self.state.d.next = EngineState::Done;
                }
            }
            EngineState::Replay => {
                // Enter the job's path (or the search's, from the root), a
                // move per clock, as a descent with the move forced; its
                // levels keep no untried moves, so the search never
                // backtracks into them.
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else {
                    self.step.descend.next = true;
                    if self.share.push_reaches_job.val() | self.share.push_ends_path.val() {
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Rejoin => {
                // Pop to the deepest level the old and new jobs' paths share
                // (its square read from the stack) and enter the new path's
                // move there, as a backtrack does; replay the rest.
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else {
                    self.step.backtrack.next = true;
                    self.state.d.next = EngineState::Replay;
                    if self.share.pop_reaches_job.val() {
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Emit => {
                // Stream the tour's squares from the stack, level by level.
                if self.tour.cancelled.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.tour.finished.val() {
                    self.state.d.next = EngineState::Run;
                    if self.standalone.val() & self.limit.val().any() & (self.tour_count.q.val() == self.limit.val()) {
                        self.state.d.next = EngineState::Done;
                    }
                }
            }
            EngineState::Done => {}
            _ => {
                self.state.d.next = EngineState::Idle;
            }
        }
        // Descents and backtracks enter a node.
        if self.step.descend.val() | self.step.backtrack.val() {
            self.entering.next = true;
        }

        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == EngineState::Idle) | (self.state.q.val() == EngineState::Done));
        self.request.latch.next = self.starting.val();
        if self.starting.val() {
            self.board_setup.start.next = true;
            self.tour_count.d.next = 0.into();
            self.state.d.next = EngineState::Setup;
        }

        // What the search did this clock, for the job share.
        self.share.search_start.next = self.starting.val();
        self.share.entering.next = self.entering.val();
        self.share.keeps_moves.next = self.step.descend.val() & self.step.keeps_moves.val();
        self.share.popping.next = self.step.backtrack.val();
        self.share.pop_into_held.next = self.pop_into_held.val();
        self.share.walk_over.next = self.walk_over.val();
        self.share.job_starts.next = self.job_starts.val();
        self.share.judging.next = self.children_judged.val() & self.request.count_all.val() & !self.step.dead.val();
    }
}
