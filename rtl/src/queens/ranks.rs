//! The N-Queens solver's data path: the current rank in registers, the
//! ranks below it with files left in a stack RAM, and a queen placed each
//! clock.
//!
//! The current rank holds the files and both diagonals attacked from the
//! ranks below and its untried files. Each clock places a queen on its
//! lowest untried file and then, in the same clock, picks the next rank to
//! work on:
//!
//! - the rank above, when it has a free file (a descent; the current rank,
//!   if it has files left, is pushed: written to the stack at its rank);
//! - else the current rank again, when it has files left;
//! - else the deepest pushed rank, whose entry the stack has been reading
//!   all along (a backtrack over any number of ranks, still a queen a
//!   clock).
//!
//! A bit per rank, `open_ranks`, marks the pushed ranks. The stack's read
//! is registered (a block RAM's), so its address is the deepest pushed rank
//! as the clock begins, and a popped rank's entry is the read data in the
//! next clock (`from_stack`). A rank is written only when it is left upward
//! and read only once a deeper rank has been worked on, so the read never
//! meets a write to the same entry. The stack is a RAM, not registers with
//! a multiplexer over the ranks, so a solver's logic grows with N, not N²:
//! on the FPGA it is block RAM (or LUT RAM), 4 N bits an entry.
//!
//! Ranks are kept in *slots*: rank `r` in slot `NB - 1 - r`, so the deepest
//! pushed rank is the lowest set bit of `open_ranks` and the next rank's slot
//! is one lower. Slot vectors are one-hot. The stack's address is the rank
//! (from 0): the last rank is never pushed, so 16 entries serve boards up to
//! 17, a 16-deep LUT RAM or one block RAM's width.

use rust_hdl::prelude::*;

/// Bits of a file's or a rank's number (boards up to 32).
const NUMBER_BITS: usize = 5;

#[derive(LogicBlock)]
pub struct RankStack<const NB: usize, const EW: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    /// The board's files, the files the first rank may take, and the last
    /// rank's slot.
    pub full: Signal<In, Bits<NB>>,
    pub first_files: Signal<In, Bits<NB>>,
    pub last_slot: Signal<In, Bits<NB>>,
    /// Enters the first rank with nothing placed; its files are to be
    /// searched when `root_open` (else it only takes a replayed job's queen).
    pub root: Signal<In, bool>,
    pub root_open: Signal<In, bool>,
    /// Places a queen on the current rank: its lowest untried file, or with
    /// `forced`, `forced_file` (a job's path replayed: nothing else is tried
    /// there, and the next rank is entered whatever `open_child` says). The
    /// next rank is entered if it has a free file and `open_child` (a job
    /// handed to another engine is not).
    pub place: Signal<In, bool>,
    pub forced: Signal<In, bool>,
    pub forced_file: Signal<In, Bits<8>>,
    pub open_child: Signal<In, bool>,
    /// Some rank of the path has a file left: there is a queen to place.
    pub searching: Signal<Out, bool>,
    /// Where the queen goes this clock (slot), its file, and whether that is
    /// the last rank (a solution).
    pub slot: Signal<Out, Bits<NB>>,
    pub file: Signal<Out, Bits<8>>,
    pub at_last_rank: Signal<Out, bool>,
    /// The queen's file on the rank of `read_slot` (a solution streamed out).
    pub read_slot: Signal<In, Bits<NB>>,
    pub read_file: Signal<Out, Bits<8>>,

    top_slot: Constant<Bits<NB>>,
    // The numbers 0 to NB - 1 (files), and each slot's rank.
    index: Vec<Constant<Bits<NUMBER_BITS>>>,
    rank_of: Vec<Constant<Bits<SB>>>,
    // Where the rising and falling diagonals and the untried files sit in a
    // stack entry (the attacked files at bit 0).
    rising_at: Constant<Bits<8>>,
    falling_at: Constant<Bits<8>>,
    untried_at: Constant<Bits<8>>,

    // The current rank: its slot and its number (the largest board's last
    // rank wraps to 0), what attacks it, its untried files (unless it was
    // just popped: `from_stack`).
    current: DFF<Bits<NB>>,
    rank: DFF<Bits<SB>>,
    files: DFF<Bits<NB>>,
    rising: DFF<Bits<NB>>,
    falling: DFF<Bits<NB>>,
    untried: DFF<Bits<NB>>,
    from_stack: DFF<bool>,
    active: DFF<bool>,
    open_ranks: DFF<Bits<NB>>,
    stack: RAM<Bits<EW>, SB>,
    // Each rank's queen, for a solution streamed out.
    queen: Vec<DFF<Bits<NUMBER_BITS>>>,

    // The deepest pushed rank, and its number (an OR chain over the bits).
    deepest: Signal<Local, Bits<NB>>,
    deepest_chain: Vec<Signal<Local, Bits<SB>>>,
    deepest_rank: Signal<Local, Bits<SB>>,
    entry: Signal<Local, Bits<EW>>,
    entry_rising: Signal<Local, Bits<EW>>,
    entry_falling: Signal<Local, Bits<EW>>,
    entry_untried: Signal<Local, Bits<EW>>,
    now_files: Signal<Local, Bits<NB>>,
    now_rising: Signal<Local, Bits<NB>>,
    now_falling: Signal<Local, Bits<NB>>,
    now_untried: Signal<Local, Bits<NB>>,
    // The queen's bit, and its file number (an OR chain over the bits).
    queen_bit: Signal<Local, Bits<NB>>,
    file_chain: Vec<Signal<Local, Bits<NUMBER_BITS>>>,
    placed_file: Signal<Local, Bits<NUMBER_BITS>>,
    left: Signal<Local, Bits<NB>>,
    child_files: Signal<Local, Bits<NB>>,
    child_rising: Signal<Local, Bits<NB>>,
    child_falling: Signal<Local, Bits<NB>>,
    child_free: Signal<Local, Bits<NB>>,
    descend: Signal<Local, bool>,
    read_chain: Vec<Signal<Local, Bits<NUMBER_BITS>>>,
    read_queen: Signal<Local, Bits<NUMBER_BITS>>,
}

