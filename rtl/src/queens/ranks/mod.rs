//! The N-Queens solver's data path: two searches in a two-stage pipeline,
//! each placing a queen every other clock, so the pipeline places one every
//! clock.
//!
//! A search's state is its current rank (the files and both diagonals
//! attacked from the ranks below, its untried files) and the ranks below it
//! with files left, kept in a stack RAM with a bit per rank (`open_ranks`)
//! marking them. A step takes two clocks:
//!
//! - **Stage A** places a queen on the current rank's lowest untried file
//!   (or a job's forced one) and works out the next rank's attacks and free
//!   files, and the files the rank keeps if the queen is placed.
//! - **Stage B** picks the next rank to work on: the rank above, when it has
//!   a free file (a descent; the current rank is marked if it has files
//!   left); else the current rank again, with the files it has left (kept
//!   in stage B's registers); else the deepest marked rank (a backtrack over
//!   any number of ranks), read from the stack. It writes the current rank
//!   to the stack with the files it has left, every clock, whether or not
//!   the rank will be kept there: the current rank is never marked, so the
//!   entry only counts once it is. Whether a queen was placed at all (the
//!   state machine's order, which comes from the machine's logic and
//!   routing) chooses only here, between registers: in stage A it had lain
//!   on the step's longest path, from the search's `active` out to its
//!   machine and back through the lowest untried file's carry chain.
//!
//! The stack is read a clock early, so its read data can be registered
//! (`entry_held`): a block RAM's clock-to-out (5.6 ns on the ECP5) was a
//! third of the step's longest path. Stage A hands the stack the deepest
//! marked rank whatever stage B will decide (it hangs only on the marks, not
//! on the step's long path); the entry comes out in the stage B clock and is
//! registered for the search's next stage A (`from_stack`). The current rank
//! cannot be read back that way (stage B writes it as it decides), hence
//! stage B's copy of it.
//!
//! While one search is in stage A the other is in stage B: the registers
//! of stage A hold one search, those of stage B the other, and stage B
//! writes its search's next state into stage A's registers. The stack and
//! the queens' RAM hold both, a search's half chosen by the top address
//! bit. A read and a write in one clock are never of the same entry: each
//! RAM reads for the search in stage A and writes for the one in stage B.
//! A search that places no queen (paused: a solution streamed out, waiting
//! for a job) stays on its rank the same way as after a dead end.
//!
//! **The last two ranks in one step** (count mode, `tail_on`): a queen
//! placed on rank N - 2 (from 1) leaves two files open, so what lies above
//! it is known at once: a queen on rank N - 1 on either open file it has
//! free, and for each, a solution if the other open file is free on rank N
//! and not next to it. Stage B counts those nodes and solutions
//! (`tail_queens`, `tail_solutions`) instead of entering rank N - 1, and
//! goes on as after a dead end: about a twelfth of the nodes of N = 15 are
//! never stepped on. First-K mode steps on them all, to stream each
//! solution in order.
//!
//! Each search is driven by its own state machine through a [`RankPort`],
//! acting in the clocks it is in stage A (`turn`). Splitting the step
//! halves the logic between registers (the clock) for about the same logic:
//! a search's step is a chain (the lowest untried file, the next rank's
//! free files, whether any is free, the next state) that no single search
//! can overlap with its next step.
//!
//! **Constellation jobs** (`edges`): the job is a constellation, the
//! queens of the board's four edges (see `knights_model::queens::
//! constellations`), and the search places the others between them, as the
//! reference's `ConstellationSearch` does. The root enters the first rank
//! with the edges' files taken, and the diagonals that cross the first rank
//! of file a's queen (falling) and the last file's (rising); the first
//! rank's queen is then placed as a pass. A rank with an edge's queen has
//! that queen's file as its only untried file and is entered whatever is
//! free there, so the step passes through it as it places any queen (and
//! ORs in its diagonals, which go on from there); the state machine counts
//! no node for it (`at_edge_rank`). The last rank's queen's diagonals come
//! onto the board from outside it, a bit ORed into the next rank's masks
//! on the rank where each does. The last rank is never entered: the
//! argument's last slot is the rank below it (its queen attacks none
//! placed), and count mode's last two ranks in one step are off.
//!
//! Ranks are kept in *slots*: rank `r` in slot `NB - 1 - r`, so the deepest
//! marked rank is the lowest set bit of `open_ranks` and the next rank's
//! slot is one lower. Slot vectors are one-hot. A rank's number has
//! `AB - 1` bits; the RAMs' addresses add the search's bit on top.

