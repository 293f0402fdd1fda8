//! The N-Queens solver: one queen placed per clock, backtracks included.
//!
//! Same search as the reference (`knights_model::queens`): a queen per rank
//! from rank 1 up, files a→z, a node a queen placed without conflict. The
//! data path is [`ranks`]: a two-stage pipeline that runs two searches, a
//! queen each every other clock (so the pipeline places one every clock),
//! the current rank in registers and the ranks below with files left in a
//! stack RAM, a backtrack over any number of ranks still one step.
//! [`arguments`] reads SOLVE's arguments. This file is one search's state
//! machine (an engine, to the platform: a pipeline serves two), and its
//! share of a split search:
//!
//! - The walker (engine 0) searches from rank 1; each queen it places on the
//!   job rank (the split level's: jobs are placements of the first
//!   `split_level` queens) is a job, numbered in search order. With room in
//!   the queue it hands the job over as its files (five bits a rank) and
//!   goes on as if the queen were a dead end; otherwise it searches the job
//!   itself. Its walk over, it takes jobs like the others.
//! - A worker takes a job from the queue and replays its queens a turn
//!   each (their ranks keep no untried files, so the search never returns
//!   to them), then searches below.
//! - Each node is counted once: above the job rank by the walker, a job's
//!   own queen and everything below by whoever searches the job.
//!
//! The machine moves in its turns (the clocks its search is in the
//! pipeline's first stage), where the data path takes its orders; the
//! platform's signals (a job granted, a cancel, an item taken) are taken in
//! any clock. A solution in
//! first-K mode pauses the search and streams its files, a byte a rank from
//! rank 1, with the valid/ready handshake.

pub mod arguments;
pub mod bank;
pub mod constellations;
mod engine_parts;
pub mod job_layout;
pub mod ranks;

use rust_hdl::prelude::*;

use crate::platform::{EnginePort, JobRole, JOB_PATH_BITS};
use engine_parts::{JobFeed, SolutionStream, TurnCounts, WalkerPath};
use job_layout::{ConstellationJob, CONSTELLATION_JOB_BITS};
pub use job_layout::{FILE_BITS, MAX_JOB_RANKS};
use ranks::RankPort;

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum QueensState {
    Idle,
    Root,
    Run,
    Emit,
    Next,
    Take,
    Replay,
    Done,
}

/// One search's state machine: an engine on the platform's port, driving
/// its search in a [`ranks::RankPipeline`].
#[derive(LogicBlock)]
pub struct QueensEngine {
    pub clock: Signal<In, Clock>,
    /// The port every engine kind has: the arguments, jobs, solutions out
    /// a file per item, counts.
    pub port: EnginePort,
    /// Its search in the data path.
    pub data: RankPort,
    /// The search's settings, read from the arguments once for all the
    /// solvers by the accelerator's [`arguments::QueensArguments`]: N, count
    /// mode, and the refusal, if any.
    pub n: Signal<In, Bits<8>>,
    pub count_all: Signal<In, bool>,
    pub refusal: Signal<In, Bits<8>>,
    /// Count from constellations: the jobs are the walker's generator's,
    /// each a constellation (its four numbers) and its weight in the path.
    pub edges_on: Signal<In, bool>,
    /// The first rank's files: from constellations, those of the classes'
    /// canonical images the walker's generator makes jobs of (a part of a
    /// count, shared by devices).
    pub first_files: Signal<In, Bits<32>>,

    walker: Constant<bool>,
    // Built to search constellation jobs: without, `edges` is a constant
    // false and their logic is synthesised away (the engines are kept as
    // modules of their own, so the constant must be theirs).
    edges_built: Constant<bool>,
    edges: Signal<Local, bool>,
    // The walker's generator, in a build that counts from constellations.
    feed: JobFeed,
    // The walker's path with its last queen; a constellation job's numbers
    // in the path (and the generator's job into it); a solution streamed
    // out; a turn's counts.
    walker_path: WalkerPath,
    job: ConstellationJob,
    stream: SolutionStream,
    counts: TurnCounts,

