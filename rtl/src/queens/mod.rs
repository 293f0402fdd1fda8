//! The N-Queens solver: one queen placed per clock, backtracks included.
//!
//! Same search as the reference (`knights_model::queens`): a queen per rank
//! from rank 1 up, files a→z, a node a queen placed without conflict. The
//! data path is [`ranks`] (the current rank in registers, the ranks below
//! with files left in a stack RAM whose deepest entry is read ahead, so a
//! backtrack over any number of ranks places its queen in the same clock);
//! [`arguments`] reads SOLVE's arguments. This
//! file is the state machine, and the solver's share of a split search:
//!
//! - The walker (engine 0) searches from rank 1; each queen it places on the
//!   job rank (the split level's: jobs are placements of the first
//!   `split_level` queens) is a job, numbered in search order. With room in
//!   the queue it hands the job over as its files (five bits a rank) and
//!   goes on as if the queen were a dead end; otherwise it searches the job
//!   itself. Its walk over, it takes jobs like the others.
//! - A worker takes a job from the queue and replays its queens a clock
//!   each (their ranks keep no untried files, so the search never returns
//!   to them), then searches below.
//! - Each node is counted once: above the job rank by the walker, a job's
//!   own queen and everything below by whoever searches the job.
//!
//! A solution in first-K mode pauses the search and streams its files, a
//! byte a rank from rank 1, with the valid/ready handshake.

pub mod accelerator;
pub mod arguments;
pub mod ranks;

use rust_hdl::prelude::*;

use crate::engine::JobRole;
use crate::platform::{EnginePort, JOB_PATH_BITS};
use ranks::{top_slot, RankStack};

/// Bits of a rank's file in a job's path.
pub const FILE_BITS: usize = 5;

/// The deepest split level a job's path holds.
pub const MAX_JOB_RANKS: usize = JOB_PATH_BITS / FILE_BITS;
const _: () = assert!(MAX_JOB_RANKS == knights_protocol::MAX_QUEENS_SPLIT_LEVEL as usize);

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum QueensState {
    Idle,
    Root,
    Run,
    Emit,
    Next,
    Replay,
    Done,
}

/// A solver for boards up to `NB` × `NB` (a stack entry of `EW` = 4 `NB`
/// bits, `SB` bits of a rank below the last: see [`ranks`]).
#[derive(LogicBlock)]
pub struct QueensEngine<const NB: usize, const EW: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    /// The port every engine kind has: the arguments, jobs, solutions out
    /// a file per item, counts.
    pub port: EnginePort,
    /// The search's settings, read from the arguments once for all the
    /// solvers by the accelerator's [`arguments::QueensArguments`] (a copy in each
    /// solver was a quarter of its logic): N, the board's files, the files
    /// the first rank may take, the last rank's slot, count mode, and the
    /// refusal, if any.
    pub n: Signal<In, Bits<8>>,
    pub full: Signal<In, Bits<NB>>,
    pub first_files: Signal<In, Bits<NB>>,
    pub last_slot: Signal<In, Bits<NB>>,
    pub count_all: Signal<In, bool>,
    pub refusal: Signal<In, Bits<8>>,

    walker: Constant<bool>,
    top_slot: Constant<Bits<NB>>,
    // A rank's place in a job's path: its slot, and its field's position.
    path_slot: Vec<Constant<Bits<NB>>>,
    path_shift: Vec<Constant<Bits<8>>>,
    path_keep: Vec<Constant<Bits<JOB_PATH_BITS>>>,

    ranks: RankStack<NB, EW, SB>,
    state: DFF<QueensState>,
    split_on: DFF<bool>,
    job_slot: DFF<Bits<NB>>,
    walking: DFF<bool>,
    jobs_found: DFF<Bits<32>>,
    found_pulse: DFF<bool>,
    current_job: DFF<Bits<32>>,
    // The walker's files so far; a worker's job's files still to replay.
    path: DFF<Bits<JOB_PATH_BITS>>,
    emit_slot: DFF<Bits<NB>>,
    node_pulse: DFF<bool>,
    solution_pulse: DFF<bool>,

    at_job: Signal<Local, bool>,
    hand_over: Signal<Local, bool>,
    path_after: Vec<Signal<Local, Bits<JOB_PATH_BITS>>>,
    path_placed: Signal<Local, Bits<JOB_PATH_BITS>>,
    starting: Signal<Local, bool>,
}

