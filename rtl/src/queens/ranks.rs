//! The N-Queens solver's data path: one entry per rank, and the queen placed
//! each clock.
//!
//! Each rank's entry holds the files and both diagonals attacked from the
//! ranks below (as they stood when the rank was entered) and the file of its
//! queen; a bit per rank says it has had no queen yet since it was entered.
//! Its untried files are then its free files past its queen's (files go
//! a→z), so they need no register of their own. A bit per rank, `open`,
//! marks the ranks of the current path with files left to try. Every clock
//! places a queen on the deepest open rank, its lowest untried file: on the
//! newest rank when it has a free file, or straight back at the deepest rank
//! that still has one (a backtrack over any number of ranks, in the same
//! clock). Ranks deeper than that are all closed, so they need no clearing.
//!
//! Entries are kept in *slots*: rank `r` in slot `MAX - 1 - r`, so that the
//! deepest open rank is the lowest set bit of `open` (`x & -x`, a carry
//! chain) and the next rank's slot is one lower. Slot vectors are one-hot.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RankStack<const NB: usize> {
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
    /// Places a queen: on the deepest open rank, or with `forced`, on the
    /// rank of `forced_slot` at `forced_file` (a job's path replayed: nothing
    /// else is tried there). The next rank is opened if it has a free file
    /// and `open_child` (a job handed to another engine is not).
    pub place: Signal<In, bool>,
    pub forced: Signal<In, bool>,
    pub forced_slot: Signal<In, Bits<NB>>,
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
    file_number: Vec<Constant<Bits<5>>>,
    files: Vec<DFF<Bits<NB>>>,
    rising: Vec<DFF<Bits<NB>>>,
    falling: Vec<DFF<Bits<NB>>>,
    queen: Vec<DFF<Bits<5>>>,
    // Ranks entered with no queen tried yet, a bit a slot.
    fresh: DFF<Bits<NB>>,
    open_ranks: DFF<Bits<NB>>,

    // The chosen rank's entry: one-hot AND-OR chains over the slots.
    pick_files: Vec<Signal<Local, Bits<NB>>>,
    pick_rising: Vec<Signal<Local, Bits<NB>>>,
    pick_falling: Vec<Signal<Local, Bits<NB>>>,
    read_chain: Vec<Signal<Local, Bits<5>>>,
    entry_queen: Signal<Local, Bits<5>>,
    read_queen: Signal<Local, Bits<5>>,
    entry_untried: Signal<Local, Bits<NB>>,
    past_queen: Signal<Local, Bits<NB>>,
    entry_files: Signal<Local, Bits<NB>>,
    entry_rising: Signal<Local, Bits<NB>>,
    entry_falling: Signal<Local, Bits<NB>>,
    // The queen's bit, and its file number (an OR chain over the bits).
    queen_bit: Signal<Local, Bits<NB>>,
    file_chain: Vec<Signal<Local, Bits<5>>>,
    placed_file: Signal<Local, Bits<5>>,
    pick_queen: Vec<Signal<Local, Bits<5>>>,
    left: Signal<Local, Bits<NB>>,
    child_slot: Signal<Local, Bits<NB>>,
    child_files: Signal<Local, Bits<NB>>,
    child_rising: Signal<Local, Bits<NB>>,
    child_falling: Signal<Local, Bits<NB>>,
    child_free: Signal<Local, Bits<NB>>,
    open_after: Signal<Local, Bits<NB>>,
}

/// The slot of rank 1: the top bit of a slot vector.
pub fn top_slot<const NB: usize>() -> Constant<Bits<NB>> {
    Constant::new(Bits::<NB>::from(1u64 << (NB - 1)))
}

/// One default value per slot.
fn slots<T: Default>(count: usize) -> Vec<T> {
    (0..count).map(|_| T::default()).collect()
}

impl<const NB: usize> Default for RankStack<NB> {
    fn default() -> Self {
        assert!((1..=32).contains(&NB), "a queen's file goes out as one byte; boards up to 32");
        RankStack {
            clock: Default::default(),
            full: Default::default(),
            first_files: Default::default(),
            last_slot: Default::default(),
            root: Default::default(),
            root_open: Default::default(),
            place: Default::default(),
            forced: Default::default(),
            forced_slot: Default::default(),
            forced_file: Default::default(),
            open_child: Default::default(),
            searching: Default::default(),
            slot: Default::default(),
            file: Default::default(),
            at_last_rank: Default::default(),
            read_slot: Default::default(),
            read_file: Default::default(),
            top_slot: top_slot(),
            file_number: (0..NB).map(|file| Constant::new((file as u64).into())).collect(),
            fresh: Default::default(),
            files: slots(NB),
            rising: slots(NB),
            falling: slots(NB),
            queen: slots(NB),
            open_ranks: Default::default(),
            pick_files: slots(NB),
            pick_rising: slots(NB),
            pick_falling: slots(NB),
            read_chain: slots(NB),
            entry_queen: Default::default(),
            read_queen: Default::default(),
            entry_untried: Default::default(),
            past_queen: Default::default(),
            entry_files: Default::default(),
            entry_rising: Default::default(),
            entry_falling: Default::default(),
            queen_bit: Default::default(),
            file_chain: slots(NB),
            placed_file: Default::default(),
            pick_queen: slots(NB),
            left: Default::default(),
            child_slot: Default::default(),
            child_files: Default::default(),
            child_rising: Default::default(),
            child_falling: Default::default(),
            child_free: Default::default(),
            open_after: Default::default(),
        }
    }
}