mod deepest;
mod last_two;
mod next_rank;
mod queen;

use rust_hdl::prelude::*;

use deepest::DeepestRank;
use last_two::LastTwoRanks;
use next_rank::NextRank;
use queen::QueenChoice;

/// Bits of a file's or a rank's number (boards up to 32).
const NUMBER_BITS: usize = 5;

/// Searches a pipeline serves (one per stage).
pub const SEARCHES_PER_PIPELINE: usize = 2;

/// A search's state machine's side of its link to the pipeline. Inputs are
/// read, and outputs taken, in the clocks of its `turn`, except those that
/// say otherwise (the queen just placed, a solution's files).
#[derive(LogicInterface, Default)]
#[join = "RankSocket"]
pub struct RankPort {
    /// The search is in stage A this clock.
    pub turn: Signal<In, bool>,
    /// Enters the first rank with nothing placed; its files are to be
    /// searched when `root_open` (else it only takes a replayed job's queen).
    pub root: Signal<Out, bool>,
    pub root_open: Signal<Out, bool>,
    /// Places a queen on the current rank: its lowest untried file, or with
    /// `forced`, `forced_file` (a job's path replayed: nothing else is tried
    /// there, and the next rank is entered whatever `open_child` says). The
    /// next rank is entered if it has a free file and `open_child` (a job
    /// handed to another engine is not).
    pub place: Signal<Out, bool>,
    pub forced: Signal<Out, bool>,
    pub forced_file: Signal<Out, Bits<8>>,
    pub open_child: Signal<Out, bool>,
    /// Some rank of the path has a file left: there is a queen to place.
    pub searching: Signal<In, bool>,
    /// The current rank (from 0), and whether it is the last (a solution).
    pub rank: Signal<In, Bits<8>>,
    pub at_last_rank: Signal<In, bool>,
    /// The rank and file of the queen placed in a turn, in the clock after
    /// it (registered, from stage B).
    pub placed_rank: Signal<In, Bits<8>>,
    pub placed_file: Signal<In, Bits<8>>,
    /// The queen's file on rank `read_rank`, given in a turn, in the clock
    /// after it (a solution streamed out).
    pub read_rank: Signal<Out, Bits<8>>,
    pub read_file: Signal<In, Bits<8>>,
    /// The queens on rank N - 1 and the solutions counted for the last two
    /// ranks in the search's step before (0 unless it placed a queen on
    /// rank N - 2 in count mode): its nodes are their sum.
    pub tail_queens: Signal<In, Bits<4>>,
    pub tail_solutions: Signal<In, Bits<4>>,
    /// The search's job is a constellation (see [`constellation
    /// jobs`](self#constellation-jobs)): its four numbers, held for the
    /// whole job. A root then enters rank 1 (from 0) with the edges'
    /// queens' files and diagonals taken, and the ranks that hold one of
    /// them are passed through.
    pub edges: Signal<Out, bool>,
    pub first_rank_file: Signal<Out, Bits<NUMBER_BITS>>,
    pub last_rank_file: Signal<Out, Bits<NUMBER_BITS>>,
    pub first_file_rank: Signal<Out, Bits<NUMBER_BITS>>,
    pub last_file_rank: Signal<Out, Bits<NUMBER_BITS>>,
    /// The current rank holds an edge's queen: the queen placed there is
    /// its (a pass, not a node).
    pub at_edge_rank: Signal<In, bool>,
}

/// The pipeline's side of [`RankPort`], every direction turned round.
#[derive(LogicInterface, Default)]
#[join = "RankPort"]
pub struct RankSocket {
    pub turn: Signal<Out, bool>,
    pub root: Signal<In, bool>,
    pub root_open: Signal<In, bool>,
    pub place: Signal<In, bool>,
    pub forced: Signal<In, bool>,
    pub forced_file: Signal<In, Bits<8>>,
    pub open_child: Signal<In, bool>,
    pub searching: Signal<Out, bool>,
    pub rank: Signal<Out, Bits<8>>,
    pub at_last_rank: Signal<Out, bool>,
    pub placed_rank: Signal<Out, Bits<8>>,
    pub placed_file: Signal<Out, Bits<8>>,
    pub read_rank: Signal<In, Bits<8>>,
    pub read_file: Signal<Out, Bits<8>>,
    pub tail_queens: Signal<Out, Bits<4>>,
    pub tail_solutions: Signal<Out, Bits<4>>,
    pub edges: Signal<In, bool>,
    pub first_rank_file: Signal<In, Bits<NUMBER_BITS>>,
    pub last_rank_file: Signal<In, Bits<NUMBER_BITS>>,
    pub first_file_rank: Signal<In, Bits<NUMBER_BITS>>,
    pub last_file_rank: Signal<In, Bits<NUMBER_BITS>>,
    pub at_edge_rank: Signal<Out, bool>,
}

