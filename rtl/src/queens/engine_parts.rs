//! The blocks of a search's state machine ([`super::QueensEngine`]) that
//! hold no decision of its own: the walker's path as its queens are
//! placed, a solution streamed out, the counts of a turn, and the walker's
//! feed of constellation jobs.

use rust_hdl::prelude::*;

use super::constellations::ConstellationGenerator;
use super::job_layout::{FILE_BITS, MAX_JOB_RANKS, TUPLE_BITS};
use crate::platform::JOB_PATH_BITS;

/// The walker's jobs as the queue sees them (combinational): its path
/// with the queen just placed in its rank's field (from the data path's
/// registered copy of the queen, in the clock after the turn: the queen's
/// file is the end of a long path in the turn itself), or a constellation
/// job's path, numbered. Only the walker finds jobs: a worker's outputs
/// are tied off, so that its copy of the walker's path and job numbering
/// synthesises away even where the engine is kept as a module of its own,
/// as on the ECP5.
#[derive(LogicBlock)]
pub struct WalkerPath {
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub placed_rank: Signal<In, Bits<8>>,
    pub placed_file: Signal<In, Bits<8>>,
    pub with_queen: Signal<Out, Bits<JOB_PATH_BITS>>,
    /// A job found in the clock before (its queen the one just placed, or
    /// from constellations, the path itself); the jobs found so far.
    pub found_pulse: Signal<In, bool>,
    pub edges: Signal<In, bool>,
    pub jobs_found: Signal<In, Bits<32>>,
    pub found: Signal<Out, bool>,
    pub found_path: Signal<Out, Bits<JOB_PATH_BITS>>,
    pub found_number: Signal<Out, Bits<32>>,

    walker: Constant<bool>,

    // A rank's place in the path: its number, and its field's position.
    path_rank: Vec<Constant<Bits<8>>>,
    path_shift: Vec<Constant<Bits<8>>>,
    path_keep: Vec<Constant<Bits<JOB_PATH_BITS>>>,
    path_after: Vec<Signal<Local, Bits<JOB_PATH_BITS>>>,
}

