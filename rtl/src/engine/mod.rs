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
//! The datapath is in blocks, one a file: [`board_setup`] (the run-time
//! board), [`children`] (the current node's children: [`knight_moves`],
//! [`onward`] counts of every square, the [`dead_end`] judge and
//! [`move_select`]), [`stack`], [`resume`] (the resume level, which takes a
//! backtrack's move) and [`job_path`] (jobs as paths). This file is the state
//! machine that drives them.

pub mod arguments;
pub mod board_setup;
pub mod children;
pub mod dead_end;
pub mod job_path;
pub mod knight_moves;
pub mod move_select;
pub mod onward;
pub mod resume;
pub mod stack;

use rust_hdl::prelude::*;

use crate::geometry::Geometry;
pub use crate::platform::EnginePort;
use arguments::KnightArguments;
use board_setup::BoardSetup;
use children::Children;
use job_path::JobPath;
pub use job_path::JOB_PATH_BITS;
use knight_moves::KnightMoves;
use resume::ResumeLevel;
use stack::Stack;

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
    walker: Constant<bool>,

    request: KnightArguments<LB>,
    board_setup: BoardSetup<SQ>,
    start_moves: KnightMoves<SQ, LB>,
    children: Children<SQ, LB>,
    stack: Stack<SQ, LB>,
    resume: ResumeLevel<SQ, LB>,
    paths: JobPath<LB>,

    // The request, latched at start.
    state: DFF<EngineState>,
    start_index: DFF<Bits<LB>>,
    want_closed: DFF<bool>,
    use_warnsdorff: DFF<bool>,
    use_prune: DFF<bool>,
    count_mode: DFF<bool>,
    prefix_left: DFF<Bits<LB>>,
    // Work splitting: the job level; whether this engine walks the levels
    // above it; the job it searches and the one it holds next.
    split_depth: DFF<Bits<LB>>,
    splitting: DFF<bool>,
    walking_top: DFF<bool>,
    jobs_found: DFF<Bits<32>>,
    found_pulse: DFF<bool>,
    job_entered: DFF<bool>,
    queue_room: DFF<bool>,
    // The walker's path of moves, or a worker's job's path (the next job's
    // from its grant on: it is read only to replay a job); whether the next
    // job is held, its number, and the level where its path departs from the
    // last one's (found as it is granted); whether this engine's stack holds
    // its job's path (then the next job starts from that level).
    path: DFF<Bits<JOB_PATH_BITS>>,
    job_held: DFF<bool>,
    held_number: DFF<Bits<32>>,
    rejoin_at: DFF<Bits<LB>>,
    rejoin_ok: DFF<bool>,
    owns_job: DFF<bool>,
    current_job: DFF<Bits<32>>,
    // The held job's rejoin level is cached as the resume level (the job
    // being searched has none left), so the step that ends this job pops
    // into the next one as a backtrack does; and the clock after that pop.
    rejoin_pending: DFF<bool>,
    rejoin_started: DFF<bool>,
    node_pulse: DFF<Bits<4>>,
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
    emit_level: DFF<Bits<LB>>,
    emit_wait: DFF<bool>,
    tour_count: DFF<Bits<48>>,

    // Combinational values.
    tour_square: Signal<Local, Bits<LB>>,
    start_one_hot: Signal<Local, Bits<SQ>>,
    prefix_one_hot: Signal<Local, Bits<SQ>>,
    at_tour: Signal<Local, bool>,
    expand: Signal<Local, bool>,
    entering: Signal<Local, bool>,
    entered_vs_split: Signal<Local, Bits<2>>,
    push_vs_split: Signal<Local, Bits<2>>,
    back_vs_split: Signal<Local, Bits<2>>,
    skip_job: Signal<Local, bool>,
    entering_job: Signal<Local, bool>,
    rejoin_job: Signal<Local, bool>,
    fresh_job: Signal<Local, bool>,
    to_start: Signal<Local, bool>,
    descending: Signal<Local, bool>,
    popping: Signal<Local, bool>,
    counted: Signal<Local, bool>,
    children_judged: Signal<Local, bool>,
    judged: Signal<Local, Bits<4>>,
    node_step: Signal<Local, Bits<4>>,
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
            walker: Constant::new(role == JobRole::Walker),
            request: KnightArguments::new(geometry, warnsdorff),
            board_setup: BoardSetup::new(geometry),
            start_moves: KnightMoves::new(geometry),
            children: Children::new(geometry, warnsdorff),
            stack: Default::default(),
            resume: ResumeLevel::new(geometry, warnsdorff),
            paths: Default::default(),
            state: Default::default(),
            start_index: Default::default(),
            want_closed: Default::default(),
            use_warnsdorff: Default::default(),
            use_prune: Default::default(),
            count_mode: Default::default(),
            prefix_left: Default::default(),
            split_depth: Default::default(),
            splitting: Default::default(),
            walking_top: Default::default(),
            jobs_found: Default::default(),
            found_pulse: Default::default(),
            job_entered: Default::default(),
            queue_room: Default::default(),
            path: Default::default(),
            job_held: Default::default(),
            held_number: Default::default(),
            rejoin_at: Default::default(),
            rejoin_ok: Default::default(),
            owns_job: Default::default(),
            current_job: Default::default(),
            rejoin_pending: Default::default(),
            rejoin_started: Default::default(),
            node_pulse: Default::default(),
            tour_pulse: Default::default(),
            last_level: Default::default(),
            closing_squares: Default::default(),
            current: Default::default(),
            current_index: Default::default(),
            entered_dead: Default::default(),
            depth: Default::default(),
            visited: Default::default(),
            reported: Default::default(),
            emit_level: Default::default(),
            emit_wait: Default::default(),
            tour_count: Default::default(),
            tour_square: Default::default(),
            start_one_hot: Default::default(),
            prefix_one_hot: Default::default(),
            at_tour: Default::default(),
            expand: Default::default(),
            entering: Default::default(),
            entered_vs_split: Default::default(),
            push_vs_split: Default::default(),
            back_vs_split: Default::default(),
            skip_job: Default::default(),
            entering_job: Default::default(),
            rejoin_job: Default::default(),
            fresh_job: Default::default(),
            to_start: Default::default(),
            descending: Default::default(),
            popping: Default::default(),
            counted: Default::default(),
            children_judged: Default::default(),
            judged: Default::default(),
            node_step: Default::default(),
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
            split_depth,
            splitting,
            walking_top,
            jobs_found,
            found_pulse,
            job_entered,
            queue_room,
            path,
            job_held,
            held_number,
            rejoin_at,
            rejoin_ok,
            owns_job,
            current_job,
            rejoin_pending,
            rejoin_started,
            node_pulse,
            tour_pulse,
            last_level,
            closing_squares,
            current,
            current_index,
            entered_dead,
            depth,
            visited,
            reported,
            emit_level,
            emit_wait,
            tour_count
        );
        clock!(self, clock, board_setup, stack, resume);
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
        // start square or a prefix square, judged as it is entered).
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
        self.children.replay_move.next = self.paths.replay_move.val();
        self.children.skip_dead.next = self.count_mode.q.val();

        // Replaying a job's path: the move it takes at this level (in Rejoin,
        // at the level popped to), the only one offered, so none is left to
        // try.
        self.paths.path.next = self.path.q.val();
        self.paths.replay_level.next = self.depth.q.val();
        if (self.state.q.val() == EngineState::Rejoin) | self.rejoin_pending.q.val() {
            self.paths.replay_level.next = self.resume.level.val();
        }
        self.at_tour.next = (self.depth.q.val() == self.last_level.q.val())
            & (!self.want_closed.q.val() | (self.current.q.val() & self.closing_squares.q.val()).any());

        // A job handed to the queue is skipped like a dead end.
        self.skip_job.next =
            self.splitting.q.val() & (self.depth.q.val() == self.split_depth.q.val()) & !self.owns_job.q.val();
        self.expand.next = self.children.has_move.val() & !self.entered_dead.q.val() & !self.skip_job.val();
        // Ask for the next job once no level keeps an untried move (the job
        // is on its last branch), or while waiting for one. The current node
        // may still branch anew, so a job can arrive a little before this one
        // ends; it is held until then.
        self.port.job_request.next = self.splitting.q.val()
            & !self.job_held.q.val()
            & !self.walking_top.q.val()
            & ((self.state.q.val() == EngineState::Next)
                | ((self.state.q.val() == EngineState::Run)
                    & !self.resume.valid.val()
                    & (self.depth.q.val() != self.split_depth.q.val())));
        if self.port.job_grant.val() {
            self.path.d.next = self.port.job_path.val();
            self.held_number.d.next = self.port.job_number.val();
            self.job_held.d.next = true;
            // The job in hand never returns to the job level (its last branch
            // lies below it), so the next job's node there is this engine's.
            self.owns_job.d.next = true;
        }

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
        self.resume.forcing.next = (self.state.q.val() == EngineState::Rejoin) | self.rejoin_pending.q.val();
        self.resume.forced_move.next = self.paths.replay_move.val();
        self.resume.clear.next = false;
        self.resume.push.next = false;
        self.resume.pop.next = false;
        self.resume.fetch.next = false;
        self.resume.fetch_level.next = self.rejoin_at.q.val();
        self.resume.push_level.next = self.depth.q.val();
        self.resume.push_moves.next = self.children.rest.val();
        self.resume.push_square.next = self.current_index.q.val();
        self.resume.push_degrees.next = self.children.degrees.val();
        self.resume.push_doomed.next = self.children.doomed.val();
        self.resume.push_visited.next = self.visited.q.val();
        self.rejoin_started.d.next = false;

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
        // Where the entered level lies against the split level (0 above, 1 at,
        // 2 below), compared for both possible steps before `expand` picks
        // one: a compare after that choice was the longest path.
        self.push_vs_split.next = 0.into();
        if (self.depth.q.val() + 1) == self.split_depth.q.val() {
            self.push_vs_split.next = 1.into();
        } else if (self.depth.q.val() + 1) > self.split_depth.q.val() {
            self.push_vs_split.next = 2.into();
        }
        self.back_vs_split.next = 0.into();
        if (self.resume.level.val() + 1) == self.split_depth.q.val() {
            self.back_vs_split.next = 1.into();
        } else if (self.resume.level.val() + 1) > self.split_depth.q.val() {
            self.back_vs_split.next = 2.into();
        }
        self.entered_vs_split.next = self.push_vs_split.val();

        self.board_setup.start.next = false;
        self.board_setup.step.next = false;
        self.board_setup.width.next = self.request.width.val();
        self.board_setup.height.next = self.request.height.val();
        self.prefix_ready.next = false;
        self.tour_square.next = self.stack.square.val();
        self.port.item_valid.next = false;
        self.port.item_last.next = false;
        self.port.busy.next = false;
        self.port.streaming.next = self.state.q.val() == EngineState::Emit;
        self.port.result_items.next = self.board_setup.area.val();
        self.port.job.next = self.current_job.q.val();
        self.port.nodes.next = bit_cast::<16, 4>(self.node_pulse.q.val());
        self.port.solution.next = self.tour_pulse.q.val();
        self.tour_pulse.d.next = false;
        self.children_judged.next = false;
        self.port.job_found.next = self.found_pulse.q.val();
        self.port.found_path.next = self.path.q.val();
        self.port.found_number.next = self.jobs_found.q.val();
        self.port.walking.next = self.walking_top.q.val();
        self.found_pulse.d.next = false;
        self.job_entered.d.next = false;
        self.queue_room.d.next = self.port.job_space.val();
        self.rejoin_job.next = false;
        self.fresh_job.next = false;
        self.to_start.next = false;
        self.descending.next = false;
        self.popping.next = false;
        self.entering.next = false;
        self.paths.entered_move.next = self.children.first.val();

        // Arm the held job's rejoin while this job has no resume level: its
        // level's stack entry is read now and cached as the resume level from
        // the next clock on, with the new path's move as the one untried move
        // (a descent that leaves untried moves takes the resume level back).
        // A job that ends before this is armed starts from Next instead.
        if (self.state.q.val() == EngineState::Run)
            & self.job_held.q.val()
            & self.rejoin_ok.q.val()
            & !self.resume.valid.val()
            & !self.rejoin_pending.q.val()
            & !self.rejoin_started.q.val()
        {
            self.resume.fetch.next = true;
            self.rejoin_pending.d.next = true;
        }
        // The clock after popping into the held job: it is the current one.
        if self.rejoin_started.q.val() {
            self.job_held.d.next = false;
            self.current_job.d.next = self.held_number.q.val();
        }

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
                // Split only above the last level (a job must not be a whole
                // tour); a board too small for the requested level is
                // searched whole by the walker, and the others stop. The
                // others wait for jobs.
                self.splitting.d.next = self.split_depth.q.val().any()
                    & (self.split_depth.q.val() < bit_cast::<LB, 16>(self.board_setup.area.val() - 1));
                if !(self.start_one_hot.val() & self.board_setup.board.val()).any()
                    | (self.split_depth.q.val().any()
                        & !self.walking_top.q.val()
                        & (self.split_depth.q.val() >= bit_cast::<LB, 16>(self.board_setup.area.val() - 1)))
                {
                    self.state.d.next = EngineState::Done;
                } else if self.split_depth.q.val().any() & !self.walking_top.q.val() {
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
                    self.emit_level.d.next = 0.into();
                    self.emit_wait.d.next = true;
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
                    } else if self.rejoin_pending.q.val() {
                        // The job is over and the next one's rejoin level is
                        // the resume level: pop into it, then replay the rest.
                        self.popping.next = true;
                        self.rejoin_started.d.next = true;
                        if self.back_vs_split.val() != 1 {
                            self.state.d.next = EngineState::Replay;
                        }
                    } else if self.splitting.q.val() {
                        // The job, or the walk, is over: on to the next job.
                        // (Started from Next, a clock later: deciding it here
                        // put the job's registers on the step's longest path.)
                        self.walking_top.d.next = false;
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
                } else if self.job_held.q.val() {
                    // (A job granted in this clock starts in the next.)
                    if self.rejoin_ok.q.val() {
                        self.rejoin_job.next = true;
                    } else {
                        self.fresh_job.next = true;
                    }
                } else if !self.job_held.q.val() & !self.port.job_grant.val() & self.port.jobs_over.val() {
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
                    if self.push_vs_split.val() == 1 {
                        self.current_job.d.next = self.held_number.q.val();
                        self.rejoin_ok.d.next = true;
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
                    if self.back_vs_split.val() == 1 {
                        self.current_job.d.next = self.held_number.q.val();
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Emit => {
                // Stream the tour's squares from the stack, level by level.
                self.port.busy.next = true;
                self.stack.square_read_address.next = self.emit_level.q.val();
                if self.emit_level.q.val() == self.depth.q.val() {
                    self.tour_square.next = self.current_index.q.val();
                }
                // A tour being streamed is never cut short: cancel takes
                // effect here only before its first square is taken, else
                // back in Run.
                self.port.item_valid.next = !self.emit_wait.q.val();
                self.port.item_last.next = self.emit_level.q.val() == self.depth.q.val();
                if self.port.cancel.val() & !self.emit_level.q.val().any() & !self.port.item_ready.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.emit_wait.q.val() {
                    self.emit_wait.d.next = false;
                } else if self.port.item_ready.val() {
                    if self.emit_level.q.val() == self.depth.q.val() {
                        if self.standalone.val()
                            & self.limit.val().any()
                            & (self.tour_count.q.val() == self.limit.val())
                        {
                            self.state.d.next = EngineState::Done;
                        } else {
                            self.state.d.next = EngineState::Run;
                        }
                    } else {
                        self.emit_level.d.next = self.emit_level.q.val() + 1;
                        self.emit_wait.d.next = true;
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
                self.rejoin_pending.d.next = false;
            }
            self.visited.d.next = self.visited.q.val() | self.children.child.val();
            self.current.d.next = self.children.child.val();
            self.current_index.d.next = self.children.child_index.val();
            self.depth.d.next = self.depth.q.val() + 1;
        }
        if self.popping.val() {
            self.rejoin_pending.d.next = false;
            self.entering.next = true;
            self.entered_vs_split.next = self.back_vs_split.val();
            self.paths.entered_move.next = self.resume.taken.val();
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

        // Start a job held or granted: from the deepest level its path
        // shares with the last job's (the first moves of two jobs handed out
        // near each other mostly agree), else from the start square; then
        // replay the rest of the path.
        self.paths.offered.next = self.port.job_path.val();
        if self.port.job_grant.val() {
            self.rejoin_at.d.next = self.paths.rejoin_level.val();
        }
        if self.rejoin_job.val() | self.fresh_job.val() {
            self.job_held.d.next = false;
            self.owns_job.d.next = true;
            self.reported.d.next = false;
        }
        // Rejoin pops to the rejoin level (its entry read from the stack now).
        if self.rejoin_job.val() {
            self.resume.fetch.next = true;
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

        if self.port.start.val()
            & ((self.state.q.val() == EngineState::Idle) | (self.state.q.val() == EngineState::Done))
        {
            self.board_setup.start.next = true;
            self.start_index.d.next = self.request.start_square.val();
            self.want_closed.d.next = self.request.closed.val();
            self.use_warnsdorff.d.next = self.request.warnsdorff.val();
            self.use_prune.d.next = self.request.prune.val();
            self.count_mode.d.next = self.request.count_all.val();
            self.prefix_left.d.next = self.prefix_length.val();
            self.split_depth.d.next = bit_cast::<LB, 8>(self.port.split_level.val());
            self.walking_top.d.next = self.walker.val() & self.port.split_level.val().any();
            self.splitting.d.next = false;
            self.jobs_found.d.next = 0.into();
            self.job_held.d.next = false;
            self.rejoin_ok.d.next = false;
            self.rejoin_pending.d.next = false;
            self.owns_job.d.next = false;
            self.current_job.d.next = 0.into();
            self.tour_count.d.next = 0.into();
            self.state.d.next = EngineState::Setup;
        }

        // Count the square entered this clock (when splitting, in one engine
        // only: above the job level, the walker; at it, whoever searches the
        // job; below, the only one).
        self.entering_job.next = self.splitting.q.val() & (self.entered_vs_split.val() == 1);
        self.counted.next = !self.splitting.q.val()
            | (self.entered_vs_split.val() == 2)
            | (self.entering_job.val() & (!self.walking_top.q.val() | !self.queue_room.q.val()))
            | ((self.entered_vs_split.val() == 0) & self.walking_top.q.val());
        // The walker numbers each job it enters, and hands it to the queue
        // or, when the queue is full, searches it itself.
        if self.entering.val() & self.entering_job.val() & self.walking_top.q.val() {
            self.owns_job.d.next = !self.queue_room.q.val();
            self.found_pulse.d.next = self.queue_room.q.val();
            self.job_entered.d.next = true;
        }
        // Numbered a clock later, off the step's longest path: until then
        // `jobs_found` is the entered job's number (what the queue takes).
        if self.job_entered.q.val() {
            self.jobs_found.d.next = self.jobs_found.q.val() + 1;
            self.current_job.d.next = self.jobs_found.q.val();
        }
        if self.state.q.val() == EngineState::Root {
            self.counted.next = !self.split_depth.q.val().any() | self.walking_top.q.val();
        }
        // The walker keeps the move that entered each level above the jobs,
        // in the slot of the level stepped from.
        self.paths.descent_level.next = self.depth.q.val();
        self.paths.pop_level.next = self.resume.level.val();
        self.paths.popping.next = self.popping.val();
        if self.entering.val() & self.walking_top.q.val() {
            self.path.d.next = self.paths.entered_path.val();
        }
        // Dead children judged without being entered (count mode), counted by
        // the engine that counts their level (as `counted` above).
        self.judged.next = 0.into();
        if self.children_judged.val()
            & self.count_mode.q.val()
            & !self.entered_dead.q.val()
            & !self.skip_job.val()
            & (!self.splitting.q.val() | (self.depth.q.val() >= self.split_depth.q.val()) | self.walking_top.q.val())
        {
            self.judged.next = self.children.doomed_count.val();
        }
        self.node_step.next = self.judged.val();
        if self.entering.val() & self.counted.val() {
            self.node_step.next = self.judged.val() + 1;
        }
        self.port.item.next = bit_cast::<8, LB>(self.tour_square.val());
        self.node_pulse.d.next = self.node_step.val();
    }
}