/// Two searches of boards up to `NB` queens (`EW` = 4 `NB`: a stack entry;
/// `AB`: the RAMs' address bits, a rank's and the search's).
#[derive(LogicBlock)]
pub struct RankPipeline<const NB: usize, const EW: usize, const AB: usize> {
    pub clock: Signal<In, Clock>,
    /// The board's files, the files the first rank may take, and the last
    /// rank's slot (the same for both searches).
    pub full: Signal<In, Bits<NB>>,
    pub first_files: Signal<In, Bits<NB>>,
    pub last_slot: Signal<In, Bits<NB>>,
    /// N, for where the last rank's queen's diagonals come onto the board
    /// in a constellation job.
    pub n: Signal<In, Bits<8>>,
    /// Count the last two ranks in one step (count mode).
    pub tail_on: Signal<In, bool>,
    /// Search 0 is in stage A when `phase` is clear, search 1 when set.
    pub searches: Vec<RankSocket>,

    top_slot: Constant<Bits<NB>>,
    // Each search's `phase`, and its half of the RAMs.
    phase_of: Vec<Constant<bool>>,
    half_of: Vec<Constant<Bits<AB>>>,
    // Where the rising and falling diagonals and the untried files sit in a
    // stack entry (the attacked files at bit 0).
    rising_at: Constant<Bits<8>>,
    falling_at: Constant<Bits<8>>,
    untried_at: Constant<Bits<8>>,

    phase: DFF<bool>,
    // Stage A: a search's state. Its current rank (slot and number), what
    // attacks it, its untried files (unless just read back: `from_stack`).
    current: DFF<Bits<NB>>,
    rank: DFF<Bits<AB>>,
    files: DFF<Bits<NB>>,
    rising: DFF<Bits<NB>>,
    falling: DFF<Bits<NB>>,
    untried: DFF<Bits<NB>>,
    from_stack: DFF<bool>,
    active: DFF<bool>,
    // The current rank holds an edge's queen (a constellation job).
    edge_rank: DFF<bool>,
    // The current rank is the last: a register, where it was the current
    // slot against the argument's last slot (the iCE40 build's longest path,
    // into the state machine's state), set in stage B from what each way
    // to the next rank leaves.
    last_rank: DFF<bool>,
    open_ranks: DFF<Bits<NB>>,
    stack: RAM<Bits<EW>, AB>,
    // The stack's read data, registered: the deepest marked rank of the
    // search in stage A, read in its stage B.
    entry_held: DFF<Bits<EW>>,
    // Each rank's queen, for a solution streamed out.
    queens: RAM<Bits<NUMBER_BITS>, AB>,

    // Stage A's combinational parts: the queen placed, the next rank, the
    // deepest marked rank (for a backtrack); stage B's: the last two ranks.
    queen: QueenChoice<NB>,
    next: NextRank<NB, AB>,
    deepest: DeepestRank<NB, AB>,
    last_two: LastTwoRanks<NB>,

    // Stage A's search and its state machine's orders.
    half_a: Signal<Local, Bits<AB>>,
    place: Signal<Local, bool>,
    forced: Signal<Local, bool>,
    forced_file: Signal<Local, Bits<8>>,
    open_child: Signal<Local, bool>,
    root: Signal<Local, bool>,
    root_open: Signal<Local, bool>,
    read_rank: Signal<Local, Bits<8>>,
    entry: Signal<Local, Bits<EW>>,
    entry_rising: Signal<Local, Bits<EW>>,
    entry_falling: Signal<Local, Bits<EW>>,
    entry_untried: Signal<Local, Bits<EW>>,
    now_files: Signal<Local, Bits<NB>>,
    now_rising: Signal<Local, Bits<NB>>,
    now_falling: Signal<Local, Bits<NB>>,
    now_untried: Signal<Local, Bits<NB>>,
    at_next_to_last: Signal<Local, bool>,
    at_tail: Signal<Local, bool>,
    // A constellation job's numbers (stage A's search), and what they say
    // of the next rank: it holds file a's or the last file's queen, or one
    // of the last rank's queen's diagonals comes onto the board there (at
    // file a rising, at the last file falling). The last file's bit.
    // (A constant false where the build has no constellation jobs: the
    // searches' flags come from engines synthesised as modules of their own,
    // so this block needs its own constant to fold the logic away.)
    edges_built: Constant<bool>,
    edges: Signal<Local, bool>,
    first_rank_file: Signal<Local, Bits<NUMBER_BITS>>,
    last_rank_file: Signal<Local, Bits<NUMBER_BITS>>,
    first_file_rank: Signal<Local, Bits<NUMBER_BITS>>,
    last_file_rank: Signal<Local, Bits<NUMBER_BITS>>,

