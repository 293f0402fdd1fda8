//! The backtracking engine: one search node per clock.
//!
//! Same search as the reference (`knights_model::search`), in hardware form:
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
//! board), [`children`] (the current node's children: [`knight_moves`],
//! [`onward`] counts of every square, the [`dead_end`] judge and
//! [`move_select`]), [`stack`], [`resume`] (the resume level, which takes a
//! backtrack's move), [`job_share`] (its share of a split search, with
//! [`job_path`]: jobs as paths) and [`tour_stream`] (a tour out, square by
//! square). This file is the state machine that drives them; its port is the
//! [`EnginePort`] every engine kind has.

pub mod arguments;
pub mod board_setup;
pub mod children;
pub mod dead_end;
pub mod job_path;
pub mod job_share;
pub mod knight_moves;
pub mod move_select;
pub mod onward;
pub mod resume;
pub mod stack;
pub mod tour_stream;

use rust_hdl::prelude::*;

use crate::geometry::Geometry;
pub use crate::platform::EnginePort;
use arguments::KnightArguments;
use board_setup::BoardSetup;
use children::Children;
pub use job_path::JOB_PATH_BITS;
use job_share::JobShare;
use knight_moves::KnightMoves;
use resume::ResumeLevel;
use stack::Stack;
use tour_stream::TourStream;

/// An engine's part in sharing a search (see [`EnginePort::split_level`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum JobRole {
    /// Walks the levels above the jobs and queues them (one engine must): it
    /// counts the nodes up there, searches a job itself when the queue has
    /// no room for it, and takes jobs from the queue once its walk is done.
    Walker,
    /// Takes jobs from the queue; the walking logic is left out.
    Worker,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum EngineState {
    Idle,
    Setup,
    Root,
    Load,
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
    /// Squares of a fixed starting path after the start square (a prefix
    /// job); 0 searches from the start square alone. The search then covers
    /// only the paths that begin with this prefix. (Not combined with a
    /// split level; ignored by [`Engine::for_accelerator`].)
    pub prefix_length: Signal<In, Bits<LB>>,
    /// The next prefix square, taken when both valid and ready are high.
    pub prefix_square: Signal<In, Bits<LB>>,
    pub prefix_valid: Signal<In, bool>,
    pub prefix_ready: Signal<Out, bool>,

    // A standalone engine takes prefix jobs and stops itself at `limit`
    // tours. The accelerator's engines share work by a job queue and the
    // accelerator counts tours, so this constant drops that logic (an engine
    // synthesised as its own module keeps logic its tied-off inputs would
    // otherwise fold away).
    standalone: Constant<bool>,
    // Warnsdorff's order is built in. A build can leave it out (about an
    // eighth of an engine's logic) to fit more engines.
    has_warnsdorff: Constant<bool>,

    request: KnightArguments<LB>,
    board_setup: BoardSetup<SQ>,
    start_moves: KnightMoves<SQ, LB>,
    children: Children<SQ, LB>,
    stack: Stack<SQ, LB>,
    resume: ResumeLevel<SQ, LB>,
    share: JobShare<LB>,
    tour: TourStream<LB>,

    // The request, latched at start.
    state: DFF<EngineState>,
    start_index: DFF<Bits<LB>>,
    want_closed: DFF<bool>,
    use_warnsdorff: DFF<bool>,
    use_prune: DFF<bool>,
    count_mode: DFF<bool>,
    prefix_left: DFF<Bits<LB>>,
    tour_pulse: DFF<bool>,
    last_level: DFF<Bits<LB>>,
    closing_squares: DFF<Bits<SQ>>,
    // The search.
    current: DFF<Bits<SQ>>,
    current_index: DFF<Bits<LB>>,
    // The current node is a dead end (judged when it was chosen).
    entered_dead: DFF<bool>,
    depth: DFF<Bits<LB>>,
    visited: DFF<Bits<SQ>>,
    reported: DFF<bool>,
    tour_count: DFF<Bits<48>>,

    // Combinational values.
    start_one_hot: Signal<Local, Bits<SQ>>,
    prefix_one_hot: Signal<Local, Bits<SQ>>,
    at_tour: Signal<Local, bool>,
    expand: Signal<Local, bool>,
    entering: Signal<Local, bool>,
    rejoin_job: Signal<Local, bool>,
    pop_into_held: Signal<Local, bool>,
    walk_over: Signal<Local, bool>,
    starting: Signal<Local, bool>,
    fresh_job: Signal<Local, bool>,
    to_start: Signal<Local, bool>,
    descending: Signal<Local, bool>,
    popping: Signal<Local, bool>,
    children_judged: Signal<Local, bool>,
}