impl<const NB: usize, const EW: usize, const SB: usize> QueensEngine<NB, EW, SB> {
    pub fn new(role: JobRole) -> Self {
        let ranks_in_path = MAX_JOB_RANKS.min(NB);
        let field = (1u64 << FILE_BITS) - 1;
        let all = (1u64 << JOB_PATH_BITS) - 1;
        QueensEngine {
            clock: Default::default(),
            port: Default::default(),
            walker: Constant::new(role == JobRole::Walker),
            top_slot: top_slot(),
            path_slot: (0..ranks_in_path)
                .map(|rank| Constant::new(Bits::<NB>::from(1u64 << (NB - 1 - rank))))
                .collect(),
            path_shift: (0..ranks_in_path).map(|rank| Constant::new(((rank * FILE_BITS) as u64).into())).collect(),
            path_keep: (0..ranks_in_path)
                .map(|rank| Constant::new((all & !(field << (rank * FILE_BITS))).into()))
                .collect(),
            n: Default::default(),
            full: Default::default(),
            first_files: Default::default(),
            last_slot: Default::default(),
            count_all: Default::default(),
            refusal: Default::default(),
            ranks: Default::default(),
            state: Default::default(),
            split_on: Default::default(),
            job_slot: Default::default(),
            walking: Default::default(),
            jobs_found: Default::default(),
            found_pulse: Default::default(),
            current_job: Default::default(),
            path: Default::default(),
            emit_slot: Default::default(),
            node_pulse: Default::default(),
            solution_pulse: Default::default(),
            at_job: Default::default(),
            hand_over: Default::default(),
            path_after: (0..ranks_in_path).map(|_| Default::default()).collect(),
            path_placed: Default::default(),
            starting: Default::default(),
        }
    }
}