    // Stage B: the other search, as stage A left it.
    b_current: DFF<Bits<NB>>,
    b_rank: DFF<Bits<AB>>,
    b_open: DFF<Bits<NB>>,
    // The current rank as stage A left it, for a search that stays on it.
    b_files: DFF<Bits<NB>>,
    b_rising: DFF<Bits<NB>>,
    b_falling: DFF<Bits<NB>>,
    // The files it keeps if its queen was placed; if not, all its untried
    // ones (any only when the search is on: else it keeps none).
    b_left_placed: DFF<Bits<NB>>,
    b_left_placed_any: DFF<bool>,
    b_untried: DFF<Bits<NB>>,
    b_untried_any: DFF<bool>,
    b_child_files: DFF<Bits<NB>>,
    b_child_rising: DFF<Bits<NB>>,
    b_child_falling: DFF<Bits<NB>>,
    b_child_free: DFF<Bits<NB>>,
    // The files left open to the ranks above (worked out in stage A, off
    // the tail's path in stage B).
    b_open_files: DFF<Bits<NB>>,
    b_deepest: DFF<Bits<NB>>,
    b_deepest_rank: DFF<Bits<AB>>,
    b_file: DFF<Bits<NUMBER_BITS>>,
    b_at_last: DFF<bool>,
    b_at_next_to_last: DFF<bool>,
    b_at_tail: DFF<bool>,
    b_place: DFF<bool>,
    b_forced: DFF<bool>,
    b_open_child: DFF<bool>,
    b_root: DFF<bool>,
    b_root_open: DFF<bool>,
    // A constellation job: the next rank holds an edge's queen (its file's
    // bit), the current one does; the numbers, for a root.
    b_child_edge: DFF<bool>,
    b_child_edge_bit: DFF<Bits<NB>>,
    b_edge_rank: DFF<bool>,
    b_edges: DFF<bool>,
    b_first_rank_file: DFF<Bits<NUMBER_BITS>>,
    b_last_rank_file: DFF<Bits<NUMBER_BITS>>,
    b_first_file_rank: DFF<Bits<NUMBER_BITS>>,
    // Where the last file's queen's rising diagonal crosses rank 1: file
    // N - 1 - (its rank), a one-hot decoded at the root (a shift of the
    // last file's bit by a rank took three times the logic).
    b_rising_root: DFF<Bits<NUMBER_BITS>>,
    half_b: Signal<Local, Bits<AB>>,
    // The files the current rank keeps, and whether any.
    left: Signal<Local, Bits<NB>>,
    left_any: Signal<Local, bool>,
    descend: Signal<Local, bool>,
    tail_queens_held: DFF<Bits<4>>,
    tail_solutions: DFF<Bits<4>>,
}

/// The slot of rank 1: the top bit of a slot vector.
pub fn top_slot<const NB: usize>() -> Constant<Bits<NB>> {
    Constant::new(Bits::<NB>::from(1u64 << (NB - 1)))
}

/// One default value per slot.
fn slots<T: Default>(count: usize) -> Vec<T> {
    (0..count).map(|_| T::default()).collect()
}