impl WalkerPath {
    pub fn new(walker: bool) -> Self {
        let field = (1u64 << FILE_BITS) - 1;
        let all = (1u64 << JOB_PATH_BITS) - 1;
        WalkerPath {
            path: Default::default(),
            placed_rank: Default::default(),
            placed_file: Default::default(),
            with_queen: Default::default(),
            found_pulse: Default::default(),
            edges: Default::default(),
            jobs_found: Default::default(),
            found: Default::default(),
            found_path: Default::default(),
            found_number: Default::default(),
            walker: Constant::new(walker),
            path_rank: (0..MAX_JOB_RANKS).map(|rank| Constant::new((rank as u64).into())).collect(),
            path_shift: (0..MAX_JOB_RANKS).map(|rank| Constant::new(((rank * FILE_BITS) as u64).into())).collect(),
            path_keep: (0..MAX_JOB_RANKS)
                .map(|rank| Constant::new((all & !(field << (rank * FILE_BITS))).into()))
                .collect(),
            path_after: (0..MAX_JOB_RANKS).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for WalkerPath {
    #[hdl_gen]
    fn update(&mut self) {
        self.path_after[0].next = self.path.val();
        if self.placed_rank.val() == self.path_rank[0].val() {
            self.path_after[0].next = (self.path.val() & self.path_keep[0].val())
                | (bit_cast::<JOB_PATH_BITS, 8>(self.placed_file.val()) << self.path_shift[0].val());
        }
        for i in 1..self.path_after.len() {
            self.path_after[i].next = self.path_after[i - 1].val();
            if self.placed_rank.val() == self.path_rank[i].val() {
                self.path_after[i].next = (self.path_after[i - 1].val() & self.path_keep[i].val())
                    | (bit_cast::<JOB_PATH_BITS, 8>(self.placed_file.val()) << self.path_shift[i].val());
            }
        }
        // (rust-hdl reads an index only with loop variables in it, so a
        // one-pass loop names the last link.)
        for i in (self.path_after.len() - 1)..self.path_after.len() {
            self.with_queen.next = self.path_after[i].val();
        }
        self.found.next = self.found_pulse.val();
        self.found_path.next = 0.into();
        self.found_number.next = 0.into();
        if self.walker.val() {
            self.found_path.next = self.with_queen.val();
            if self.edges.val() {
                self.found_path.next = self.path.val();
            }
            self.found_number.next = self.jobs_found.val() - 1;
        }
    }
}

/// A solution streamed out, a file per item from rank 1: each read from
/// the data path in a turn, shown from the clock after until taken. A
/// cancel before the first is taken drops the solution, else it goes out
/// whole.
#[derive(LogicBlock, Default)]
pub struct SolutionStream {
    pub clock: Signal<In, Clock>,
    /// A solution was found: stream it, from rank 1.
    pub start: Signal<In, bool>,
    /// The machine is streaming (its state is `Emit`); its search's turn.
    pub active: Signal<In, bool>,
    pub turn: Signal<In, bool>,
    /// A search starts: nothing is shown.
    pub clear: Signal<In, bool>,
    pub n: Signal<In, Bits<8>>,
    pub cancel: Signal<In, bool>,
    /// The rank whose file the data path reads, and the file, a clock on.
    pub read_rank: Signal<Out, Bits<8>>,
    pub read_file: Signal<In, Bits<8>>,
    /// The items, with the valid/ready/last handshake.
    pub item: Signal<Out, Bits<8>>,
    pub item_valid: Signal<Out, bool>,
    pub item_last: Signal<Out, bool>,
    pub item_ready: Signal<In, bool>,
    /// The last item was taken (back to the search), or the stream was
    /// cancelled (the search is done).
    pub finished: Signal<Out, bool>,
    pub cancelled: Signal<Out, bool>,

    // The rank whose file is read or shown, the file shown, and whether it
    // is shown or being read.
    emit_rank: DFF<Bits<8>>,
    item_held: DFF<Bits<8>>,
    item_is_last: DFF<bool>,
    shown: DFF<bool>,
    fetched: DFF<bool>,
    last_item: Signal<Local, bool>,
}

impl Logic for SolutionStream {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, emit_rank, item_held, item_is_last, shown, fetched);
        self.read_rank.next = self.emit_rank.q.val();
        self.item.next = self.item_held.q.val();
        self.item_valid.next = self.shown.q.val();
        self.item_last.next = self.shown.q.val() & self.item_is_last.q.val();
        self.last_item.next = (self.emit_rank.q.val() + 1) == self.n.val();
        self.finished.next = false;
        self.cancelled.next = false;
        if self.active.val() {
            if self.fetched.q.val() {
                self.item_held.d.next = self.read_file.val();
                self.item_is_last.d.next = self.last_item.val();
                self.shown.d.next = true;
                self.fetched.d.next = false;
            } else if !self.shown.q.val() & self.turn.val() {
                self.fetched.d.next = true;
            }
            if self.cancel.val() & !self.emit_rank.q.val().any() & !(self.shown.q.val() & self.item_ready.val()) {
                self.shown.d.next = false;
                self.fetched.d.next = false;
                self.cancelled.next = true;
            } else if self.shown.q.val() & self.item_ready.val() {
                self.shown.d.next = false;
                self.emit_rank.d.next = self.emit_rank.q.val() + 1;
                self.finished.next = self.item_is_last.q.val();
            }
        }
        if self.start.val() {
            self.emit_rank.d.next = 0.into();
        }
        if self.clear.val() {
            self.shown.d.next = false;
            self.fetched.d.next = false;
        }
    }
}

/// A turn's counts for the platform: the queen placed, a solution (with
/// its weight), and the last two ranks the step before counted in one
/// (registered). A cancel stops them in the clock it comes: a clock late,
/// the turn after a first-K search's last solution went out would count a
/// node the reference does not.
#[derive(LogicBlock, Default)]
pub struct TurnCounts {
    pub clock: Signal<In, Clock>,
    pub turn: Signal<In, bool>,
    pub cancel: Signal<In, bool>,
    pub placed: Signal<In, bool>,
    pub found: Signal<In, bool>,
    pub found_weight: Signal<In, Bits<4>>,
    pub tail_queens: Signal<In, Bits<4>>,
    pub tail_solutions: Signal<In, Bits<4>>,
    pub nodes: Signal<Out, Bits<16>>,
    pub solutions: Signal<Out, Bits<16>>,

