//! Count mode's last two ranks in one step: a queen placed on rank N - 2
//! (from 1) leaves two files open, so what lies above it is known at once:
//! a queen on rank N - 1 on either open file it has free, and for each, a
//! solution if the other open file is free on rank N and not next to it.

use rust_hdl::prelude::*;

/// The last two ranks, counted (combinational, in stage B: off the step's
/// path, into registers the search reads in its next turn).
#[derive(LogicBlock)]
pub struct LastTwoRanks<const NB: usize> {
    /// A queen was placed on rank N - 2, with the rank above open to it.
    pub at_tail: Signal<In, bool>,
    pub placed: Signal<In, bool>,
    pub open_child: Signal<In, bool>,
    /// The two files open to the ranks above; rank N - 1's attacks and
    /// free files.
    pub open_files: Signal<In, Bits<NB>>,
    pub child_rising: Signal<In, Bits<NB>>,
    pub child_falling: Signal<In, Bits<NB>>,
    pub child_free: Signal<In, Bits<NB>>,
    /// The step counts them instead of entering rank N - 1.
    pub counted: Signal<Out, bool>,
    /// Queens on rank N - 1, and solutions.
    pub queens: Signal<Out, Bits<4>>,
    pub solutions: Signal<Out, Bits<4>>,

    last_free: Signal<Local, Bits<NB>>,
    apart: Signal<Local, bool>,
}

impl<const NB: usize> Default for LastTwoRanks<NB> {
    fn default() -> Self {
        LastTwoRanks {
            at_tail: Default::default(),
            placed: Default::default(),
            open_child: Default::default(),
            open_files: Default::default(),
            child_rising: Default::default(),
            child_falling: Default::default(),
            child_free: Default::default(),
            counted: Default::default(),
            queens: Default::default(),
            solutions: Default::default(),
            last_free: Default::default(),
            apart: Default::default(),
        }
    }
}

impl<const NB: usize> Logic for LastTwoRanks<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.counted.next = self.at_tail.val() & self.placed.val() & self.open_child.val();
        // The open files free on the last rank from the ranks below (its
        // diagonals one file further on); whether the two are apart (next
        // to each other they attack each other whichever way).
        self.last_free.next =
            self.open_files.val() & !((self.child_rising.val() << 1) | (self.child_falling.val() >> 1));
        self.apart.next = !(self.open_files.val() & (self.open_files.val() << 1)).any();
        // Queens on rank N - 1: one per free file (both files free: two).
        // Solutions: both free there, one per file free on the last rank
        // (each pairs with the other); one free, one if the other is.
        self.queens.next = 0.into();
        self.solutions.next = 0.into();
        if self.child_free.val().any() {
            self.queens.next = 1.into();
            if self.apart.val() & (self.last_free.val() & !self.child_free.val()).any() {
                self.solutions.next = 1.into();
            }
        }
        if self.child_free.val() == self.open_files.val() {
            self.queens.next = 2.into();
            self.solutions.next = 0.into();
            if self.apart.val() & self.last_free.val().any() {
                self.solutions.next = 1.into();
                if self.last_free.val() == self.open_files.val() {
                    self.solutions.next = 2.into();
                }
            }
        }
    }
}