impl<const NB: usize, const EW: usize, const AB: usize> RankPipeline<NB, EW, AB> {
    /// Two searches; with `constellations`, they can search constellation
    /// jobs (without, that logic is synthesised away).
    pub fn new(constellations: bool) -> Self {
        assert!((1..=32).contains(&NB), "a queen's file goes out as one byte; boards up to 32");
        assert_eq!(EW, 4 * NB, "a stack entry is four masks of the board's files");
        assert!(1 << (AB - 1) >= NB, "the RAMs have an entry for every rank of each search");
        let at = |field: usize| Constant::new(((field * NB) as u64).into());
        RankPipeline {
            edges_built: Constant::new(constellations),
            clock: Default::default(),
            full: Default::default(),
            first_files: Default::default(),
            last_slot: Default::default(),
            n: Default::default(),
            searches: slots(SEARCHES_PER_PIPELINE),
            top_slot: top_slot(),
            phase_of: (0..SEARCHES_PER_PIPELINE).map(|s| Constant::new(s == 1)).collect(),
            half_of: (0..SEARCHES_PER_PIPELINE).map(|s| Constant::new(((s as u64) << (AB - 1)).into())).collect(),
            rising_at: at(1),
            falling_at: at(2),
            untried_at: at(3),
            phase: Default::default(),
            current: Default::default(),
            rank: Default::default(),
            files: Default::default(),
            rising: Default::default(),
            falling: Default::default(),
            untried: Default::default(),
            from_stack: Default::default(),
            active: Default::default(),
            edge_rank: Default::default(),
            last_rank: Default::default(),
            open_ranks: Default::default(),
            stack: Default::default(),
            entry_held: Default::default(),
            queens: Default::default(),
            queen: Default::default(),
            next: Default::default(),
            deepest: Default::default(),
            last_two: Default::default(),
            half_a: Default::default(),
            place: Default::default(),
            forced: Default::default(),
            forced_file: Default::default(),
            open_child: Default::default(),
            root: Default::default(),
            root_open: Default::default(),
            read_rank: Default::default(),
            entry: Default::default(),
            entry_rising: Default::default(),
            entry_falling: Default::default(),
            entry_untried: Default::default(),
            now_files: Default::default(),
            now_rising: Default::default(),
            now_falling: Default::default(),
            now_untried: Default::default(),
            at_next_to_last: Default::default(),
            at_tail: Default::default(),
            edges: Default::default(),
            first_rank_file: Default::default(),
            last_rank_file: Default::default(),
            first_file_rank: Default::default(),
            last_file_rank: Default::default(),
            b_current: Default::default(),
            b_rank: Default::default(),
            b_open: Default::default(),
            b_files: Default::default(),
            b_rising: Default::default(),
            b_falling: Default::default(),
            b_left_placed: Default::default(),
            b_left_placed_any: Default::default(),
            b_untried: Default::default(),
            b_untried_any: Default::default(),
            b_child_files: Default::default(),
            b_child_rising: Default::default(),
            b_child_falling: Default::default(),
            b_child_free: Default::default(),
            b_open_files: Default::default(),
            b_deepest: Default::default(),
            b_deepest_rank: Default::default(),
            b_file: Default::default(),
            b_at_last: Default::default(),
            b_at_next_to_last: Default::default(),
            b_at_tail: Default::default(),
            b_place: Default::default(),
            b_forced: Default::default(),
            b_open_child: Default::default(),
            b_root: Default::default(),
            b_root_open: Default::default(),
            b_child_edge: Default::default(),
            b_child_edge_bit: Default::default(),
            b_edge_rank: Default::default(),
            b_edges: Default::default(),
            b_first_rank_file: Default::default(),
            b_last_rank_file: Default::default(),
            b_first_file_rank: Default::default(),
            b_rising_root: Default::default(),
            half_b: Default::default(),
            left: Default::default(),
            left_any: Default::default(),
            descend: Default::default(),
            tail_on: Default::default(),
            tail_queens_held: Default::default(),
            tail_solutions: Default::default(),
        }
    }
}

