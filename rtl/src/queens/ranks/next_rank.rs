//! Stage A's view of the next rank: what attacks it once the queen is
//! placed, its free files, and, in a constellation job, the edges' queens
//! there (from registers and the orders alone: off the step's path, which
//! it joins at one bit of each diagonal's mask).

use rust_hdl::prelude::*;

use super::NUMBER_BITS;

/// The rank above the current one (combinational).
#[derive(LogicBlock)]
pub struct NextRank<const NB: usize, const AB: usize> {
    /// The board's files, and N.
    pub full: Signal<In, Bits<NB>>,
    pub n: Signal<In, Bits<8>>,
    /// The current rank: its number, what attacks it, the queen placed.
    pub rank: Signal<In, Bits<AB>>,
    pub files: Signal<In, Bits<NB>>,
    pub rising: Signal<In, Bits<NB>>,
    pub falling: Signal<In, Bits<NB>>,
    pub queen_bit: Signal<In, Bits<NB>>,
    /// A constellation job's numbers (see [`super::RankPort`]).
    pub edges: Signal<In, bool>,
    pub last_rank_file: Signal<In, Bits<NUMBER_BITS>>,
    pub first_file_rank: Signal<In, Bits<NUMBER_BITS>>,
    pub last_file_rank: Signal<In, Bits<NUMBER_BITS>>,
    /// The next rank's attacks and free files.
    pub child_files: Signal<Out, Bits<NB>>,
    pub child_rising: Signal<Out, Bits<NB>>,
    pub child_falling: Signal<Out, Bits<NB>>,
    pub child_free: Signal<Out, Bits<NB>>,
    /// It holds an edge's queen (file a's or the last file's), on this bit.
    pub child_edge: Signal<Out, bool>,
    pub child_edge_bit: Signal<Out, Bits<NB>>,
    /// The last file's bit.
    pub last_file: Signal<Out, Bits<NB>>,

    edge_file: Signal<Local, Bits<NB>>,
    files_on: Signal<Local, Bits<NB>>,
    rising_on: Signal<Local, Bits<NB>>,
    falling_on: Signal<Local, Bits<NB>>,
    next_rank: Signal<Local, Bits<8>>,
    child_edge_a: Signal<Local, bool>,
    child_edge_last: Signal<Local, bool>,
    arrive_rising: Signal<Local, bool>,
    arrive_falling: Signal<Local, bool>,
}

impl<const NB: usize, const AB: usize> Default for NextRank<NB, AB> {
    fn default() -> Self {
        NextRank {
            full: Default::default(),
            n: Default::default(),
            rank: Default::default(),
            files: Default::default(),
            rising: Default::default(),
            falling: Default::default(),
            queen_bit: Default::default(),
            edges: Default::default(),
            last_rank_file: Default::default(),
            first_file_rank: Default::default(),
            last_file_rank: Default::default(),
            child_files: Default::default(),
            child_rising: Default::default(),
            child_falling: Default::default(),
            child_free: Default::default(),
            child_edge: Default::default(),
            child_edge_bit: Default::default(),
            last_file: Default::default(),
            edge_file: Default::default(),
            files_on: Default::default(),
            rising_on: Default::default(),
            falling_on: Default::default(),
            next_rank: Default::default(),
            child_edge_a: Default::default(),
            child_edge_last: Default::default(),
            arrive_rising: Default::default(),
            arrive_falling: Default::default(),
        }
    }
}

impl<const NB: usize, const AB: usize> Logic for NextRank<NB, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        // The last rank's queen's diagonals come onto the board at file a
        // on rank N - 1 - j rising and at the last file on rank j falling
        // (j its file; on the first rank they are the corners' queens',
        // taken at the root).
        self.edge_file.next = self.full.val() & !(self.full.val() >> 1);
        self.last_file.next = self.edge_file.val();
        self.next_rank.next = bit_cast::<8, AB>(self.rank.val()) + 1;
        self.child_edge_a.next =
            self.edges.val() & (self.next_rank.val() == bit_cast::<8, NUMBER_BITS>(self.first_file_rank.val()));
        self.child_edge_last.next =
            self.edges.val() & (self.next_rank.val() == bit_cast::<8, NUMBER_BITS>(self.last_file_rank.val()));
        self.child_edge.next = self.child_edge_a.val() | self.child_edge_last.val();
        self.child_edge_bit.next = self.edge_file.val();
        if self.child_edge_a.val() {
            self.child_edge_bit.next = bits::<NB>(1);
        }
        self.arrive_rising.next = self.edges.val()
            & ((self.next_rank.val() + bit_cast::<8, NUMBER_BITS>(self.last_rank_file.val()) + 1) == self.n.val());
        self.arrive_falling.next =
            self.edges.val() & (self.next_rank.val() == bit_cast::<8, NUMBER_BITS>(self.last_rank_file.val()));

        // The next rank's attacks: the diagonals move one file on.
        self.files_on.next = self.files.val() | self.queen_bit.val();
        self.rising_on.next = ((self.rising.val() | self.queen_bit.val()) << 1) & self.full.val();
        if self.arrive_rising.val() {
            self.rising_on.next = (((self.rising.val() | self.queen_bit.val()) << 1) & self.full.val()) | bits::<NB>(1);
        }
        self.falling_on.next = (self.falling.val() | self.queen_bit.val()) >> 1;
        if self.arrive_falling.val() {
            self.falling_on.next = ((self.falling.val() | self.queen_bit.val()) >> 1) | self.edge_file.val();
        }
        self.child_files.next = self.files_on.val();
        self.child_rising.next = self.rising_on.val();
        self.child_falling.next = self.falling_on.val();
        self.child_free.next = self.full.val() & !(self.files_on.val() | self.rising_on.val() | self.falling_on.val());
    }
}