impl<const NB: usize, const EW: usize, const SB: usize> Logic for QueensEngine<NB, EW, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            split_on,
            job_slot,
            walking,
            jobs_found,
            found_pulse,
            current_job,
            path,
            emit_slot,
            node_pulse,
            solution_pulse
        );
        clock!(self, clock, ranks);
        self.port.refusal.next = self.refusal.val();

        // The data path places nothing unless the state below says so.
        self.ranks.full.next = self.full.val();
        self.ranks.first_files.next = self.first_files.val();
        self.ranks.last_slot.next = self.last_slot.val();
        self.ranks.root.next = false;
        self.ranks.root_open.next = self.walker.val();
        self.ranks.place.next = false;
        self.ranks.forced.next = false;
        self.ranks.forced_file.next = bit_cast::<8, FILE_BITS>(self.path.q.val().get_bits::<FILE_BITS>(0));
        self.ranks.open_child.next = true;
        self.ranks.read_slot.next = self.emit_slot.q.val();

        // The walker's queen on the job rank is a job; handed over when the
        // queue has room.
        self.at_job.next = self.walker.val()
            & self.walking.q.val()
            & (self.ranks.slot.val() & self.job_slot.q.val()).any()
            & (self.state.q.val() == QueensState::Run);
        self.hand_over.next = self.at_job.val() & self.port.jobs.space.val();
        // The walker's path with this clock's queen in its rank's field.
        self.path_after[0].next = self.path.q.val();
        if (self.ranks.slot.val() & self.path_slot[0].val()).any() {
            self.path_after[0].next = (self.path.q.val() & self.path_keep[0].val())
                | (bit_cast::<JOB_PATH_BITS, 8>(self.ranks.file.val()) << self.path_shift[0].val());
        }
        for i in 1..self.path_after.len() {
            self.path_after[i].next = self.path_after[i - 1].val();
            if (self.ranks.slot.val() & self.path_slot[i].val()).any() {
                self.path_after[i].next = (self.path_after[i - 1].val() & self.path_keep[i].val())
                    | (bit_cast::<JOB_PATH_BITS, 8>(self.ranks.file.val()) << self.path_shift[i].val());
            }
        }

        // (rust-hdl reads an index only with loop variables in it, so a
        // one-pass loop names the last link.)
        for i in (self.path_after.len() - 1)..self.path_after.len() {
            self.path_placed.next = self.path_after[i].val();
        }

        self.port.jobs.found.next = self.found_pulse.q.val();
        self.port.jobs.found_path.next = self.path.q.val();
        self.port.jobs.found_number.next = self.jobs_found.q.val() - 1;
        self.port.jobs.walking.next = self.walker.val() & self.walking.q.val();
        self.port.jobs.request.next = (self.state.q.val() == QueensState::Next) & !self.port.jobs.grant.val();
        self.port.jobs.job.next = self.current_job.q.val();
        self.found_pulse.d.next = false;
        self.node_pulse.d.next = false;
        self.solution_pulse.d.next = false;
        self.port.nodes.next = 0.into();
        if self.node_pulse.q.val() {
            self.port.nodes.next = 1.into();
        }
        self.port.solution.next = self.solution_pulse.q.val();
        self.port.busy.next = (self.state.q.val() != QueensState::Idle) & (self.state.q.val() != QueensState::Done);
        self.port.streaming.next = self.state.q.val() == QueensState::Emit;
        self.port.result_items.next = bit_cast::<16, 8>(self.n.val());
        self.port.item.next = self.ranks.read_file.val();
        self.port.item_valid.next = self.state.q.val() == QueensState::Emit;
        self.port.item_last.next = (self.emit_slot.q.val() & self.last_slot.val()).any();

        match self.state.q.val() {
            QueensState::Idle => {}
            QueensState::Root => {
                // The walker opens rank 1; the others wait for jobs, or stop
                // when the search is not split.
                self.ranks.root.next = true;
                self.walking.d.next = self.walker.val() & self.split_on.q.val();
                if self.walker.val() {
                    self.state.d.next = QueensState::Run;
                } else if self.split_on.q.val() {
                    self.state.d.next = QueensState::Next;
                } else {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Run => {
                // (A cancel stops the counts and the state, not the data
                // path: gating every rank's write on it was the iCE40
                // build's longest path, from the platform's result limit.)
                if !self.ranks.searching.val() {
                    // The walk or the job is over.
                    self.walking.d.next = false;
                    if self.split_on.q.val() {
                        self.state.d.next = QueensState::Next;
                    } else {
                        self.state.d.next = QueensState::Done;
                    }
                } else {
                    self.ranks.place.next = true;
                    self.node_pulse.d.next = !self.hand_over.val() & !self.port.cancel.val();
                    // (Only the walker's path grows: a worker's is its job's.)
                    if self.walker.val() {
                        self.path.d.next = self.path_placed.val();
                    }
                    if self.at_job.val() {
                        self.jobs_found.d.next = self.jobs_found.q.val() + 1;
                        if self.hand_over.val() {
                            self.found_pulse.d.next = true;
                            self.ranks.open_child.next = false;
                        } else {
                            self.current_job.d.next = self.jobs_found.q.val();
                        }
                    }
                    if self.ranks.at_last_rank.val() {
                        if self.count_all.val() {
                            self.solution_pulse.d.next = !self.port.cancel.val();
                        } else {
                            self.emit_slot.d.next = self.top_slot.val();
                            self.state.d.next = QueensState::Emit;
                        }
                    }
                }
                if self.port.cancel.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Emit => {
                // Stream the files from rank 1; a cancel before the first
                // is taken drops the solution, else it goes out whole.
                if self.port.cancel.val()
                    & (self.emit_slot.q.val() == self.top_slot.val())
                    & !self.port.item_ready.val()
                {
                    self.state.d.next = QueensState::Done;
                } else if self.port.item_ready.val() {
                    self.emit_slot.d.next = self.emit_slot.q.val() >> 1;
                    if (self.emit_slot.q.val() & self.last_slot.val()).any() {
                        self.state.d.next = QueensState::Run;
                    }
                }
            }
            QueensState::Next => {
                // Wait for a job (a grant wins over the queue's `over`, which
                // it may raise in the same clock).
                if self.port.cancel.val() {
                    self.state.d.next = QueensState::Done;
                } else if self.port.jobs.grant.val() {
                    self.current_job.d.next = self.port.jobs.number.val();
                    self.path.d.next = self.port.jobs.path.val();
                    self.ranks.root.next = true;
                    self.ranks.root_open.next = false;
                    self.state.d.next = QueensState::Replay;
                } else if self.port.jobs.over.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Replay => {
                // The job's queens, a rank a clock; the last one is the job's
                // node, and opens the rank above it.
                self.ranks.place.next = true;
                self.ranks.forced.next = true;
                self.path.d.next = self.path.q.val() >> 5; // FILE_BITS
                self.ranks.open_child.next = false;
                if self.ranks.slot.val() == self.job_slot.q.val() {
                    self.ranks.open_child.next = true;
                    self.node_pulse.d.next = !self.port.cancel.val();
                    self.state.d.next = QueensState::Run;
                }
                if self.port.cancel.val() {
                    self.state.d.next = QueensState::Done;
                }
            }
            QueensState::Done => {}
            _ => {
                self.state.d.next = QueensState::Idle;
            }
        }

        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == QueensState::Idle) | (self.state.q.val() == QueensState::Done));
        if self.starting.val() {
            self.jobs_found.d.next = 0.into();
            self.current_job.d.next = 0.into();
            self.path.d.next = 0.into();
            // Split below rank N only: the job rank's slot.
            self.job_slot.d.next = self.top_slot.val() >> (self.port.split_level.val() - 1);
            self.split_on.d.next = self.port.split_level.val().any()
                & (self.port.split_level.val() < self.port.arguments.val().get_bits::<8>(0));
            self.state.d.next = QueensState::Root;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::arguments::QueensArguments;
    use super::*;
    use knights_model::queens::{QueensSearch, QueensSpec};
    use knights_model::Goal;
    use knights_protocol::flag;

    /// What one solver alone reported: nodes, solutions counted, solutions
    /// streamed (files from rank 1), clocks busy.
    #[derive(Debug, Default, PartialEq, Eq)]
    struct Run {
        nodes: u64,
        counted: u64,
        streamed: Vec<Vec<u8>>,
        clocks: u64,
    }

    /// One solver with the arguments' block the accelerator gives it.
    #[derive(LogicBlock)]
    struct Solver {
        clock: Signal<In, Clock>,
        port: EnginePort,
        request: QueensArguments<8>,
        engine: QueensEngine<8, 32, 3>,
    }

    impl Logic for Solver {
        #[hdl_gen]
        fn update(&mut self) {
            clock!(self, clock, request, engine);
            EnginePort::link(&mut self.port, &mut self.engine.port);
            self.request.arguments.next = self.port.arguments.val();
            self.request.latch.next = self.port.start.val();
            self.engine.n.next = self.request.n.val();
            self.engine.full.next = self.request.full.val();
            self.engine.first_files.next = self.request.first_files.val();
            self.engine.last_slot.next = self.request.last_slot.val();
            self.engine.count_all.next = self.request.count_all.val();
            self.engine.refusal.next = self.request.refusal.val();
        }
    }

    fn solve(n: u8, first: std::ops::Range<u8>, count: bool) -> Run {
        let mut uut = Solver {
            clock: Default::default(),
            port: Default::default(),
            request: Default::default(),
            engine: QueensEngine::new(JobRole::Walker),
        };
        uut.connect_all();
        let flags = if count { flag::COUNT } else { 0 };
        let arguments =
            [n, n, first.start, first.end, flags].iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let result = std::sync::Arc::new(std::sync::Mutex::new(Run::default()));
        let out = result.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Solver>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Solver>| {
            let mut x = sim.init()?;
            let mut run = Run::default();
            x.port.arguments.next = arguments.into();
            x.port.jobs.over.next = true;
            x.port.item_ready.next = true;
            x.port.start.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.port.start.next = false;
            let mut solution = Vec::new();
            while x.port.busy.val() | (run.clocks < 3) {
                run.clocks += 1;
                run.nodes += x.port.nodes.val().to_u64();
                run.counted += u64::from(x.port.solution.val());
                if x.port.item_valid.val() {
                    solution.push(x.port.item.val().to_u64() as u8);
                    if x.port.item_last.val() {
                        run.streamed.push(std::mem::take(&mut solution));
                    }
                }
                wait_clock_cycle!(sim, clock, x);
            }
            // The last clock's pulses.
            run.nodes += x.port.nodes.val().to_u64();
            run.counted += u64::from(x.port.solution.val());
            *out.lock().unwrap() = run;
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000_000).unwrap();
        let run = std::mem::take(&mut *result.lock().unwrap());
        run
    }

    /// Count mode, node for node with the reference, on every board up to
    /// the build's, whole and one side of the mirror; one node a clock.
    #[test]
    fn counts_node_for_node_with_the_reference() {
        for n in 1..=8u8 {
            for first in [0..n, 0..n.div_ceil(2)] {
                let reference = QueensSearch::new(QueensSpec::new(n, first.clone()).unwrap())
                    .run(Goal::CountAll, &mut knights_model::queens::Quiet);
                let run = solve(n, first.clone(), true);
                assert_eq!((run.nodes, run.counted), (reference.nodes, reference.solutions), "N = {n}, {first:?}");
                assert!(run.streamed.is_empty());
                // A clock a node, and a few to start and stop.
                assert!(
                    run.clocks <= reference.nodes + 4,
                    "N = {n}: {} clocks for {} nodes",
                    run.clocks,
                    reference.nodes
                );
            }
        }
    }

    /// First-K mode streams every solution, in the reference's order.
    #[test]
    fn streams_solutions_in_the_reference_order() {
        for n in [1u8, 4, 6, 8] {
            let (_, reference) = QueensSearch::new(QueensSpec::whole(n).unwrap()).solutions(Goal::First(u64::MAX));
            let run = solve(n, 0..n, false);
            assert_eq!(run.streamed, reference, "N = {n}");
        }
    }
}