impl<const SQ: usize, const LB: usize> Engine<SQ, LB> {
    /// An engine for boards up to `max_width` × `max_height`, with its
    /// prefix port. (Given a split level with `job_space` low, it searches
    /// every job itself.)
    pub fn new(max_width: usize, max_height: usize) -> Self {
        Self::build(max_width, max_height, true, true, JobRole::Walker)
    }

    /// As [`Engine::new`], with the prefix port and `limit` ignored: the
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
            prefix_length: Default::default(),
            prefix_square: Default::default(),
            prefix_valid: Default::default(),
            prefix_ready: Default::default(),
            standalone: Constant::new(standalone),
            has_warnsdorff: Constant::new(warnsdorff),
            request: KnightArguments::new(geometry, warnsdorff),
            board_setup: BoardSetup::new(geometry),
            start_moves: KnightMoves::new(geometry),
            children: Children::new(geometry, warnsdorff),
            stack: Default::default(),
            resume: ResumeLevel::new(geometry, warnsdorff),
            share: JobShare::new(role == JobRole::Walker),
            tour: Default::default(),
            state: Default::default(),
            start_index: Default::default(),
            want_closed: Default::default(),
            use_warnsdorff: Default::default(),
            use_prune: Default::default(),
            count_mode: Default::default(),
            prefix_left: Default::default(),
            tour_pulse: Default::default(),
            last_level: Default::default(),
            closing_squares: Default::default(),
            current: Default::default(),
            current_index: Default::default(),
            entered_dead: Default::default(),
            depth: Default::default(),
            visited: Default::default(),
            reported: Default::default(),
            tour_count: Default::default(),
            start_one_hot: Default::default(),
            prefix_one_hot: Default::default(),
            at_tour: Default::default(),
            expand: Default::default(),
            entering: Default::default(),
            rejoin_job: Default::default(),
            pop_into_held: Default::default(),
            walk_over: Default::default(),
            starting: Default::default(),
            fresh_job: Default::default(),
            to_start: Default::default(),
            descending: Default::default(),
            popping: Default::default(),
            children_judged: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Engine<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            start_index,
            want_closed,
            use_warnsdorff,
            use_prune,
            count_mode,
            prefix_left,
            tour_pulse,
            last_level,
            closing_squares,
            current,
            current_index,
            entered_dead,
            depth,
            visited,
            reported,
            tour_count
        );
        clock!(self, clock, board_setup, stack, resume, share, tour);
        self.request.arguments.next = self.port.arguments.val();
        self.port.refusal.next = self.request.refusal.val();

        self.start_one_hot.next = bits::<SQ>(1) << self.start_index.q.val();
        self.prefix_one_hot.next = 0.into();
        if self.standalone.val() {
            self.prefix_one_hot.next = bits::<SQ>(1) << self.prefix_square.val();
        }
        self.start_moves.square.next = self.start_one_hot.val();
        self.start_moves.index.next = self.start_index.q.val();
        self.start_moves.chosen.next = 0.into();

        // The current node's children (the probe, lane 8 of the judge: the
        // start square or a prefix square, judged as it is entered). A
        // replay offers only its path's move, so none is left to try.
        self.children.current.next = self.current.q.val();
        self.children.current_index.next = self.current_index.q.val();
        self.children.free.next = self.board_setup.board.val() & !self.visited.q.val();
        self.children.warnsdorff.next = self.use_warnsdorff.q.val();
        self.children.prune.next = self.use_prune.q.val();
        self.children.closed.next = self.want_closed.q.val();
        self.children.closing.next = self.closing_squares.q.val();
        self.children.depth.next = self.depth.q.val();
        self.children.area.next = self.board_setup.area.val();
        self.children.probe.next = self.prefix_one_hot.val();
        if self.state.q.val() == EngineState::Root {
            self.children.probe.next = self.start_one_hot.val();
        }
        self.children.replaying.next = self.state.q.val() == EngineState::Replay;
        self.children.replay_move.next = self.share.replay_move.val();
        self.children.skip_dead.next = self.count_mode.q.val();
        self.at_tour.next = (self.depth.q.val() == self.last_level.q.val())
            & (!self.want_closed.q.val() | (self.current.q.val() & self.closing_squares.q.val()).any());
        self.expand.next = self.children.has_move.val() & !self.entered_dead.q.val() & !self.share.skip_job.val();

        // The job share: told what the search does, it answers with jobs.
        self.share.split_level.next = bit_cast::<LB, 8>(self.port.split_level.val());
        self.share.at_root.next = self.state.q.val() == EngineState::Root;
        self.share.last_level.next = bit_cast::<LB, 16>(self.board_setup.area.val() - 1);
        self.share.running.next = self.state.q.val() == EngineState::Run;
        self.share.waiting.next = self.state.q.val() == EngineState::Next;
        self.share.replaying.next = self.state.q.val() == EngineState::Replay;
        self.share.rejoining.next = self.state.q.val() == EngineState::Rejoin;
        self.share.depth.next = self.depth.q.val();
        self.share.resume_valid.next = self.resume.valid.val();
        self.share.resume_level.next = self.resume.level.val();
        self.share.first_move.next = self.children.first.val();
        self.share.taken.next = self.resume.taken.val();
        self.share.dead.next = self.children.doomed_count.val();
        self.share.job_space.next = self.port.job_space.val();
        self.share.job_grant.next = self.port.job_grant.val();
        self.share.job_path.next = self.port.job_path.val();
        self.share.job_number.next = self.port.job_number.val();
        self.port.job_request.next = self.share.job_request.val();
        self.port.job_found.next = self.share.job_found.val();
        self.port.found_path.next = self.share.found_path.val();
        self.port.found_number.next = self.share.found_number.val();
        self.port.walking.next = self.share.walking.val();
        self.port.job.next = self.share.job.val();
        self.port.nodes.next = self.share.nodes.val();

        // The resume level reads the stack (its next level down, every
        // clock); a rejoin forces the new job's move at the level the paths
        // share.
        self.stack.read_address.next = self.resume.read_address.val();
        self.stack.square_read_address.next = self.resume.read_address.val();
        self.resume.stack_moves.next = self.stack.moves.val();
        self.resume.stack_square.next = self.stack.square.val();
        self.resume.stack_degrees.next = self.stack.degrees.val();
        self.resume.stack_doomed.next = self.stack.doomed.val();
        self.resume.stack_visited.next = self.stack.visited.val();
        self.resume.stack_below.next = self.stack.below.val();
        self.resume.stack_below_valid.next = self.stack.below_valid.val();
        self.resume.forcing.next = self.share.forcing.val();
        self.resume.forced_move.next = self.share.replay_move.val();
        self.resume.fetch.next = self.share.fetch.val();
        self.resume.fetch_level.next = self.share.fetch_level.val();
        self.resume.clear.next = false;
        self.resume.push.next = false;
        self.resume.pop.next = false;
        self.resume.push_level.next = self.depth.q.val();
        self.resume.push_moves.next = self.children.rest.val();
        self.resume.push_square.next = self.current_index.q.val();
        self.resume.push_degrees.next = self.children.degrees.val();
        self.resume.push_doomed.next = self.children.doomed.val();
        self.resume.push_visited.next = self.visited.q.val();

        // A push writes the level's entry; a pop rewrites the resume level's.
        self.stack.push.next = false;
        self.stack.rewrite.next = false;
        self.stack.write_address.next = self.depth.q.val();
        self.stack.write_moves.next = self.children.rest.val();
        self.stack.write_square.next = self.current_index.q.val();
        self.stack.write_degrees.next = self.children.degrees.val();
        self.stack.write_doomed.next = self.children.doomed.val();
        self.stack.write_visited.next = self.visited.q.val();
        self.stack.write_below.next = self.resume.level.val();
        self.stack.write_below_valid.next = self.resume.valid.val();

        self.board_setup.start.next = false;
        self.board_setup.step.next = false;
        self.board_setup.width.next = self.request.width.val();
        self.board_setup.height.next = self.request.height.val();
        self.prefix_ready.next = false;
        // A tour found goes out square by square.
        self.tour.found.next = false;
        self.tour.active.next = self.state.q.val() == EngineState::Emit;
        self.tour.depth.next = self.depth.q.val();
        self.tour.current_index.next = self.current_index.q.val();
        self.tour.stack_square.next = self.stack.square.val();
        self.tour.cancel.next = self.port.cancel.val();
        self.tour.ready.next = self.port.item_ready.val();
        self.port.item.next = bit_cast::<8, LB>(self.tour.square.val());
        self.port.item_valid.next = self.tour.valid.val();
        self.port.item_last.next = self.tour.last.val();
        self.port.busy.next = false;
        self.port.streaming.next = self.state.q.val() == EngineState::Emit;
        self.port.result_items.next = self.board_setup.area.val();
        self.port.solution.next = self.tour_pulse.q.val();
        self.tour_pulse.d.next = false;
        self.children_judged.next = false;
        self.rejoin_job.next = false;
        self.fresh_job.next = false;
        self.pop_into_held.next = false;
        self.walk_over.next = false;
        self.to_start.next = false;
        self.descending.next = false;
        self.popping.next = false;
        self.entering.next = false;

        match self.state.q.val() {
            EngineState::Idle => {}
            EngineState::Setup => {
                self.port.busy.next = true;
                self.board_setup.step.next = true;
                if self.board_setup.last_rank.val() {
                    // Nothing is visited while the start square is judged,
                    // one level below level 0.
                    self.current.d.next = 0.into();
                    self.visited.d.next = 0.into();
                    self.depth.d.next = !bits::<LB>(0);
                    self.resume.clear.next = true;
                    self.reported.d.next = false;
                    self.closing_squares.d.next = self.start_moves.reach.val();
                    self.state.d.next = EngineState::Root;
                }
            }
            EngineState::Root => {
                // Enter the start square, judged like a child.
                self.port.busy.next = true;
                self.last_level.d.next = bit_cast::<LB, 16>(self.board_setup.area.val() - 1);
                // A board too small for the requested split level is
                // searched whole by the walker, and the others stop; else the
                // others wait for jobs.
                if !(self.start_one_hot.val() & self.board_setup.board.val()).any() | self.share.root_done.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.share.root_waits.val() {
                    self.state.d.next = EngineState::Next;
                } else {
                    self.entering.next = true;
                    self.entered_dead.d.next = self.children.probe_dead.val();
                    self.to_start.next = true;
                    self.state.d.next = EngineState::Run;
                    if self.standalone.val() & self.prefix_left.q.val().any() {
                        self.state.d.next = EngineState::Load;
                    }
                }
            }
            EngineState::Load => {
                // Enter the prefix squares one per clock. Their levels get no
                // untried moves, so the search never backtracks into them.
                self.port.busy.next = true;
                self.prefix_ready.next = true;
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.standalone.val() & self.prefix_valid.val() {
                    self.entering.next = true;
                    self.entered_dead.d.next = self.children.probe_dead.val();
                    self.stack.rewrite.next = true;
                    self.stack.write_moves.next = 0.into();
                    self.stack.write_degrees.next = 0.into();
                    self.visited.d.next = self.visited.q.val() | self.prefix_one_hot.val();
                    self.current.d.next = self.prefix_one_hot.val();
                    self.current_index.d.next = self.prefix_square.val();
                    self.depth.d.next = self.depth.q.val() + 1;
                    self.prefix_left.d.next = self.prefix_left.q.val() - 1;
                    if self.prefix_left.q.val() == 1 {
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Run => {
                self.port.busy.next = true;
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.at_tour.val() & !self.reported.q.val() & !self.count_mode.q.val() {
                    self.tour_count.d.next = self.tour_count.q.val() + 1;
                    self.reported.d.next = true;
                    self.tour.found.next = true;
                    self.state.d.next = EngineState::Emit;
                } else {
                    if self.at_tour.val() & self.count_mode.q.val() {
                        self.tour_count.d.next = self.tour_count.q.val() + 1;
                        self.tour_pulse.d.next = true;
                    }
                    self.reported.d.next = false;
                    self.children_judged.next = true;
                    if self.expand.val() {
                        // Descend: push this level, enter its first free move.
                        self.descending.next = true;
                    } else if self.resume.valid.val() {
                        // Dead end: pop to the resume level, enter its next move.
                        self.popping.next = true;
                    } else if self.share.rejoin_pending.val() {
                        // The job is over and the next one's rejoin level is
                        // the resume level: pop into it, then replay the rest.
                        self.popping.next = true;
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
                self.port.busy.next = true;
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.share.job_held.val() {
                    // (A job granted in this clock starts in the next.)
                    if self.share.rejoin_ok.val() {
                        self.rejoin_job.next = true;
                    } else {
                        self.fresh_job.next = true;
                    }
                } else if !self.port.job_grant.val() & self.port.jobs_over.val() {
                    self.state.d.next = EngineState::Done;
                }
            }
            EngineState::Replay => {
                // Enter the job's path, a move per clock, as a descent with
                // the move forced (`first`); its levels keep no untried moves,
                // so the search never backtracks into them.
                self.port.busy.next = true;
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else {
                    self.descending.next = true;
                    if self.share.push_reaches_job.val() {
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Rejoin => {
                // Pop to the deepest level the old and new jobs' paths share
                // (its square read from the stack) and enter the new path's
                // move there, as a backtrack does; replay the rest.
                self.port.busy.next = true;
                if self.port.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else {
                    self.popping.next = true;
                    self.state.d.next = EngineState::Replay;
                    if self.share.pop_reaches_job.val() {
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Emit => {
                // Stream the tour's squares from the stack, level by level.
                self.port.busy.next = true;
                self.stack.square_read_address.next = self.tour.read_level.val();
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

        // A descent (a search step, or a replayed move: `first` and `rest`
        // are forced then) and a pop (a backtrack, or a rejoin: the resume
        // level's move is forced then), each with one set of inputs on the
        // registers.
        if self.descending.val() {
            self.entering.next = true;
            self.entered_dead.d.next = (self.children.first.val() & self.children.doomed.val()).any();
            self.stack.push.next = true;
            if self.children.rest.val().any() {
                self.resume.push.next = true;
            }
            self.visited.d.next = self.visited.q.val() | self.children.child.val();
            self.current.d.next = self.children.child.val();
            self.current_index.d.next = self.children.child_index.val();
            self.depth.d.next = self.depth.q.val() + 1;
        }
        if self.popping.val() {
            self.entering.next = true;
            self.entered_dead.d.next = (self.resume.taken.val() & self.resume.doomed.val()).any();
            self.resume.pop.next = true;
            self.stack.rewrite.next = true;
            self.stack.write_address.next = self.resume.level.val();
            self.stack.write_moves.next = self.resume.left.val();
            self.stack.write_square.next = self.resume.square.val();
            self.stack.write_degrees.next = self.resume.degrees.val();
            self.visited.d.next = self.resume.visited.val() | self.resume.child.val();
            self.current.d.next = self.resume.child.val();
            self.current_index.d.next = self.resume.child_index.val();
            self.depth.d.next = self.resume.level.val() + 1;
        }

        // Start a job held: from the deepest level its path shares with the
        // last job's (the first moves of two jobs handed out near each other
        // mostly agree; that level's entry is read from the stack now), else
        // from the start square; then replay the rest of the path.
        if self.rejoin_job.val() | self.fresh_job.val() {
            self.reported.d.next = false;
        }
        if self.rejoin_job.val() {
            self.state.d.next = EngineState::Rejoin;
        }
        if self.fresh_job.val() {
            self.to_start.next = true;
            self.state.d.next = EngineState::Replay;
        }
        // At the start square, nothing else visited (one set of inputs on
        // these registers for the search's start and a job's).
        if self.to_start.val() {
            self.current.d.next = self.start_one_hot.val();
            self.current_index.d.next = self.start_index.q.val();
            self.visited.d.next = self.start_one_hot.val();
            self.depth.d.next = 0.into();
        }

        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == EngineState::Idle) | (self.state.q.val() == EngineState::Done));
        if self.starting.val() {
            self.board_setup.start.next = true;
            self.start_index.d.next = self.request.start_square.val();
            self.want_closed.d.next = self.request.closed.val();
            self.use_warnsdorff.d.next = self.request.warnsdorff.val();
            self.use_prune.d.next = self.request.prune.val();
            self.count_mode.d.next = self.request.count_all.val();
            self.prefix_left.d.next = self.prefix_length.val();
            self.tour_count.d.next = 0.into();
            self.state.d.next = EngineState::Setup;
        }

        // What the search did this clock, for the job share.
        self.share.search_start.next = self.starting.val();
        self.share.entering.next = self.entering.val();
        self.share.keeps_moves.next = self.descending.val() & self.children.rest.val().any();
        self.share.popping.next = self.popping.val();
        self.share.pop_into_held.next = self.pop_into_held.val();
        self.share.walk_over.next = self.walk_over.val();
        self.share.job_starts.next = self.rejoin_job.val() | self.fresh_job.val();
        self.share.judging.next = self.children_judged.val() & self.count_mode.q.val() & !self.entered_dead.q.val();
    }
}