/// The slot of rank 1: the top bit of a slot vector.
pub fn top_slot<const NB: usize>() -> Constant<Bits<NB>> {
    Constant::new(Bits::<NB>::from(1u64 << (NB - 1)))
}

/// One default value per slot.
fn slots<T: Default>(count: usize) -> Vec<T> {
    (0..count).map(|_| T::default()).collect()
}

impl<const NB: usize, const EW: usize, const SB: usize> Default for RankStack<NB, EW, SB> {
    fn default() -> Self {
        assert!((1..=32).contains(&NB), "a queen's file goes out as one byte; boards up to 32");
        assert_eq!(EW, 4 * NB, "a stack entry is four masks of the board's files");
        assert!(1 << SB >= NB - 1, "the stack has an entry for every rank but the last");
        let at = |field: usize| Constant::new(((field * NB) as u64).into());
        RankStack {
            clock: Default::default(),
            full: Default::default(),
            first_files: Default::default(),
            last_slot: Default::default(),
            root: Default::default(),
            root_open: Default::default(),
            place: Default::default(),
            forced: Default::default(),
            forced_file: Default::default(),
            open_child: Default::default(),
            searching: Default::default(),
            slot: Default::default(),
            file: Default::default(),
            at_last_rank: Default::default(),
            read_slot: Default::default(),
            read_file: Default::default(),
            top_slot: top_slot(),
            index: (0..NB).map(|i| Constant::new((i as u64).into())).collect(),
            // (The largest board's last rank wraps to 0: it is never pushed.)
            rank_of: (0..NB).map(|slot| Constant::new(((NB - 1 - slot) as u64 % (1 << SB)).into())).collect(),
            rising_at: at(1),
            falling_at: at(2),
            untried_at: at(3),
            current: Default::default(),
            rank: Default::default(),
            files: Default::default(),
            rising: Default::default(),
            falling: Default::default(),
            untried: Default::default(),
            from_stack: Default::default(),
            active: Default::default(),
            open_ranks: Default::default(),
            stack: Default::default(),
            queen: slots(NB),
            deepest: Default::default(),
            deepest_chain: slots(NB),
            deepest_rank: Default::default(),
            entry: Default::default(),
            entry_rising: Default::default(),
            entry_falling: Default::default(),
            entry_untried: Default::default(),
            now_files: Default::default(),
            now_rising: Default::default(),
            now_falling: Default::default(),
            now_untried: Default::default(),
            queen_bit: Default::default(),
            file_chain: slots(NB),
            placed_file: Default::default(),
            left: Default::default(),
            child_files: Default::default(),
            child_rising: Default::default(),
            child_falling: Default::default(),
            child_free: Default::default(),
            descend: Default::default(),
            read_chain: slots(NB),
            read_queen: Default::default(),
        }
    }
}

