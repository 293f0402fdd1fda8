//! An engine's share of a split search: the job level, the walker's walk
//! above it, the job held next, rejoining, and which engine counts a node.
//!
//! With a split level, the nodes at that level are jobs. The walker (engine
//! 0) walks the levels above, numbering each job it enters and handing it to
//! the queue, or searching it itself when the queue is full. Every engine
//! asks for a job once its current one is on its last branch; a granted job
//! is held until the current one ends, and then entered from the deepest
//! level its path shares with the last job's: its *rejoin* level, cached as
//! the resume level as soon as the current job has none left, so that the
//! step that ends the job pops into the next one as a backtrack does. The
//! rest of the path is replayed a move per clock. Each node is counted by
//! one engine: above the job level the walker, at it whoever searches the
//! job, below it the only one there.
//!
//! The engine's state machine tells this block what it does each clock
//! (inputs named after its states and steps) and follows its answers.

use rust_hdl::prelude::*;

use super::job_path::JobPath;
use super::EngineState;
use crate::platform::{JobPort, JOB_PATH_BITS};

#[derive(LogicBlock)]
pub struct JobShare<const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// A search starts, split at `split_level` (0: not split).
    pub search_start: Signal<In, bool>,
    pub split_level: Signal<In, Bits<LB>>,
    /// The engine's state (the root, searching in Run, waiting for a job in
    /// Next, replaying a path, rejoining), on a board whose last level is
    /// `last_level`.
    pub state: Signal<In, EngineState>,
    pub last_level: Signal<In, Bits<LB>>,
    /// Where the search is: the current level, and the resume level.
    pub depth: Signal<In, Bits<LB>>,
    pub resume_valid: Signal<In, bool>,
    pub resume_level: Signal<In, Bits<LB>>,
    /// The step this clock: a square is entered, by a descent into the
    /// first move (leaving others untried at its level: `keeps_moves`) or by
    /// a pop to the resume level taking its move `taken`.
    pub entering: Signal<In, bool>,
    pub first_move: Signal<In, Bits<8>>,
    pub keeps_moves: Signal<In, bool>,
    pub popping: Signal<In, bool>,
    pub taken: Signal<In, Bits<8>>,
    /// The job ended: the held job is popped into (`pop_into_held`), or no
    /// job is held and the walk, if any, is over (`walk_over`).
    pub pop_into_held: Signal<In, bool>,
    pub walk_over: Signal<In, bool>,
    /// The held job starts (from Next).
    pub job_starts: Signal<In, bool>,
    /// Dead children of the current node are judged unentered (count mode)
    /// this clock, `dead` of them.
    pub judging: Signal<In, bool>,
    pub dead: Signal<In, Bits<4>>,
    /// The queue's side of the engine's port.
    pub jobs: JobPort,
    /// Nodes counted in the clock before.
    pub nodes: Signal<Out, Bits<16>>,

    /// The search is split, and this engine holds a job to go on with
    /// (entered by a rejoin when `rejoin_ok`, else from the start square).
    pub splitting: Signal<Out, bool>,
    pub job_held: Signal<Out, bool>,
    pub rejoin_ok: Signal<Out, bool>,
    /// The held job's rejoin level is the resume level now.
    pub rejoin_pending: Signal<Out, bool>,
    /// At the root: nothing to search here (a board too small to split at
    /// the level asked, on an engine that is not the walker), or wait for
    /// jobs.
    pub root_done: Signal<Out, bool>,
    pub root_waits: Signal<Out, bool>,
    /// No job is held, granted or coming: a waiting engine is done.
    pub jobs_over: Signal<Out, bool>,
    /// The current node is a job handed to the queue: skipped as a dead end.
    pub skip_job: Signal<Out, bool>,
    /// Read the rejoin level's stack entry into the resume level, at
    /// `fetch_level`; force `replay_move` there (`forcing`), or in a replay.
    pub fetch: Signal<Out, bool>,
    pub fetch_level: Signal<Out, Bits<LB>>,
    pub forcing: Signal<Out, bool>,
    pub replay_move: Signal<Out, Bits<8>>,
    /// A descent, or a pop, this clock enters the job level.
    pub push_reaches_job: Signal<Out, bool>,
    pub pop_reaches_job: Signal<Out, bool>,

    walker: Constant<bool>,
    paths: JobPath<LB>,
    split_depth: DFF<Bits<LB>>,
    split_on: DFF<bool>,
    walking_top: DFF<bool>,
    jobs_found: DFF<Bits<32>>,
    found_pulse: DFF<bool>,
    job_entered: DFF<bool>,
    queue_room: DFF<bool>,
    // The walker's path of moves, or a worker's job's path (the next job's
    // from its grant on: it is read only to replay a job).
    path: DFF<Bits<JOB_PATH_BITS>>,
    held: DFF<bool>,
    held_number: DFF<Bits<32>>,
    rejoin_at: DFF<Bits<LB>>,
    // The engine's stack holds its job's path (then the next job starts
    // from the rejoin level).
    rejoin_allowed: DFF<bool>,
    owns_job: DFF<bool>,
    current_job: DFF<Bits<32>>,
    pending: DFF<bool>,
    // The clock after popping into the held job.
    rejoin_started: DFF<bool>,
    node_pulse: DFF<Bits<4>>,

    // Where a step's entered level lies against the split level (0 above,
    // 1 at, 2 below), for both possible steps before the engine picks one:
    // a compare after that choice was the longest path.
    push_vs_split: Signal<Local, Bits<2>>,
    back_vs_split: Signal<Local, Bits<2>>,
    entered_vs_split: Signal<Local, Bits<2>>,
    entering_job: Signal<Local, bool>,
    counted: Signal<Local, bool>,
    judged: Signal<Local, Bits<4>>,
    node_step: Signal<Local, Bits<4>>,
}