impl<const NB: usize, const EW: usize, const AB: usize> Logic for RankPipeline<NB, EW, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        // Stage A's registers (a search's state), stage B's (the other search,
        // as stage A left it), and the last two ranks' counts.
        dff_setup!(self, clock, phase, current, rank, files, rising, falling, untried, from_stack, active, edge_rank);
        dff_setup!(self, clock, last_rank, open_ranks, entry_held, tail_queens_held, tail_solutions);
        dff_setup!(self, clock, b_current, b_rank, b_open, b_files, b_rising, b_falling, b_left_placed);
        dff_setup!(self, clock, b_left_placed_any, b_untried, b_untried_any);
        dff_setup!(self, clock, b_child_files, b_child_rising, b_child_falling, b_child_free, b_open_files, b_deepest);
        dff_setup!(self, clock, b_deepest_rank, b_file, b_at_last, b_at_next_to_last, b_at_tail, b_place, b_forced);
        dff_setup!(self, clock, b_open_child, b_root, b_root_open, b_child_edge, b_child_edge_bit, b_edge_rank);
        dff_setup!(self, clock, b_edges, b_first_rank_file, b_last_rank_file, b_first_file_rank, b_rising_root);
        self.stack.read_clock.next = self.clock.val();
        self.stack.write_clock.next = self.clock.val();
        self.queens.read_clock.next = self.clock.val();
        self.queens.write_clock.next = self.clock.val();
        self.phase.d.next = !self.phase.q.val();

        // Stage A's search: its orders, and its view of the state.
        self.half_a.next = 0.into();
        self.half_b.next = 0.into();
        self.place.next = false;
        self.forced.next = false;
        self.forced_file.next = 0.into();
        self.open_child.next = false;
        self.root.next = false;
        self.root_open.next = false;
        self.read_rank.next = 0.into();
        self.edges.next = false;
        self.first_rank_file.next = 0.into();
        self.last_rank_file.next = 0.into();
        self.first_file_rank.next = 0.into();
        self.last_file_rank.next = 0.into();
        for s in 0..self.searches.len() {
            self.searches[s].turn.next = self.phase.q.val() == self.phase_of[s].val();
            if self.phase.q.val() == self.phase_of[s].val() {
                self.half_a.next = self.half_of[s].val();
                self.place.next = self.searches[s].place.val();
                self.forced.next = self.searches[s].forced.val();
                self.forced_file.next = self.searches[s].forced_file.val();
                self.open_child.next = self.searches[s].open_child.val();
                self.root.next = self.searches[s].root.val();
                self.root_open.next = self.searches[s].root_open.val();
                self.read_rank.next = self.searches[s].read_rank.val();
                self.edges.next = self.edges_built.val() & self.searches[s].edges.val();
                self.first_rank_file.next = self.searches[s].first_rank_file.val();
                self.last_rank_file.next = self.searches[s].last_rank_file.val();
                self.first_file_rank.next = self.searches[s].first_file_rank.val();
                self.last_file_rank.next = self.searches[s].last_file_rank.val();
            } else {
                self.half_b.next = self.half_of[s].val();
            }
        }

        // Stage A. The current rank's entry: the registers, or the stack's
        // read data, registered, after a backtrack.
        self.entry_held.d.next = self.stack.read_data.val();
        self.entry.next = self.entry_held.q.val();
        self.entry_rising.next = self.entry.val() >> self.rising_at.val();
        self.entry_falling.next = self.entry.val() >> self.falling_at.val();
        self.entry_untried.next = self.entry.val() >> self.untried_at.val();
        self.now_files.next = self.files.q.val();
        self.now_rising.next = self.rising.q.val();
        self.now_falling.next = self.falling.q.val();
        self.now_untried.next = self.untried.q.val();
        if self.from_stack.q.val() {
            self.now_files.next = bit_cast::<NB, EW>(self.entry.val());
            self.now_rising.next = bit_cast::<NB, EW>(self.entry_rising.val());
            self.now_falling.next = bit_cast::<NB, EW>(self.entry_falling.val());
            self.now_untried.next = bit_cast::<NB, EW>(self.entry_untried.val());
        }
        self.at_next_to_last.next = (self.current.q.val() & (self.last_slot.val() << 1)).any();
        // (Rank N - 2, from 1: its last two ranks can be counted at once.)
        self.at_tail.next = (self.current.q.val() & (self.last_slot.val() << 2)).any();

        // The queen, the next rank, and the deepest marked rank, read now
        // in case stage B backtracks to it (stage B writes the other
        // search's half this clock).
        self.queen.untried.next = self.now_untried.val();
        self.queen.forced.next = self.forced.val();
        self.queen.forced_file.next = self.forced_file.val();
        self.next.full.next = self.full.val();
        self.next.n.next = self.n.val();
        self.next.rank.next = self.rank.q.val();
        self.next.files.next = self.now_files.val();
        self.next.rising.next = self.now_rising.val();
        self.next.falling.next = self.now_falling.val();
        self.next.queen_bit.next = self.queen.queen_bit.val();
        self.next.edges.next = self.edges.val();
        self.next.last_rank_file.next = self.last_rank_file.val();
        self.next.first_file_rank.next = self.first_file_rank.val();
        self.next.last_file_rank.next = self.last_file_rank.val();
        self.deepest.open_ranks.next = self.open_ranks.q.val();
        self.stack.read_address.next = self.deepest.rank.val() | self.half_a.val();

        // What each search's machine sees (used in its turns).
        for s in 0..self.searches.len() {
            self.searches[s].searching.next = self.active.q.val();
            self.searches[s].rank.next = bit_cast::<8, AB>(self.rank.q.val());
            self.searches[s].at_last_rank.next = self.last_rank.q.val();
            self.searches[s].placed_rank.next = bit_cast::<8, AB>(self.b_rank.q.val());
            self.searches[s].placed_file.next = bit_cast::<8, NUMBER_BITS>(self.b_file.q.val());
            self.searches[s].read_file.next = bit_cast::<8, NUMBER_BITS>(self.queens.read_data.val());
            self.searches[s].tail_queens.next = self.tail_queens_held.q.val();
            self.searches[s].tail_solutions.next = self.tail_solutions.q.val();
            self.searches[s].at_edge_rank.next = self.edges_built.val() & self.edge_rank.q.val();
        }

        self.queens.read_address.next = bit_cast::<AB, 8>(self.read_rank.val()) | self.half_a.val();

        self.b_current.d.next = self.current.q.val();
        self.b_rank.d.next = self.rank.q.val();
        self.b_open.d.next = self.open_ranks.q.val();
        self.b_files.d.next = self.now_files.val();
        self.b_rising.d.next = self.now_rising.val();
        self.b_falling.d.next = self.now_falling.val();
        self.b_left_placed.d.next = self.queen.left.val();
        self.b_left_placed_any.d.next = self.queen.left_any.val();
        self.b_untried.d.next = self.now_untried.val();
        self.b_untried_any.d.next = self.now_untried.val().any() & self.active.q.val();
        self.b_child_files.d.next = self.next.child_files.val();
        self.b_child_rising.d.next = self.next.child_rising.val();
        self.b_child_falling.d.next = self.next.child_falling.val();
        self.b_child_free.d.next = self.next.child_free.val();
        self.b_open_files.d.next = self.full.val() & !self.next.child_files.val();
        self.b_deepest.d.next = self.deepest.slot.val();
        self.b_deepest_rank.d.next = self.deepest.rank.val();
        self.b_file.d.next = self.queen.file.val();
        self.b_at_last.d.next = self.last_rank.q.val();
        self.b_at_next_to_last.d.next = self.at_next_to_last.val();
        self.b_at_tail.d.next = self.at_tail.val() & self.tail_on.val();
        self.b_place.d.next = self.place.val();
        self.b_forced.d.next = self.forced.val();
        self.b_open_child.d.next = self.open_child.val();
        self.b_root.d.next = self.root.val();
        self.b_root_open.d.next = self.root_open.val();
        self.b_child_edge.d.next = self.next.child_edge.val();
        self.b_child_edge_bit.d.next = self.next.child_edge_bit.val();
        self.b_edge_rank.d.next = self.edge_rank.q.val();
        self.b_edges.d.next = self.edges.val();
        self.b_first_rank_file.d.next = self.first_rank_file.val();
        self.b_last_rank_file.d.next = self.last_rank_file.val();
        self.b_first_file_rank.d.next = self.first_file_rank.val();
        self.b_rising_root.d.next =
            bit_cast::<NUMBER_BITS, 8>(self.n.val() - bit_cast::<8, NUMBER_BITS>(self.last_file_rank.val()) - 1);

        // Stage B: the next rank of the other search, into stage A's
        // registers. The files its current rank keeps: those left by its
        // queen, or with none placed all it had (none if the search is off:
        // then the entry is never marked).
        self.left.next = self.b_left_placed.q.val();
        self.left_any.next = self.b_left_placed_any.q.val();
        if !self.b_place.q.val() {
            self.left.next = self.b_untried.q.val();
            self.left_any.next = self.b_untried_any.q.val();
        }
        // The current rank to the stack, with the files it keeps (counted
        // only once marked; the current rank is never marked, so no marked
        // entry is overwritten).
        self.stack.write_address.next = self.b_rank.q.val() | self.half_b.val();
        self.stack.write_data.next = bit_cast::<EW, NB>(self.b_files.q.val())
            | (bit_cast::<EW, NB>(self.b_rising.q.val()) << self.rising_at.val())
            | (bit_cast::<EW, NB>(self.b_falling.q.val()) << self.falling_at.val())
            | (bit_cast::<EW, NB>(self.left.val()) << self.untried_at.val());
        self.stack.write_enable.next = true;
        self.queens.write_address.next = self.b_rank.q.val() | self.half_b.val();
        self.queens.write_data.next = self.b_file.q.val();
        self.queens.write_enable.next = self.b_place.q.val();
        // A queen on rank N - 2 (the last rank's slot two up) with the rank
        // above open to it: its last two ranks are counted here.
        self.last_two.at_tail.next = self.b_at_tail.q.val();
        self.last_two.placed.next = self.b_place.q.val();
        self.last_two.open_child.next = self.b_open_child.q.val();
        self.last_two.open_files.next = self.b_open_files.q.val();
        self.last_two.child_rising.next = self.b_child_rising.q.val();
        self.last_two.child_falling.next = self.b_child_falling.q.val();
        self.last_two.child_free.next = self.b_child_free.q.val();
        // (Registered apart: their sum, the nodes, is the state machine's.)
        self.tail_queens_held.d.next = 0.into();
        self.tail_solutions.d.next = 0.into();
        if self.last_two.counted.val() {
            self.tail_queens_held.d.next = self.last_two.queens.val();
            self.tail_solutions.d.next = self.last_two.solutions.val();
        }
        // (A rank with an edge's queen is entered whatever is free there:
        // its queen attacks none placed below it, nor they it.)
        self.descend.next = self.b_place.q.val()
            & !self.b_at_last.q.val()
            & (self.b_child_free.q.val().any() | self.b_child_edge.q.val())
            & (self.b_open_child.q.val() | self.b_forced.q.val())
            & !self.last_two.counted.val();
        self.current.d.next = self.b_current.q.val();
        self.rank.d.next = self.b_rank.q.val();
        self.files.d.next = self.b_child_files.q.val();
        self.rising.d.next = self.b_child_rising.q.val();
        self.falling.d.next = self.b_child_falling.q.val();
        self.untried.d.next = self.b_child_free.q.val();
        self.open_ranks.d.next = self.b_open.q.val();
        self.from_stack.d.next = false;
        self.active.d.next = true;
        self.edge_rank.d.next = self.b_edge_rank.q.val();
        self.last_rank.d.next = self.b_at_last.q.val();
        if self.descend.val() {
            self.current.d.next = self.b_current.q.val() >> 1;
            self.rank.d.next = self.b_rank.q.val() + 1;
            self.last_rank.d.next = self.b_at_next_to_last.q.val();
            self.edge_rank.d.next = self.b_child_edge.q.val();
            if self.b_child_edge.q.val() {
                self.untried.d.next = self.b_child_edge_bit.q.val();
            }
            if self.left_any.val() {
                self.open_ranks.d.next = self.b_open.q.val() | self.b_current.q.val();
            }
        } else if self.left_any.val() {
            self.files.d.next = self.b_files.q.val();
            self.rising.d.next = self.b_rising.q.val();
            self.falling.d.next = self.b_falling.q.val();
            self.untried.d.next = self.left.val();
        } else if self.b_open.q.val().any() {
            // (The last rank is never marked: nothing lies above it.)
            self.current.d.next = self.b_deepest.q.val();
            self.rank.d.next = self.b_deepest_rank.q.val();
            self.last_rank.d.next = false;
            self.open_ranks.d.next = self.b_open.q.val() & !self.b_deepest.q.val();
            self.from_stack.d.next = true;
            // (A rank with an edge's queen has no file left: never marked.)
            self.edge_rank.d.next = false;
        } else {
            self.active.d.next = false;
        }
        if self.b_root.q.val() {
            self.current.d.next = self.top_slot.val();
            self.rank.d.next = 0.into();
            self.last_rank.d.next = (self.top_slot.val() & self.last_slot.val()).any();
            self.files.d.next = 0.into();
            self.rising.d.next = 0.into();
            self.falling.d.next = 0.into();
            self.untried.d.next = self.first_files.val();
            self.open_ranks.d.next = 0.into();
            self.from_stack.d.next = false;
            self.active.d.next = self.b_root_open.q.val() & self.first_files.val().any();
            self.edge_rank.d.next = false;
            if self.b_edges.q.val() {
                // The edges' queens' files; the diagonals on the first rank
                // of the last file's queen (rising) and file a's (falling);
                // the first rank's queen, to pass through. (Their other
                // diagonals come on as they are passed, or onto the board.)
                self.files.d.next = bits::<NB>(1)
                    | self.next.last_file.val()
                    | (bits::<NB>(1) << self.b_first_rank_file.q.val())
                    | (bits::<NB>(1) << self.b_last_rank_file.q.val());
                self.rising.d.next = bits::<NB>(1) << self.b_rising_root.q.val();
                self.falling.d.next = bits::<NB>(1) << self.b_first_file_rank.q.val();
                self.untried.d.next = bits::<NB>(1) << self.b_first_rank_file.q.val();
                self.edge_rank.d.next = true;
                self.active.d.next = self.b_root_open.q.val();
            }
        }
    }
}

#[cfg(test)]
mod tests;