impl<const NB: usize, const EW: usize, const SB: usize> Logic for RankStack<NB, EW, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, current, rank, files, rising, falling, untried, from_stack, active, open_ranks);
        for i in 0..self.queen.len() {
            self.queen[i].clock.next = self.clock.val();
            self.queen[i].d.next = self.queen[i].q.val();
        }
        self.stack.read_clock.next = self.clock.val();
        self.stack.write_clock.next = self.clock.val();

        // The deepest pushed rank: the stack reads its entry every clock, in
        // case this clock pops it.
        self.deepest.next = self.open_ranks.q.val() & (!self.open_ranks.q.val() + 1);
        self.deepest_chain[0].next = 0.into();
        if self.deepest.val().get_bit(0) {
            self.deepest_chain[0].next = self.rank_of[0].val();
        }
        for i in 1..self.deepest_chain.len() {
            self.deepest_chain[i].next = self.deepest_chain[i - 1].val();
            if self.deepest.val().get_bit(i) {
                self.deepest_chain[i].next = self.deepest_chain[i - 1].val() | self.rank_of[i].val();
            }
        }
        // (rust-hdl reads an index only with loop variables in it, so a
        // one-pass loop names the last link.)
        for i in (NB - 1)..NB {
            self.deepest_rank.next = self.deepest_chain[i].val();
        }
        self.stack.read_address.next = self.deepest_rank.val();

        // The current rank's entry: the registers, or the stack's read data
        // in the clock after a pop.
        self.entry.next = self.stack.read_data.val();
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
        self.searching.next = self.active.q.val();
        self.slot.next = self.current.q.val();
        self.at_last_rank.next = (self.current.q.val() & self.last_slot.val()).any();

        // The queen: the lowest untried file, or the forced one.
        self.queen_bit.next = self.now_untried.val() & (!self.now_untried.val() + 1);
        if self.forced.val() {
            self.queen_bit.next = bits::<NB>(1) << self.forced_file.val();
        }
        self.file_chain[0].next = 0.into();
        for i in 1..self.file_chain.len() {
            self.file_chain[i].next = self.file_chain[i - 1].val();
            if self.queen_bit.val().get_bit(i) {
                self.file_chain[i].next = self.file_chain[i - 1].val() | self.index[i].val();
            }
        }
        for i in (NB - 1)..NB {
            self.placed_file.next = self.file_chain[i].val();
        }
        self.file.next = bit_cast::<8, NUMBER_BITS>(self.placed_file.val());
        self.left.next = self.now_untried.val() & !self.queen_bit.val();
        if self.forced.val() {
            self.left.next = 0.into();
        }

        // The next rank's attacks: the diagonals move one file on.
        self.child_files.next = self.now_files.val() | self.queen_bit.val();
        self.child_rising.next = ((self.now_rising.val() | self.queen_bit.val()) << 1) & self.full.val();
        self.child_falling.next = (self.now_falling.val() | self.queen_bit.val()) >> 1;
        self.child_free.next =
            self.full.val() & !(self.child_files.val() | self.child_rising.val() | self.child_falling.val());
        self.descend.next =
            !self.at_last_rank.val() & self.child_free.val().any() & (self.open_child.val() | self.forced.val());

        // A rank left upward with files left is pushed.
        self.stack.write_address.next = self.rank.q.val();
        self.stack.write_data.next = bit_cast::<EW, NB>(self.now_files.val())
            | (bit_cast::<EW, NB>(self.now_rising.val()) << self.rising_at.val())
            | (bit_cast::<EW, NB>(self.now_falling.val()) << self.falling_at.val())
            | (bit_cast::<EW, NB>(self.left.val()) << self.untried_at.val());
        self.stack.write_enable.next = false;

        // Without a queen the rank stays, a popped one's entry copied out of
        // the stack (whose read moves on to the next deepest).
        self.files.d.next = self.now_files.val();
        self.rising.d.next = self.now_rising.val();
        self.falling.d.next = self.now_falling.val();
        self.untried.d.next = self.now_untried.val();
        self.from_stack.d.next = false;
        if self.place.val() {
            for i in 0..self.queen.len() {
                if self.current.q.val().get_bit(i) {
                    self.queen[i].d.next = self.placed_file.val();
                }
            }
            if self.descend.val() {
                self.current.d.next = self.current.q.val() >> 1;
                self.rank.d.next = self.rank.q.val() + 1;
                self.files.d.next = self.child_files.val();
                self.rising.d.next = self.child_rising.val();
                self.falling.d.next = self.child_falling.val();
                self.untried.d.next = self.child_free.val();
                self.active.d.next = true;
                if self.left.val().any() {
                    self.stack.write_enable.next = true;
                    self.open_ranks.d.next = self.open_ranks.q.val() | self.current.q.val();
                }
            } else if self.left.val().any() {
                self.untried.d.next = self.left.val();
            } else if self.open_ranks.q.val().any() {
                self.current.d.next = self.deepest.val();
                self.rank.d.next = self.deepest_rank.val();
                self.open_ranks.d.next = self.open_ranks.q.val() & !self.deepest.val();
                self.from_stack.d.next = true;
            } else {
                self.active.d.next = false;
            }
        }
        if self.root.val() {
            self.current.d.next = self.top_slot.val();
            self.rank.d.next = 0.into();
            self.files.d.next = 0.into();
            self.rising.d.next = 0.into();
            self.falling.d.next = 0.into();
            self.untried.d.next = self.first_files.val();
            self.from_stack.d.next = false;
            self.open_ranks.d.next = 0.into();
            self.active.d.next = self.root_open.val() & self.first_files.val().any();
        }

        // The queen on the streamed rank.
        self.read_chain[0].next = 0.into();
        if self.read_slot.val().get_bit(0) {
            self.read_chain[0].next = self.queen[0].q.val();
        }
        for i in 1..self.read_chain.len() {
            self.read_chain[i].next = self.read_chain[i - 1].val();
            if self.read_slot.val().get_bit(i) {
                self.read_chain[i].next = self.read_chain[i - 1].val() | self.queen[i].q.val();
            }
        }
        for i in (NB - 1)..NB {
            self.read_queen.next = self.read_chain[i].val();
        }
        self.read_file.next = bit_cast::<8, NUMBER_BITS>(self.read_queen.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node of the N-queens tree in search order, as (rank, file).
    fn nodes_in_order(n: usize, placed: &mut Vec<usize>, out: &mut Vec<(usize, usize)>) {
        let rank = placed.len();
        for file in 0..n {
            let free = placed.iter().enumerate().all(|(r, &f)| f != file && f.abs_diff(file) != rank - r);
            if free {
                out.push((rank, file));
                placed.push(file);
                if rank + 1 < n {
                    nodes_in_order(n, placed, out);
                }
                placed.pop();
            }
        }
    }

    /// Placing from the root walks the whole tree in the reference's order,
    /// backtracks included, a queen a clock, and then stops searching; with
    /// clocks without a queen between (a solution streamed out), too. (The
    /// build's largest board, 9, has its last rank's number wrap to 0.)
    #[test]
    fn places_every_node_in_order_one_a_clock() {
        const NB: usize = 9;
        type Stack = RankStack<NB, { 4 * NB }, 3>;
        for pausing in [false, true] {
            for n in [1usize, 4, 5, 6, 8, 9] {
                let mut expected = Vec::new();
                nodes_in_order(n, &mut Vec::new(), &mut expected);
                let mut uut = Stack::default();
                uut.connect_all();
                let placed = std::sync::Arc::new(std::sync::Mutex::new((Vec::new(), 0)));
                let out = placed.clone();
                let mut sim = Simulation::new();
                sim.add_clock(5, |x: &mut Box<Stack>| x.clock.next = !x.clock.val());
                sim.add_testbench(move |mut sim: Sim<Stack>| {
                    let mut x = sim.init()?;
                    x.full.next = ((1u64 << n) - 1).into();
                    x.first_files.next = ((1u64 << n) - 1).into();
                    x.last_slot.next = (1u64 << (NB - n)).into();
                    x.open_child.next = true;
                    x.root.next = true;
                    x.root_open.next = true;
                    wait_clock_cycle!(sim, clock, x);
                    x.root.next = false;
                    let mut nodes = Vec::new();
                    let mut clocks = 0;
                    while x.searching.val() && clocks < 100_000 {
                        // Pausing: no queen in every third clock, and none
                        // for three clocks after a solution.
                        let pause = pausing && clocks % 3 == 2;
                        x.place.next = !pause;
                        if !pause {
                            let rank = NB - 1 - x.slot.val().to_u64().trailing_zeros() as usize;
                            nodes.push((rank, x.file.val().to_u64() as usize));
                            if pausing && rank + 1 == n {
                                for _ in 0..3 {
                                    wait_clock_cycle!(sim, clock, x);
                                    x.place.next = false;
                                    clocks += 1;
                                }
                            }
                        }
                        wait_clock_cycle!(sim, clock, x);
                        clocks += 1;
                    }
                    *out.lock().unwrap() = (nodes, clocks);
                    sim.done(x)
                });
                sim.run(Box::new(uut), 1_000_000).unwrap();
                let (nodes, clocks) = std::mem::take(&mut *placed.lock().unwrap());
                assert_eq!(nodes, expected, "N = {n}, pausing: {pausing}");
                if !pausing {
                    assert_eq!(clocks, expected.len(), "N = {n}: a queen a clock");
                }
            }
        }
    }
}