impl<const LB: usize> JobShare<LB> {
    /// The walker walks the levels above the jobs; the others only take
    /// jobs (the walking logic synthesises away).
    pub fn new(walker: bool) -> Self {
        JobShare {
            clock: Default::default(),
            search_start: Default::default(),
            split_level: Default::default(),
            state: Default::default(),
            last_level: Default::default(),
            depth: Default::default(),
            resume_valid: Default::default(),
            resume_level: Default::default(),
            entering: Default::default(),
            first_move: Default::default(),
            keeps_moves: Default::default(),
            popping: Default::default(),
            taken: Default::default(),
            pop_into_held: Default::default(),
            walk_over: Default::default(),
            job_starts: Default::default(),
            judging: Default::default(),
            dead: Default::default(),
            jobs: Default::default(),
            nodes: Default::default(),
            splitting: Default::default(),
            job_held: Default::default(),
            rejoin_ok: Default::default(),
            rejoin_pending: Default::default(),
            root_done: Default::default(),
            root_waits: Default::default(),
            jobs_over: Default::default(),
            skip_job: Default::default(),
            fetch: Default::default(),
            fetch_level: Default::default(),
            forcing: Default::default(),
            replay_move: Default::default(),
            push_reaches_job: Default::default(),
            pop_reaches_job: Default::default(),
            walker: Constant::new(walker),
            paths: Default::default(),
            split_depth: Default::default(),
            split_on: Default::default(),
            walking_top: Default::default(),
            jobs_found: Default::default(),
            found_pulse: Default::default(),
            job_entered: Default::default(),
            queue_room: Default::default(),
            path: Default::default(),
            held: Default::default(),
            held_number: Default::default(),
            rejoin_at: Default::default(),
            rejoin_allowed: Default::default(),
            owns_job: Default::default(),
            current_job: Default::default(),
            pending: Default::default(),
            rejoin_started: Default::default(),
            node_pulse: Default::default(),
            push_vs_split: Default::default(),
            back_vs_split: Default::default(),
            entered_vs_split: Default::default(),
            entering_job: Default::default(),
            counted: Default::default(),
            judged: Default::default(),
            node_step: Default::default(),
        }
    }
}

