//! Stage A's queen: the current rank's lowest untried file, or a job's
//! forced one, its number, and the files the rank keeps for later if the
//! queen is placed (whether it is, the state machine's order, is left to
//! stage B: off this block's carry chain).

use rust_hdl::prelude::*;

use super::NUMBER_BITS;

/// The queen a rank places (combinational).
#[derive(LogicBlock)]
pub struct QueenChoice<const NB: usize> {
    /// The rank's untried files.
    pub untried: Signal<In, Bits<NB>>,
    /// The queen goes on `forced_file` (a job's path: nothing else is tried
    /// there).
    pub forced: Signal<In, bool>,
    pub forced_file: Signal<In, Bits<8>>,
    /// The queen's bit and its file's number.
    pub queen_bit: Signal<Out, Bits<NB>>,
    pub file: Signal<Out, Bits<NUMBER_BITS>>,
    /// The files the rank keeps once its queen is placed, and whether it
    /// keeps any.
    pub left: Signal<Out, Bits<NB>>,
    pub left_any: Signal<Out, bool>,

    // The numbers 0 to NB - 1.
    index: Vec<Constant<Bits<NUMBER_BITS>>>,
    below_lowest: Signal<Local, Bits<NB>>,
    lowest_bit: Signal<Local, Bits<NB>>,
    // The lowest bit's number: an OR chain over the bits.
    file_chain: Vec<Signal<Local, Bits<NUMBER_BITS>>>,
}

impl<const NB: usize> Default for QueenChoice<NB> {
    fn default() -> Self {
        QueenChoice {
            untried: Default::default(),
            forced: Default::default(),
            forced_file: Default::default(),
            queen_bit: Default::default(),
            file: Default::default(),
            left: Default::default(),
            left_any: Default::default(),
            index: (0..NB).map(|i| Constant::new((i as u64).into())).collect(),
            below_lowest: Default::default(),
            lowest_bit: Default::default(),
            file_chain: (0..NB).map(|_| Default::default()).collect(),
        }
    }
}

impl<const NB: usize> Logic for QueenChoice<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        // The lowest untried file, or the forced one. The lowest one's
        // number is encoded apart from the forced one's (the orders, the
        // end of a long path, choose last).
        // (One carry chain for both: x - 1 keeps x's bits above its lowest
        // and sets those below, so x & !(x - 1) is the lowest and
        // x & (x - 1) the rest.)
        self.below_lowest.next = self.untried.val() - 1;
        self.lowest_bit.next = self.untried.val() & !self.below_lowest.val();
        self.queen_bit.next = self.lowest_bit.val();
        if self.forced.val() {
            self.queen_bit.next = bits::<NB>(1) << self.forced_file.val();
        }
        self.file_chain[0].next = 0.into();
        for i in 1..self.file_chain.len() {
            self.file_chain[i].next = self.file_chain[i - 1].val();
            if self.lowest_bit.val().get_bit(i) {
                self.file_chain[i].next = self.file_chain[i - 1].val() | self.index[i].val();
            }
        }
        // (rust-hdl reads an index only with loop variables in it, so a
        // one-pass loop names the last link.)
        for i in (NB - 1)..NB {
            self.file.next = self.file_chain[i].val();
        }
        if self.forced.val() {
            self.file.next = bit_cast::<NUMBER_BITS, 8>(self.forced_file.val());
        }
        // The files the rank keeps: all its untried ones but the lowest,
        // none on a job's path.
        self.left.next = self.untried.val() & self.below_lowest.val();
        if self.forced.val() {
            self.left.next = 0.into();
        }
        self.left_any.next = self.left.val().any();
    }
}