    state: DFF<QueensState>,
    // The platform's cancel, a clock late, for the state: it comes from one
    // register to every engine, and from there through the state's logic
    // it was the longest path of a 48-search ECP5 build (12 of its 14 ns
    // routing). Nothing is lost by the clock: a stop blocks the next
    // frame's start, and a cancel can come in any clock. The counts take
    // the cancel as it comes (one LUT to their registers).
    cancel_seen: DFF<bool>,
    split_on: DFF<bool>,
    job_rank: DFF<Bits<8>>,
    walking: DFF<bool>,
    jobs_found: DFF<Bits<32>>,
    found_pulse: DFF<bool>,
    // The walker placed a queen in the clock before.
    walked: DFF<bool>,
    current_job: DFF<Bits<32>>,
    // The walker's files so far; a worker's job's files still to replay.
    path: DFF<Bits<JOB_PATH_BITS>>,

    at_job: Signal<Local, bool>,
    hand_over: Signal<Local, bool>,
    starting: Signal<Local, bool>,
    // A node counted in this turn: a queen placed, a solution.
    placed_now: Signal<Local, bool>,
    found_now: Signal<Local, bool>,
    // A solution's weight (a constellation job's: 1, 2, 4 or 8).
    found_weight: Signal<Local, Bits<4>>,
    // The generator's job on offer is taken now.
    feed_take: Signal<Local, bool>,
    // The walker hands out its generator's jobs (in the state `Next`).
    feeding: Signal<Local, bool>,
    sharing: Signal<Local, bool>,
}

impl QueensEngine {
    /// A search's machine; the walker makes constellation jobs when
    /// `constellations` (the others ignore it).
    pub fn new(role: JobRole, constellations: bool) -> Self {
        QueensEngine {
            clock: Default::default(),
            port: Default::default(),
            data: Default::default(),
            n: Default::default(),
            count_all: Default::default(),
            refusal: Default::default(),
            edges_on: Default::default(),
            first_files: Default::default(),
            walker: Constant::new(role == JobRole::Walker),
            edges_built: Constant::new(constellations),
            edges: Default::default(),
            feed: JobFeed::new(role == JobRole::Walker && constellations),
            walker_path: WalkerPath::new(role == JobRole::Walker),
            job: Default::default(),
            stream: Default::default(),
            counts: Default::default(),
            state: Default::default(),
            cancel_seen: Default::default(),
            split_on: Default::default(),
            job_rank: Default::default(),
            walking: Default::default(),
            jobs_found: Default::default(),
            found_pulse: Default::default(),
            walked: Default::default(),
            current_job: Default::default(),
            path: Default::default(),
            placed_now: Default::default(),
            found_now: Default::default(),
            found_weight: Default::default(),
            feed_take: Default::default(),
            feeding: Default::default(),
            sharing: Default::default(),
            at_job: Default::default(),
            hand_over: Default::default(),
            starting: Default::default(),
        }
    }
}