impl<const LB: usize> Logic for JobShare<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            split_depth,
            split_on,
            walking_top,
            jobs_found,
            found_pulse,
            job_entered,
            queue_room,
            path,
            held,
            held_number,
            rejoin_at,
            rejoin_allowed,
            owns_job,
            current_job,
            pending,
            rejoin_started,
            node_pulse
        );
        self.splitting.next = self.split_on.q.val();
        self.job_held.next = self.held.q.val();
        self.rejoin_ok.next = self.rejoin_allowed.q.val();
        self.rejoin_pending.next = self.pending.q.val();
        self.jobs.walking.next = self.walking_top.q.val();
        self.jobs.job.next = self.current_job.q.val();
        self.jobs.found.next = self.found_pulse.q.val();
        self.jobs.found_path.next = self.path.q.val();
        self.jobs.found_number.next = self.jobs_found.q.val();
        self.nodes.next = bit_cast::<16, 4>(self.node_pulse.q.val());
        self.found_pulse.d.next = false;
        self.job_entered.d.next = false;
        self.rejoin_started.d.next = false;
        self.queue_room.d.next = self.jobs.space.val();
        self.root_waits.next = self.split_depth.q.val().any() & !self.walking_top.q.val();
        self.jobs_over.next = !self.jobs.grant.val() & self.jobs.over.val();
        self.root_done.next = self.root_waits.val() & (self.split_depth.q.val() >= self.last_level.val());

        // Replaying a job's path: the move it takes at this level (while
        // rejoining, at the level popped to).
        self.forcing.next = (self.state.val() == EngineState::Rejoin) | self.pending.q.val();
        self.paths.path.next = self.path.q.val();
        self.paths.replay_level.next = self.depth.val();
        if self.forcing.val() {
            self.paths.replay_level.next = self.resume_level.val();
        }
        self.replay_move.next = self.paths.replay_move.val();
        self.fetch_level.next = self.rejoin_at.q.val();

        // A job handed to the queue is skipped like a dead end.
        self.skip_job.next =
            self.split_on.q.val() & (self.depth.val() == self.split_depth.q.val()) & !self.owns_job.q.val();
        // Ask for the next job once no level keeps an untried move (the job
        // is on its last branch), or while waiting for one. The current node
        // may still branch anew, so a job can arrive a little before this one
        // ends; it is held until then.
        self.jobs.request.next = self.split_on.q.val()
            & !self.held.q.val()
            & !self.walking_top.q.val()
            & ((self.state.val() == EngineState::Next)
                | ((self.state.val() == EngineState::Run)
                    & !self.resume_valid.val()
                    & (self.depth.val() != self.split_depth.q.val())));
        self.paths.offered.next = self.jobs.path.val();
        if self.jobs.grant.val() {
            self.path.d.next = self.jobs.path.val();
            self.held_number.d.next = self.jobs.number.val();
            self.held.d.next = true;
            self.rejoin_at.d.next = self.paths.rejoin_level.val();
            // The job in hand never returns to the job level (its last
            // branch lies below it), so the next job's node there is this
            // engine's.
            self.owns_job.d.next = true;
        }

        self.push_vs_split.next = 0.into();
        if (self.depth.val() + 1) == self.split_depth.q.val() {
            self.push_vs_split.next = 1.into();
        } else if (self.depth.val() + 1) > self.split_depth.q.val() {
            self.push_vs_split.next = 2.into();
        }
        self.back_vs_split.next = 0.into();
        if (self.resume_level.val() + 1) == self.split_depth.q.val() {
            self.back_vs_split.next = 1.into();
        } else if (self.resume_level.val() + 1) > self.split_depth.q.val() {
            self.back_vs_split.next = 2.into();
        }
        self.push_reaches_job.next = self.push_vs_split.val() == 1;
        self.pop_reaches_job.next = self.back_vs_split.val() == 1;
        self.entered_vs_split.next = self.push_vs_split.val();
        self.paths.entered_move.next = self.first_move.val();
        if self.popping.val() {
            self.entered_vs_split.next = self.back_vs_split.val();
            self.paths.entered_move.next = self.taken.val();
        }

        // Arm the held job's rejoin while this job has no resume level: its
        // level's stack entry is read now and cached as the resume level from
        // the next clock on, with the new path's move as the one untried move
        // (a descent that leaves untried moves takes the resume level back).
        // A job that ends before this is armed starts from Next instead.
        self.fetch.next = false;
        if (self.state.val() == EngineState::Run)
            & self.held.q.val()
            & self.rejoin_allowed.q.val()
            & !self.resume_valid.val()
            & !self.pending.q.val()
            & !self.rejoin_started.q.val()
        {
            self.fetch.next = true;
            self.pending.d.next = true;
        }
        // The clock after popping into the held job: it is the current one.
        if self.rejoin_started.q.val() {
            self.held.d.next = false;
            self.current_job.d.next = self.held_number.q.val();
        }
        if self.state.val() == EngineState::Root {
            // Split only above the last level (a job must not be a whole
            // tour).
            self.split_on.d.next = self.split_depth.q.val().any() & (self.split_depth.q.val() < self.last_level.val());
        }
        if self.pop_into_held.val() {
            self.rejoin_started.d.next = true;
        }
        if self.walk_over.val() {
            self.walking_top.d.next = false;
        }
        if (self.state.val() == EngineState::Replay) & self.entering.val() & self.push_reaches_job.val() {
            self.current_job.d.next = self.held_number.q.val();
            self.rejoin_allowed.d.next = true;
        }
        if (self.state.val() == EngineState::Rejoin) & self.popping.val() & self.pop_reaches_job.val() {
            self.current_job.d.next = self.held_number.q.val();
        }
        if self.keeps_moves.val() | self.popping.val() {
            self.pending.d.next = false;
        }
        if self.job_starts.val() {
            self.held.d.next = false;
            self.owns_job.d.next = true;
        }
        // A rejoin pops to the rejoin level (its entry read from the stack
        // now).
        if self.job_starts.val() & self.rejoin_allowed.q.val() {
            self.fetch.next = true;
        }
        if self.search_start.val() {
            self.split_depth.d.next = self.split_level.val();
            self.walking_top.d.next = self.walker.val() & self.split_level.val().any();
            self.split_on.d.next = false;
            self.jobs_found.d.next = 0.into();
            self.held.d.next = false;
            self.rejoin_allowed.d.next = false;
            self.pending.d.next = false;
            self.owns_job.d.next = false;
            self.current_job.d.next = 0.into();
        }

        // Count the square entered this clock (when splitting, in one engine
        // only: above the job level, the walker; at it, whoever searches the
        // job; below, the only one).
        self.entering_job.next = self.split_on.q.val() & (self.entered_vs_split.val() == 1);
        self.counted.next = !self.split_on.q.val()
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
        if self.state.val() == EngineState::Root {
            self.counted.next = !self.split_depth.q.val().any() | self.walking_top.q.val();
        }
        // The walker keeps the move that entered each level above the jobs,
        // in the slot of the level stepped from.
        self.paths.descent_level.next = self.depth.val();
        self.paths.pop_level.next = self.resume_level.val();
        self.paths.popping.next = self.popping.val();
        if self.entering.val() & self.walking_top.q.val() {
            self.path.d.next = self.paths.entered_path.val();
        }
        // Dead children judged without being entered (count mode), counted by
        // the engine that counts their level (as `counted` above).
        self.judged.next = 0.into();
        if self.judging.val()
            & !self.skip_job.val()
            & (!self.split_on.q.val() | (self.depth.val() >= self.split_depth.q.val()) | self.walking_top.q.val())
        {
            self.judged.next = self.dead.val();
        }
        self.node_step.next = self.judged.val();
        if self.entering.val() & self.counted.val() {
            self.node_step.next = self.judged.val() + 1;
        }
        self.node_pulse.d.next = self.node_step.val();
    }
}