impl<const NB: usize> Logic for RankStack<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, open_ranks, fresh);
        for i in 0..self.files.len() {
            self.files[i].clock.next = self.clock.val();
            self.rising[i].clock.next = self.clock.val();
            self.falling[i].clock.next = self.clock.val();
            self.queen[i].clock.next = self.clock.val();
            self.files[i].d.next = self.files[i].q.val();
            self.rising[i].d.next = self.rising[i].q.val();
            self.falling[i].d.next = self.falling[i].q.val();
            self.queen[i].d.next = self.queen[i].q.val();
        }

        // The rank: the deepest open one, or the replayed one.
        self.searching.next = self.open_ranks.q.val().any();
        self.slot.next = self.open_ranks.q.val() & (!self.open_ranks.q.val() + 1);
        if self.forced.val() {
            self.slot.next = self.forced_slot.val();
        }
        self.at_last_rank.next = (self.slot.val() & self.last_slot.val()).any();
        self.child_slot.next = self.slot.val() >> 1;

        // Its entry, and the rank being streamed.
        self.pick_files[0].next = 0.into();
        self.pick_rising[0].next = 0.into();
        self.pick_falling[0].next = 0.into();
        self.read_chain[0].next = 0.into();
        if self.slot.val().get_bit(0) {
            self.pick_files[0].next = self.files[0].q.val();
            self.pick_rising[0].next = self.rising[0].q.val();
            self.pick_falling[0].next = self.falling[0].q.val();
        }
        self.pick_queen[0].next = 0.into();
        if self.slot.val().get_bit(0) {
            self.pick_queen[0].next = self.queen[0].q.val();
        }
        if self.read_slot.val().get_bit(0) {
            self.read_chain[0].next = self.queen[0].q.val();
        }
        for i in 1..self.files.len() {
            self.pick_queen[i].next = self.pick_queen[i - 1].val();
            self.pick_files[i].next = self.pick_files[i - 1].val();
            self.pick_rising[i].next = self.pick_rising[i - 1].val();
            self.pick_falling[i].next = self.pick_falling[i - 1].val();
            self.read_chain[i].next = self.read_chain[i - 1].val();
            if self.slot.val().get_bit(i) {
                self.pick_queen[i].next = self.pick_queen[i - 1].val() | self.queen[i].q.val();
                self.pick_files[i].next = self.pick_files[i - 1].val() | self.files[i].q.val();
                self.pick_rising[i].next = self.pick_rising[i - 1].val() | self.rising[i].q.val();
                self.pick_falling[i].next = self.pick_falling[i - 1].val() | self.falling[i].q.val();
            }
            if self.read_slot.val().get_bit(i) {
                self.read_chain[i].next = self.read_chain[i - 1].val() | self.queen[i].q.val();
            }
        }
        // The chains' last links. (rust-hdl reads an index only with loop
        // variables in it, so a one-pass loop names the last slot.)
        for i in (NB - 1)..NB {
            self.entry_queen.next = self.pick_queen[i].val();
            self.entry_files.next = self.pick_files[i].val();
            self.entry_rising.next = self.pick_rising[i].val();
            self.entry_falling.next = self.pick_falling[i].val();
            self.read_queen.next = self.read_chain[i].val();
        }
        self.read_file.next = bit_cast::<8, 5>(self.read_queen.val());

        // Its untried files: the free ones (on rank 1, of the first rank's),
        // past its last queen's unless it has had none.
        self.entry_untried.next =
            self.full.val() & !(self.entry_files.val() | self.entry_rising.val() | self.entry_falling.val());
        if (self.slot.val() & self.top_slot.val()).any() {
            self.entry_untried.next = self.entry_untried.val() & self.first_files.val();
        }
        // (A compare per file against a constant, not `!((2 << queen) - 1)`:
        // the subtraction was a carry chain on the step's longest path.)
        self.past_queen.next = 0.into();
        for i in 0..self.file_number.len() {
            self.past_queen.next =
                self.past_queen.val().replace_bit(i, self.entry_queen.val() < self.file_number[i].val());
        }
        if !(self.slot.val() & self.fresh.q.val()).any() {
            self.entry_untried.next = self.entry_untried.val() & self.past_queen.val();
        }

        // The queen: the lowest untried file, or the forced one.
        self.queen_bit.next = self.entry_untried.val() & (!self.entry_untried.val() + 1);
        if self.forced.val() {
            self.queen_bit.next = bits::<NB>(1) << self.forced_file.val();
        }
        self.file_chain[0].next = 0.into();
        for i in 1..self.file_chain.len() {
            self.file_chain[i].next = self.file_chain[i - 1].val();
            if self.queen_bit.val().get_bit(i) {
                self.file_chain[i].next = self.file_chain[i - 1].val() | self.file_number[i].val();
            }
        }
        for i in (NB - 1)..NB {
            self.placed_file.next = self.file_chain[i].val();
        }
        self.file.next = bit_cast::<8, 5>(self.placed_file.val());
        self.left.next = self.entry_untried.val() & !self.queen_bit.val();
        if self.forced.val() {
            self.left.next = 0.into();
        }

        // The next rank's attacks: the diagonals move one file on.
        self.child_files.next = self.entry_files.val() | self.queen_bit.val();
        self.child_rising.next = ((self.entry_rising.val() | self.queen_bit.val()) << 1) & self.full.val();
        self.child_falling.next = (self.entry_falling.val() | self.queen_bit.val()) >> 1;
        self.child_free.next =
            self.full.val() & !(self.child_files.val() | self.child_rising.val() | self.child_falling.val());

        self.open_after.next = self.open_ranks.q.val() & !self.slot.val();
        if self.left.val().any() {
            self.open_after.next = self.open_ranks.q.val();
        }
        if self.open_child.val() & !self.at_last_rank.val() & self.child_free.val().any() {
            self.open_after.next = self.open_after.val() | self.child_slot.val();
        }

        if self.place.val() {
            self.open_ranks.d.next = self.open_after.val();
            self.fresh.d.next = (self.fresh.q.val() & !self.slot.val()) | self.child_slot.val();
            for i in 0..self.files.len() {
                if self.slot.val().get_bit(i) {
                    self.queen[i].d.next = self.placed_file.val();
                }
                if self.child_slot.val().get_bit(i) {
                    self.files[i].d.next = self.child_files.val();
                    self.rising[i].d.next = self.child_rising.val();
                    self.falling[i].d.next = self.child_falling.val();
                }
            }
        }
        if self.root.val() {
            self.open_ranks.d.next = 0.into();
            if self.root_open.val() & self.first_files.val().any() {
                self.open_ranks.d.next = self.top_slot.val();
            }
            self.fresh.d.next = self.top_slot.val();
            for i in (NB - 1)..NB {
                self.files[i].d.next = 0.into();
                self.rising[i].d.next = 0.into();
                self.falling[i].d.next = 0.into();
            }
        }
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

    /// Placing every clock from the root walks the whole tree in the
    /// reference's order, backtracks included, and then stops searching.
    #[test]
    fn places_every_node_in_order_one_a_clock() {
        const NB: usize = 8;
        for n in [1usize, 4, 5, 6] {
            let mut expected = Vec::new();
            nodes_in_order(n, &mut Vec::new(), &mut expected);
            let mut uut = RankStack::<NB>::default();
            uut.connect_all();
            let placed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let out = placed.clone();
            let mut sim = Simulation::new();
            sim.add_clock(5, |x: &mut Box<RankStack<NB>>| x.clock.next = !x.clock.val());
            sim.add_testbench(move |mut sim: Sim<RankStack<NB>>| {
                let mut x = sim.init()?;
                x.full.next = ((1u64 << n) - 1).into();
                x.first_files.next = ((1u64 << n) - 1).into();
                x.last_slot.next = (1u64 << (NB - n)).into();
                x.open_child.next = true;
                x.root.next = true;
                x.root_open.next = true;
                wait_clock_cycle!(sim, clock, x);
                x.root.next = false;
                x.place.next = true;
                let mut nodes = Vec::new();
                while x.searching.val() && nodes.len() < 1000 {
                    let rank = NB - 1 - x.slot.val().to_u64().trailing_zeros() as usize;
                    nodes.push((rank, x.file.val().to_u64() as usize));
                    wait_clock_cycle!(sim, clock, x);
                }
                *out.lock().unwrap() = nodes;
                sim.done(x)
            });
            sim.run(Box::new(uut), 100_000).unwrap();
            assert_eq!(*placed.lock().unwrap(), expected, "N = {n}");
        }
    }
}