impl Logic for QueensEngine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, cancel_seen, split_on, job_rank, walking, jobs_found, found_pulse, walked);
        dff_setup!(self, clock, current_job, path);
        clock!(self, clock, stream, counts);
        self.feed.generator_clock.next = self.clock.val();
        self.port.refusal.next = self.refusal.val();

        self.edges.next = self.edges_built.val() & self.edges_on.val();

        // The data path places nothing unless the state below says so.
        self.data.root.next = false;
        self.data.root_open.next = self.walker.val() & !self.edges.val();
        self.data.place.next = false;
        self.data.forced.next = false;
        self.data.forced_file.next = bit_cast::<8, FILE_BITS>(self.path.q.val().get_bits::<FILE_BITS>(0));
        self.data.open_child.next = true;
        // A constellation job's numbers, held in the path for the whole job.
        self.job.path.next = self.path.q.val().get_bits::<CONSTELLATION_JOB_BITS>(0);
        self.data.edges.next = self.edges.val();
        self.data.first_rank_file.next = self.job.i.val();
        self.data.last_rank_file.next = self.job.j.val();
        self.data.first_file_rank.next = self.job.a.val();
        self.data.last_file_rank.next = self.job.b.val();
        self.found_weight.next = 1.into();
        if self.edges.val() {
            self.found_weight.next = bits::<4>(1) << self.job.weight_log2.val();
        }
        // Jobs are shared when split, and always from constellations.
        self.sharing.next = self.split_on.q.val() | self.edges.val();
        self.feeding.next = self.walker.val() & self.edges.val() & self.walking.q.val();

        // The walker's generator (none in the others): started as a search
        // starts, its jobs taken in `Next` (feeding).
        self.feed_take.next = false;
        self.feed.generator_n.next = self.n.val();
        self.feed.generator_first_files.next = self.first_files.val();
        self.feed.generator_start.next = self.edges.val() & (self.state.q.val() == QueensState::Root);
        self.job.new_tuple.next = self.feed.tuple.val();
        self.job.new_weight_log2.next = self.feed.weight_log2.val();

        // The walker's queen on the job rank is a job; handed over when the
        // queue has room.
        self.at_job.next = self.walker.val()
            & !self.edges.val()
            & self.walking.q.val()
            & (self.data.rank.val() == self.job_rank.q.val())
            & (self.state.q.val() == QueensState::Run);
        self.hand_over.next = self.at_job.val() & self.port.jobs.space.val();
        // The walker's path with its last turn's queen in its rank's field.
        self.walker_path.path.next = self.path.q.val();
        self.walker_path.placed_rank.next = self.data.placed_rank.val();
        self.walker_path.placed_file.next = self.data.placed_file.val();

        self.walker_path.found_pulse.next = self.found_pulse.q.val();
        self.walker_path.edges.next = self.edges.val();
        self.walker_path.jobs_found.next = self.jobs_found.q.val();
        self.port.jobs.found.next = self.walker_path.found.val();
        self.port.jobs.found_path.next = self.walker_path.found_path.val();
        self.port.jobs.found_number.next = self.walker_path.found_number.val();
        self.walked.d.next = false;
        if self.walker.val() & self.walked.q.val() {
            self.path.d.next = self.walker_path.with_queen.val();
        }
        self.cancel_seen.d.next = self.port.cancel.val();
        self.port.jobs.walking.next = self.walker.val() & self.walking.q.val();
        self.port.jobs.request.next =
            (self.state.q.val() == QueensState::Next) & !self.port.jobs.grant.val() & !self.feeding.val();
        self.port.jobs.job.next = self.current_job.q.val();
        self.found_pulse.d.next = false;
        self.placed_now.next = false;
        self.found_now.next = false;
        self.port.nodes.next = self.counts.nodes.val();
        self.port.solutions.next = self.counts.solutions.val();
        self.port.busy.next = (self.state.q.val() != QueensState::Idle) & (self.state.q.val() != QueensState::Done);
        self.port.streaming.next = self.state.q.val() == QueensState::Emit;
        self.port.result_items.next = bit_cast::<16, 8>(self.n.val());
        // A solution streamed out, its files read from the data path.
        self.stream.start.next = false;
        self.stream.active.next = self.state.q.val() == QueensState::Emit;
        self.stream.turn.next = self.data.turn.val();
        self.stream.n.next = self.n.val();
        self.stream.cancel.next = self.cancel_seen.q.val();
        self.data.read_rank.next = self.stream.read_rank.val();
        self.stream.read_file.next = self.data.read_file.val();
        self.port.item.next = self.stream.item.val();
        self.port.item_valid.next = self.stream.item_valid.val();
        self.port.item_last.next = self.stream.item_last.val();
        self.stream.item_ready.next = self.port.item_ready.val();

        match self.state.q.val() {
            QueensState::Idle => {}
            QueensState::Root => {
                // The walker opens rank 1 (or, from constellations, feeds
                // its generator's jobs to the queue, in `Next`); the others
                // wait for jobs, or stop when the search is not split.
                self.data.root.next = true;
                if self.data.turn.val() {
                    self.walking.d.next = self.walker.val() & self.sharing.val();
                    if self.walker.val() & !self.edges.val() {
                        self.state.d.next = QueensState::Run;
                    } else if self.sharing.val() {
                        self.state.d.next = QueensState::Next;
                    } else {
                        self.state.d.next = QueensState::Done;
                    }
                }
            }
            QueensState::Run => {
                // (A cancel stops the counts and the state, not the data
                // path: gating every rank's write on it was the iCE40
                // build's longest path, from the platform's result limit.)
                // (The orders go out in every clock, the state moves in
                // turns: the turn would lengthen the orders' paths.)
                self.data.place.next = self.data.searching.val();
                self.data.open_child.next = !self.hand_over.val();
                if self.data.turn.val() {
                    if !self.data.searching.val() {
                        // The walk or the job is over (the walker feeds
                        // on, in `Next`, while its generator has jobs).
                        if self.edges.val() {
                            self.state.d.next = QueensState::Next;
                        } else {
                            self.walking.d.next = false;
                            if self.split_on.q.val() {
                                self.state.d.next = QueensState::Next;
                            } else {
                                self.state.d.next = QueensState::Done;
                            }
                        }
                    } else {
                        // (A constellation's edge queen passed through is
                        // no node.)
                        self.placed_now.next =
                            !self.hand_over.val() & !(self.edges.val() & self.data.at_edge_rank.val());
                        // (Only the walker's path grows, in the next clock: a
                        // worker's is its job's, as is a constellation's.)
                        self.walked.d.next = self.walker.val() & !self.edges.val();
                        if self.at_job.val() {
                            self.jobs_found.d.next = self.jobs_found.q.val() + 1;
                            if self.hand_over.val() {
                                self.found_pulse.d.next = true;
                            } else {
                                self.current_job.d.next = self.jobs_found.q.val();
                            }
                        }
                        if self.data.at_last_rank.val() {
                            if self.count_all.val() {
                                self.found_now.next = true;
                            } else {
                                self.stream.start.next = true;
                                self.state.d.next = QueensState::Emit;
                            }
                        }
                    }
                }
                if self.cancel_seen.q.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Emit => {
                if self.stream.cancelled.val() {
                    self.state.d.next = QueensState::Done;
                } else if self.stream.finished.val() {
                    self.state.d.next = QueensState::Run;
                }
            }
            QueensState::Next => {
                // Wait for a job (a grant wins over the queue's `over`, which
                // it may raise in the same clock); or, feeding, the walker's
                // generator's jobs into the queue while it has room. One it
                // has no room for, the walker searches itself (and comes
                // back here after). Its jobs are numbered in order, whoever
                // searches them. (Feeding is no state of its own: a ninth
                // would widen every engine's state register.)
                if self.cancel_seen.q.val() {
                    self.state.d.next = QueensState::Done;
                } else if self.feeding.val() {
                    if self.feed.valid.val() {
                        self.feed_take.next = true;
                        self.jobs_found.d.next = self.jobs_found.q.val() + 1;
                        self.path.d.next = bit_cast::<JOB_PATH_BITS, CONSTELLATION_JOB_BITS>(self.job.new_path.val());
                        if self.port.jobs.space.val() {
                            self.found_pulse.d.next = true;
                        } else {
                            self.current_job.d.next = self.jobs_found.q.val();
                            self.state.d.next = QueensState::Take;
                        }
                    } else if self.feed.done.val() {
                        self.walking.d.next = false;
                    }
                } else if self.port.jobs.grant.val() {
                    self.current_job.d.next = self.port.jobs.number.val();
                    self.path.d.next = self.port.jobs.path.val();
                    self.state.d.next = QueensState::Take;
                } else if self.port.jobs.over.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Take => {
                // A job taken: rank 1, nothing of it open (its queens are
                // replayed), or a constellation's edges, searched from there.
                self.data.root.next = true;
                self.data.root_open.next = self.edges.val();
                if self.data.turn.val() {
                    self.state.d.next = QueensState::Replay;
                    if self.edges.val() {
                        self.state.d.next = QueensState::Run;
                    }
                }
                if self.cancel_seen.q.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Replay => {
                // The job's queens, a rank a turn; the last one is the job's
                // node, and opens the rank above it.
                self.data.place.next = true;
                self.data.forced.next = true;
                self.data.open_child.next = self.data.rank.val() == self.job_rank.q.val();
                if self.data.turn.val() {
                    self.path.d.next = self.path.q.val() >> 5; // FILE_BITS
                    if self.data.rank.val() == self.job_rank.q.val() {
                        self.placed_now.next = true;
                        self.state.d.next = QueensState::Run;
                    }
                }
                if self.cancel_seen.q.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Done => {}
            _ => {
                self.state.d.next = QueensState::Idle;
            }
        }

        self.counts.turn.next = self.data.turn.val();
        self.counts.cancel.next = self.port.cancel.val();
        self.counts.placed.next = self.placed_now.val();
        self.counts.found.next = self.found_now.val();
        self.counts.found_weight.next = self.found_weight.val();
        self.counts.tail_queens.next = self.data.tail_queens.val();
        self.counts.tail_solutions.next = self.data.tail_solutions.val();

        self.feed.generator_take.next = self.feed_take.val();
        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == QueensState::Idle) | (self.state.q.val() == QueensState::Done));
        self.stream.clear.next = self.starting.val();
        if self.starting.val() {
            self.jobs_found.d.next = 0.into();
            self.current_job.d.next = 0.into();
            self.path.d.next = 0.into();
            // Split below rank N only: the job rank (from 0).
            self.job_rank.d.next = self.port.split_level.val() - 1;
            self.split_on.d.next = self.port.split_level.val().any()
                & (self.port.split_level.val() < self.port.arguments.val().get_bits::<8>(0));
            self.state.d.next = QueensState::Root;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::arguments::QueensArguments;
    use super::ranks::RankPipeline;
    use super::*;
    use knights_model::queens::{QueensSearch, QueensSpec};
    use knights_model::Goal;
    use knights_protocol::flag;

    /// What one search reported: nodes, solutions counted, solutions
    /// streamed (files from rank 1), clocks busy.
    #[derive(Debug, Default, PartialEq, Eq)]
    struct Run {
        nodes: u64,
        counted: u64,
        streamed: Vec<Vec<u8>>,
        clocks: u64,
    }

    /// One pipeline and its two searches' machines, with the arguments'
    /// block the accelerator gives them; each search walks the whole tree
    /// alone (both are walkers, with no split).
    #[derive(LogicBlock)]
    struct Solver {
        clock: Signal<In, Clock>,
        ports: Vec<EnginePort>,
        request: QueensArguments<8>,
        pipeline: RankPipeline<8, 32, 4>,
        engines: Vec<QueensEngine>,
    }

    impl Logic for Solver {
        #[hdl_gen]
        fn update(&mut self) {
            clock!(self, clock, request, pipeline);
            self.request.arguments.next = self.ports[0].arguments.val();
            self.request.latch.next = self.ports[0].start.val();
            self.pipeline.full.next = self.request.full.val();
            self.pipeline.first_files.next = self.request.first_files.val();
            self.pipeline.last_slot.next = self.request.last_slot.val();
            self.pipeline.tail_on.next = self.request.count_all.val();
            self.pipeline.n.next = self.request.n.val();
            for i in 0..self.engines.len() {
                self.engines[i].clock.next = self.clock.val();
                EnginePort::link(&mut self.ports[i], &mut self.engines[i].port);
                RankPort::join(&mut self.engines[i].data, &mut self.pipeline.searches[i]);
                self.engines[i].n.next = self.request.n.val();
                self.engines[i].count_all.next = self.request.count_all.val();
                self.engines[i].refusal.next = self.request.refusal.val();
                self.engines[i].edges_on.next = self.request.edges_on.val();
                self.engines[i].first_files.next = bit_cast::<32, 8>(self.request.first_files.val());
            }
        }
    }

    /// Both searches of one pipeline on the same board: search 1 starts a
    /// few clocks later and its results are taken slowly (an item every
    /// third clock), so the two run out of step.
    fn solve(n: u8, first: std::ops::Range<u8>, count: bool) -> [Run; 2] {
        let mut uut = Solver {
            clock: Default::default(),
            ports: (0..2).map(|_| Default::default()).collect(),
            request: Default::default(),
            pipeline: RankPipeline::new(false),
            engines: (0..2).map(|_| QueensEngine::new(JobRole::Walker, false)).collect(),
        };
        uut.connect_all();
        let flags = if count { flag::COUNT } else { 0 };
        let arguments =
            [n, n, first.start, first.end, flags].iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let result = std::sync::Arc::new(std::sync::Mutex::new(<[Run; 2]>::default()));
        let out = result.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Solver>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Solver>| {
            let mut x = sim.init()?;
            let mut runs = <[Run; 2]>::default();
            let mut solutions = [Vec::new(), Vec::new()];
            for i in 0..2 {
                x.ports[i].arguments.next = arguments.into();
                x.ports[i].jobs.over.next = true;
            }
            let mut clock = 0u64;
            loop {
                x.ports[0].start.next = clock == 0;
                x.ports[1].start.next = clock == 5;
                let ready = [true, clock.is_multiple_of(3)];
                // An item is taken in a clock it is shown with ready.
                for i in 0..2 {
                    x.ports[i].item_ready.next = ready[i];
                    if x.ports[i].item_valid.val() && ready[i] {
                        solutions[i].push(x.ports[i].item.val().to_u64() as u8);
                        if x.ports[i].item_last.val() {
                            runs[i].streamed.push(std::mem::take(&mut solutions[i]));
                        }
                    }
                }
                wait_clock_cycle!(sim, clock, x);
                clock += 1;
                for (run, port) in runs.iter_mut().zip(&x.ports) {
                    if port.busy.val() {
                        run.clocks += 1;
                    }
                    run.nodes += port.nodes.val().to_u64();
                    run.counted += port.solutions.val().to_u64();
                }
                // (The last clock's pulses come after busy falls.)
                if clock > 8 && !x.ports[0].busy.val() && !x.ports[1].busy.val() {
                    wait_clock_cycle!(sim, clock, x);
                    for (run, port) in runs.iter_mut().zip(&x.ports) {
                        run.nodes += port.nodes.val().to_u64();
                        run.counted += port.solutions.val().to_u64();
                    }
                    break;
                }
            }
            *out.lock().unwrap() = runs;
            sim.done(x)
        });
        sim.run(Box::new(uut), 20_000_000).unwrap();
        let runs = std::mem::take(&mut *result.lock().unwrap());
        runs
    }

    /// Count mode, node for node with the reference, on every board up to
    /// the build's, whole and one side of the mirror, in both searches; a
    /// node every other clock each.
    #[test]
    fn counts_node_for_node_with_the_reference() {
        for n in 1..=8u8 {
            for first in [0..n, 0..n.div_ceil(2)] {
                let search = QueensSearch::new(QueensSpec::new(n, first.clone()).unwrap());
                let reference = search.run(Goal::CountAll, &mut knights_model::queens::Quiet);
                let last_two: u64 = search.nodes_by_rank().iter().skip(usize::from(n.max(2)) - 2).sum();
                for (i, run) in solve(n, first.clone(), true).iter().enumerate() {
                    let what = format!("N = {n}, {first:?}, search {i}");
                    assert_eq!((run.nodes, run.counted), (reference.nodes, reference.solutions), "{what}");
                    assert!(run.streamed.is_empty());
                    // Two clocks a node but those of the last two ranks
                    // (counted, not stepped on), and a few to start and stop.
                    let stepped = if n < 3 { reference.nodes } else { reference.nodes - last_two };
                    assert!(
                        run.clocks <= 2 * stepped + 8,
                        "{what}: {} clocks for {} nodes, {stepped} stepped on",
                        run.clocks,
                        reference.nodes
                    );
                }
            }
        }
    }

    /// First-K mode streams every solution, in the reference's order, from
    /// both searches (one taking its items slowly).
    #[test]
    fn streams_solutions_in_the_reference_order() {
        for n in [1u8, 4, 6, 8] {
            let (_, reference) = QueensSearch::new(QueensSpec::whole(n).unwrap()).solutions(Goal::First(u64::MAX));
            for (i, run) in solve(n, 0..n, false).iter().enumerate() {
                assert_eq!(run.streamed, reference, "N = {n}, search {i}");
            }
        }
    }
}
