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
//! A search may also be confined to a path (a prefix job from the host):
//! the walker replays it from the root, as a worker replays a job, and
//! searches (or walks) below its end. Its levels keep no untried moves, so
//! the search never returns above it; the queue's jobs carry it, as the
//! walker's path starts as the search's.
//!
//! The engine's state machine tells this block what it does each clock
//! (inputs named after its states and steps) and follows its answers.

use rust_hdl::prelude::*;

use super::EngineState;
use crate::platform::{JobPort, JOB_PATH_BITS};
use crate::tours::common::job_path::JobPath;

#[derive(LogicBlock)]
pub struct JobShare<const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// A search starts, split at `split_level` (0: not split).
    pub search_start: Signal<In, bool>,
    pub split_level: Signal<In, Bits<LB>>,
    /// The search's path, and its length (0: none), taken at `search_start`.
    pub search_path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub path_length: Signal<In, Bits<LB>>,
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
    /// No job is granted now and none can come (the engine checks for a
    /// held job first): a waiting engine is done.
    pub jobs_over: Signal<Out, bool>,
    /// The current node is a job handed to the queue: skipped as a dead end.
    pub skip_job: Signal<Out, bool>,
    /// Read the rejoin level's stack entry into the resume level, at
    /// `fetch_level`; force `replay_move` there (`forcing`), or in a replay.
    pub fetch: Signal<Out, bool>,
    pub fetch_level: Signal<Out, Bits<LB>>,
    pub forcing: Signal<Out, bool>,
    pub replay_move: Signal<Out, Bits<8>>,
    /// The root is followed by the search's path, replayed (the walker's).
    pub replays_path: Signal<Out, bool>,
    /// A descent this clock enters the path's last square.
    pub push_ends_path: Signal<Out, bool>,
    /// A descent, or a pop, this clock enters the job level.
    pub push_reaches_job: Signal<Out, bool>,
    pub pop_reaches_job: Signal<Out, bool>,

    walker: Constant<bool>,
    paths: JobPath<LB>,
    split_depth: DFF<Bits<LB>>,
    split_on: DFF<bool>,
    on_path: DFF<bool>,
    path_end: DFF<Bits<LB>>,
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
            search_path: Default::default(),
            path_length: Default::default(),
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
            replays_path: Default::default(),
            push_ends_path: Default::default(),
            push_reaches_job: Default::default(),
            pop_reaches_job: Default::default(),
            walker: Constant::new(walker),
            paths: Default::default(),
            split_depth: Default::default(),
            split_on: Default::default(),
            on_path: Default::default(),
            path_end: Default::default(),
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
            on_path,
            path_end,
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
        // The search's path: the walker replays it from the root (its path
        // register starts as it), and searches below its last square.
        self.replays_path.next = self.on_path.q.val();
        self.push_ends_path.next = self.on_path.q.val() & ((self.depth.val() + 1) == self.path_end.q.val());
        // (Every clock of a replay is a descent: the state says so early,
        // where `entering` comes late, off the step's choice.)
        if (self.state.val() == EngineState::Replay) & self.push_ends_path.val() {
            self.on_path.d.next = false;
        }
        if self.search_start.val() {
            self.on_path.d.next = self.walker.val() & self.path_length.val().any();
            self.path_end.d.next = self.path_length.val();
            if self.walker.val() {
                self.path.d.next = self.search_path.val();
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    type Share = JobShare<5>;

    /// A path of moves (level 0 first) as the queue carries it: bit `b` of
    /// the move from level `k` at bit `16 b + k` (the host's encoding).
    fn sliced(moves: &[u8]) -> u64 {
        knights_protocol::codec::MovePath::new(moves).expect("16 moves at most").sliced()
    }

    /// Runs `bench` against a job share (the walker's or a worker's) on a
    /// 6×5 board (last level 29), split at level 2.
    fn run(walker: bool, bench: fn(Sim<Share>) -> Result<(), SimError>) {
        let mut uut = Share::new(walker);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Share>| x.clock.next = !x.clock.val());
        sim.add_testbench(bench);
        sim.run(Box::new(uut), 10_000).unwrap();
    }

    // One clock of the engine: what it did this clock (the pulses) ends.
    macro_rules! clock {
        ($sim: ident, $x: ident) => {
            wait_clock_cycle!($sim, clock, $x);
            $x.search_start.next = false;
            $x.entering.next = false;
            $x.keeps_moves.next = false;
            $x.popping.next = false;
            $x.pop_into_held.next = false;
            $x.walk_over.next = false;
            $x.job_starts.next = false;
            $x.judging.next = false;
            $x.jobs.grant.next = false;
        };
    }

    // The inputs set so far settle (for outputs that follow them).
    macro_rules! settle {
        ($sim: ident, $x: ident) => {
            $x = $sim.wait(1, $x)?;
        };
    }

    /// The walker walks levels 0 and 1 and numbers each job it enters at
    /// level 2: the first two go to the queue (`found` a clock later, with
    /// the path walked and the numbers 0, 1) and are skipped as dead ends;
    /// with the queue full it searches the third itself (number 2). Each
    /// node is counted once: the walker counts the levels above the jobs
    /// and its own job, not the ones handed out. Its walk over, it asks for
    /// a job, holds the one granted, replays it from the start square (its
    /// stack holds no job's path yet) and takes the job's number when it
    /// reaches the job level, counting only that node.
    #[test]
    fn the_walker_numbers_and_hands_out_jobs_then_takes_one() {
        run(true, |mut sim| {
            let mut x = sim.init()?;
            x.jobs.space.next = true;
            x.last_level.next = 29.into();
            x.search_start.next = true;
            x.split_level.next = 2.into();
            clock!(sim, x);

            // The root: entered (from one level below level 0), counted.
            x.state.next = EngineState::Root;
            x.depth.next = 31.into();
            x.entering.next = true;
            settle!(sim, x);
            sim_assert!(sim, !x.root_waits.val() & !x.root_done.val(), x);
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 1, x);
            sim_assert!(sim, x.splitting.val() & x.jobs.walking.val(), x);

            // Level 1, by move 1: above the jobs, the walker's.
            x.state.next = EngineState::Run;
            x.depth.next = 0.into();
            x.entering.next = true;
            x.first_move.next = (1 << 1).into();
            x.keeps_moves.next = true;
            settle!(sim, x);
            sim_assert!(sim, !x.jobs.request.val() & !x.push_reaches_job.val(), x);
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 1, x);
            sim_assert!(sim, !x.jobs.found.val(), x);

            // Level 2, by move 3: job 0, to the queue, not counted here.
            x.depth.next = 1.into();
            x.resume_valid.next = true;
            x.resume_level.next = 1.into();
            x.entering.next = true;
            x.first_move.next = (1 << 3).into();
            x.keeps_moves.next = true;
            settle!(sim, x);
            sim_assert!(sim, x.push_reaches_job.val(), x);
            clock!(sim, x);
            sim_assert!(sim, x.jobs.found.val(), x);
            sim_assert_eq!(sim, x.jobs.found_number.val(), 0, x);
            sim_assert_eq!(sim, x.jobs.found_path.val(), sliced(&[1, 3]), x);
            sim_assert_eq!(sim, x.nodes.val(), 0, x);

            // Job 0 is skipped: back to level 1, its move 5 enters job 1.
            // The queue is full from the next clock on.
            x.depth.next = 2.into();
            settle!(sim, x);
            sim_assert!(sim, x.skip_job.val(), x);
            x.popping.next = true;
            x.entering.next = true;
            x.taken.next = (1 << 5).into();
            x.jobs.space.next = false;
            settle!(sim, x);
            sim_assert!(sim, x.pop_reaches_job.val(), x);
            clock!(sim, x);
            sim_assert!(sim, x.jobs.found.val(), x);
            sim_assert_eq!(sim, x.jobs.found_number.val(), 1, x);
            sim_assert_eq!(sim, x.jobs.found_path.val(), sliced(&[1, 5]), x);
            sim_assert_eq!(sim, x.nodes.val(), 0, x);

            // Job 1 is skipped too; move 6 enters job 2, kept and counted.
            settle!(sim, x);
            sim_assert!(sim, x.skip_job.val(), x);
            x.popping.next = true;
            x.entering.next = true;
            x.taken.next = (1 << 6).into();
            clock!(sim, x);
            sim_assert!(sim, !x.jobs.found.val(), x);
            sim_assert_eq!(sim, x.nodes.val(), 1, x);

            // In job 2 (not skipped): a descent below the jobs, counted.
            x.resume_valid.next = false;
            settle!(sim, x);
            sim_assert!(sim, !x.skip_job.val(), x);
            x.entering.next = true;
            x.first_move.next = 1.into();
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 1, x);
            sim_assert_eq!(sim, x.jobs.job.val(), 2, x);

            // The walk is over (no resume level): no request while walking.
            x.depth.next = 3.into();
            x.walk_over.next = true;
            settle!(sim, x);
            sim_assert!(sim, !x.jobs.request.val(), x);
            clock!(sim, x);
            sim_assert!(sim, !x.jobs.walking.val(), x);
            sim_assert_eq!(sim, x.nodes.val(), 0, x);

            // Waiting: it asks, and job 1 is granted (a job granted: not
            // over, whatever the queue's `over` says).
            x.state.next = EngineState::Next;
            settle!(sim, x);
            sim_assert!(sim, x.jobs.request.val(), x);
            x.jobs.grant.next = true;
            x.jobs.path.next = sliced(&[1, 5]).into();
            x.jobs.number.next = 1.into();
            x.jobs.over.next = true;
            settle!(sim, x);
            sim_assert!(sim, !x.jobs_over.val(), x);
            clock!(sim, x);
            x.jobs.over.next = false;
            settle!(sim, x);
            sim_assert!(sim, x.job_held.val() & !x.jobs.request.val() & !x.rejoin_ok.val(), x);

            // The held job starts: replayed from the start square.
            x.job_starts.next = true;
            settle!(sim, x);
            sim_assert!(sim, !x.fetch.val(), x);
            clock!(sim, x);
            sim_assert!(sim, !x.job_held.val(), x);
            x.state.next = EngineState::Replay;
            for (level, m) in [(0u64, 1u64), (1, 5)] {
                x.depth.next = level.into();
                settle!(sim, x);
                sim_assert_eq!(sim, x.replay_move.val(), 1 << m, x);
                sim_assert!(sim, !x.forcing.val(), x);
                x.entering.next = true;
                x.first_move.next = (1 << m).into();
                clock!(sim, x);
                // Level 1 was counted in the walk; the job's node is counted.
                sim_assert_eq!(sim, x.nodes.val(), level, x);
            }
            sim_assert_eq!(sim, x.jobs.job.val(), 1, x);
            sim_assert!(sim, x.rejoin_ok.val(), x);
            sim.done(x)
        });
    }

    /// A worker waits at the root for a job, holds the one granted, replays
    /// its path (counting from the job level on, dead children judged in
    /// count mode too) and takes its number there. On the job's last branch
    /// it asks again; the next job, sharing level 0's move, is armed as the
    /// resume level (its rejoin level, 1, fetched once, the new path's move
    /// forced there) and popped into, and then it is the current job. With
    /// no job left and none to come, `jobs_over`.
    #[test]
    fn a_worker_replays_a_job_and_rejoins_the_next() {
        run(false, |mut sim| {
            let mut x = sim.init()?;
            x.jobs.space.next = true;
            x.last_level.next = 29.into();
            x.search_start.next = true;
            x.split_level.next = 2.into();
            clock!(sim, x);

            // At the root: wait for jobs (only a board with no level below
            // the split level would leave nothing to do).
            x.state.next = EngineState::Root;
            x.depth.next = 31.into();
            settle!(sim, x);
            sim_assert!(sim, x.root_waits.val() & !x.root_done.val() & !x.jobs.walking.val(), x);
            x.last_level.next = 2.into();
            settle!(sim, x);
            sim_assert!(sim, x.root_done.val(), x);
            x.last_level.next = 29.into();
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 0, x);

            // Waiting: it asks until a job is granted, then holds it.
            x.state.next = EngineState::Next;
            settle!(sim, x);
            sim_assert!(sim, x.jobs.request.val() & !x.jobs_over.val(), x);
            clock!(sim, x);
            x.jobs.grant.next = true;
            x.jobs.path.next = sliced(&[1, 4]).into();
            x.jobs.number.next = 5.into();
            clock!(sim, x);
            settle!(sim, x);
            sim_assert!(sim, x.job_held.val() & !x.jobs.request.val(), x);

            // It starts from the start square (no job on its stack yet) and
            // replays moves 1 and 4; the job level's node is its own.
            x.job_starts.next = true;
            settle!(sim, x);
            sim_assert!(sim, !x.rejoin_ok.val() & !x.fetch.val(), x);
            clock!(sim, x);
            x.state.next = EngineState::Replay;
            for (level, m) in [(0u64, 1u64), (1, 4)] {
                x.depth.next = level.into();
                settle!(sim, x);
                sim_assert_eq!(sim, x.replay_move.val(), 1 << m, x);
                x.entering.next = true;
                x.first_move.next = (1 << m).into();
                clock!(sim, x);
                sim_assert_eq!(sim, x.nodes.val(), level, x);
            }
            sim_assert_eq!(sim, x.jobs.job.val(), 5, x);
            sim_assert!(sim, !x.job_held.val() & x.rejoin_ok.val(), x);

            // At the job's node: two dead children judged (count mode) and a
            // descent that keeps moves at level 2: three nodes. No request
            // at the job level.
            x.state.next = EngineState::Run;
            x.depth.next = 2.into();
            settle!(sim, x);
            sim_assert!(sim, !x.skip_job.val() & !x.jobs.request.val(), x);
            x.judging.next = true;
            x.dead.next = 2.into();
            x.entering.next = true;
            x.first_move.next = 1.into();
            x.keeps_moves.next = true;
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 3, x);

            // Level 2 keeps a move: no request yet. Its last move is taken.
            x.depth.next = 3.into();
            x.resume_valid.next = true;
            x.resume_level.next = 2.into();
            settle!(sim, x);
            sim_assert!(sim, !x.jobs.request.val(), x);
            x.popping.next = true;
            x.entering.next = true;
            x.taken.next = (1 << 2).into();
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 1, x);

            // The last branch: it asks, and job 9 (moves 1, 6) is granted,
            // held while this job goes on; it rejoins at level 1.
            x.resume_valid.next = false;
            settle!(sim, x);
            sim_assert!(sim, x.jobs.request.val(), x);
            x.jobs.grant.next = true;
            x.jobs.path.next = sliced(&[1, 6]).into();
            x.jobs.number.next = 9.into();
            clock!(sim, x);
            settle!(sim, x);
            sim_assert!(sim, x.job_held.val() & !x.jobs.request.val(), x);
            sim_assert_eq!(sim, x.fetch_level.val(), 1, x);
            sim_assert_eq!(sim, x.jobs.job.val(), 5, x);

            // No resume level: the rejoin level is fetched, once (a descent
            // with no moves kept goes on meanwhile).
            sim_assert!(sim, x.fetch.val() & !x.forcing.val(), x);
            x.depth.next = 4.into();
            x.entering.next = true;
            clock!(sim, x);
            sim_assert!(sim, x.rejoin_pending.val(), x);

            // The job's branch ends: it pops into level 1, taking the new
            // path's move there (forced), and enters job 9's node, counted.
            x.depth.next = 5.into();
            x.resume_level.next = 1.into();
            settle!(sim, x);
            sim_assert!(sim, x.forcing.val() & !x.fetch.val(), x);
            sim_assert_eq!(sim, x.replay_move.val(), 1 << 6, x);
            x.popping.next = true;
            x.entering.next = true;
            x.taken.next = (1 << 6).into();
            x.pop_into_held.next = true;
            settle!(sim, x);
            sim_assert!(sim, x.pop_reaches_job.val(), x);
            clock!(sim, x);
            sim_assert_eq!(sim, x.nodes.val(), 1, x);
            sim_assert!(sim, !x.rejoin_pending.val(), x);

            // The clock after, job 9 is the current one (not fetched again).
            x.depth.next = 2.into();
            settle!(sim, x);
            sim_assert!(sim, !x.fetch.val(), x);
            clock!(sim, x);
            sim_assert!(sim, !x.job_held.val(), x);
            sim_assert_eq!(sim, x.jobs.job.val(), 9, x);

            // Job 9 ends; waiting, with the queue empty and the walk over.
            x.walk_over.next = true;
            clock!(sim, x);
            x.state.next = EngineState::Next;
            x.jobs.over.next = true;
            settle!(sim, x);
            sim_assert!(sim, x.jobs.request.val() & x.jobs_over.val(), x);
            sim.done(x)
        });
    }
}