    node_count: DFF<Bits<4>>,
    solution_count: DFF<Bits<4>>,
    tail_nodes: Signal<Local, Bits<4>>,
}

impl Logic for TurnCounts {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, node_count, solution_count);
        self.nodes.next = bit_cast::<16, 4>(self.node_count.q.val());
        self.solutions.next = bit_cast::<16, 4>(self.solution_count.q.val());
        self.node_count.d.next = 0.into();
        self.solution_count.d.next = 0.into();
        self.tail_nodes.next = self.tail_queens.val() + self.tail_solutions.val();
        if self.turn.val() & !self.cancel.val() {
            self.node_count.d.next = self.tail_nodes.val();
            if self.placed.val() {
                self.node_count.d.next = self.tail_nodes.val() + 1;
            }
            self.solution_count.d.next = self.tail_solutions.val();
            if self.found.val() {
                self.solution_count.d.next = self.tail_solutions.val() + self.found_weight.val();
            }
        }
    }
}

/// The walker's generator of constellation jobs, in a build that counts
/// from constellations (no generator in the others, nor in builds without:
/// then no job is ever offered and the feed is done).
#[derive(LogicBlock)]
pub struct JobFeed {
    /// (Its inputs are named for the generator: a feed built without one
    /// reads none of them.)
    pub generator_clock: Signal<In, Clock>,
    pub generator_n: Signal<In, Bits<8>>,
    /// Starts the generator (as a search from constellations starts).
    pub generator_start: Signal<In, bool>,
    /// The first rank's files of the canonical images it makes jobs of.
    pub generator_first_files: Signal<In, Bits<32>>,
    /// The job on offer: its tuple and weight's log2; taken with
    /// `generator_take`.
    pub valid: Signal<Out, bool>,
    pub tuple: Signal<Out, Bits<TUPLE_BITS>>,
    pub weight_log2: Signal<Out, Bits<2>>,
    pub generator_take: Signal<In, bool>,
    /// No more jobs will come.
    pub done: Signal<Out, bool>,

    generator: Vec<ConstellationGenerator>,
}

impl JobFeed {
    pub fn new(built: bool) -> Self {
        JobFeed {
            generator_clock: Default::default(),
            generator_n: Default::default(),
            generator_start: Default::default(),
            generator_first_files: Default::default(),
            valid: Default::default(),
            tuple: Default::default(),
            weight_log2: Default::default(),
            generator_take: Default::default(),
            done: Default::default(),
            generator: (0..usize::from(built)).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for JobFeed {
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.next = false;
        self.done.next = true;
        self.tuple.next = 0.into();
        self.weight_log2.next = 0.into();
        for g in 0..self.generator.len() {
            self.generator[g].clock.next = self.generator_clock.val();
            self.generator[g].n.next = self.generator_n.val();
            self.generator[g].start.next = self.generator_start.val();
            self.generator[g].first_files.next = self.generator_first_files.val();
            self.generator[g].ready.next = self.generator_take.val();
            self.valid.next = self.generator[g].valid.val();
            self.done.next = self.generator[g].done.val();
            self.tuple.next = self.generator[g].job.val();
            self.weight_log2.next = self.generator[g].weight_log2.val();
        }
    }
}
