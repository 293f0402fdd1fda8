//! How a job's path carries its queens and, from constellations, its
//! constellation: one place for the bit layout the walker, the generator
//! and the solvers share.
//!
//! A job of the first ranks' queens is their files, [`FILE_BITS`] a rank
//! from rank 1 at bit 0. A constellation job is its four numbers
//! ([`Tuple`]: `b`, `a`, `j`, `i` from bit 0, five bits each) and above
//! them, at [`WEIGHT_AT`], the log2 of its weight.

use rust_hdl::prelude::*;

use crate::platform::JOB_PATH_BITS;

/// Bits of a rank's file in a job's path.
pub const FILE_BITS: usize = 5;

/// The deepest split level a job's path holds.
pub const MAX_JOB_RANKS: usize = JOB_PATH_BITS / FILE_BITS;
const _: () = assert!(MAX_JOB_RANKS == knights_protocol::MAX_QUEENS_SPLIT_LEVEL as usize);

/// Bits of a constellation's number (boards up to 32).
pub const NUMBER_BITS: usize = 5;

/// Bits of a constellation's four numbers packed.
pub const TUPLE_BITS: usize = 4 * NUMBER_BITS;

/// Where a constellation job's weight (its log2, two bits) sits in the path.
pub const WEIGHT_AT: usize = TUPLE_BITS;

/// Bits of a constellation job: its tuple and its weight.
pub const CONSTELLATION_JOB_BITS: usize = WEIGHT_AT + 2;

/// A constellation's four numbers, unpacked from a tuple (combinational):
/// the queens of rank 1 on file `i`, of the last rank on file `j`, of file
/// a on rank `a` and of the last file on rank `b` (the reference's
/// `Constellation`).
#[derive(LogicBlock, Default)]
pub struct Tuple {
    pub tuple: Signal<In, Bits<TUPLE_BITS>>,
    pub i: Signal<Out, Bits<NUMBER_BITS>>,
    pub j: Signal<Out, Bits<NUMBER_BITS>>,
    pub a: Signal<Out, Bits<NUMBER_BITS>>,
    pub b: Signal<Out, Bits<NUMBER_BITS>>,
}

impl Logic for Tuple {
    #[hdl_gen]
    fn update(&mut self) {
        self.b.next = self.tuple.val().get_bits::<NUMBER_BITS>(0);
        self.a.next = self.tuple.val().get_bits::<NUMBER_BITS>(5);
        self.j.next = self.tuple.val().get_bits::<NUMBER_BITS>(10);
        self.i.next = self.tuple.val().get_bits::<NUMBER_BITS>(15);
    }
}

/// A constellation's four numbers packed into a tuple (combinational).
#[derive(LogicBlock, Default)]
pub struct TuplePack {
    pub i: Signal<In, Bits<NUMBER_BITS>>,
    pub j: Signal<In, Bits<NUMBER_BITS>>,
    pub a: Signal<In, Bits<NUMBER_BITS>>,
    pub b: Signal<In, Bits<NUMBER_BITS>>,
    pub tuple: Signal<Out, Bits<TUPLE_BITS>>,
}

impl Logic for TuplePack {
    #[hdl_gen]
    fn update(&mut self) {
        self.tuple.next = (bit_cast::<TUPLE_BITS, NUMBER_BITS>(self.i.val()) << 15)
            | (bit_cast::<TUPLE_BITS, NUMBER_BITS>(self.j.val()) << 10)
            | (bit_cast::<TUPLE_BITS, NUMBER_BITS>(self.a.val()) << 5)
            | bit_cast::<TUPLE_BITS, NUMBER_BITS>(self.b.val());
    }
}

/// A constellation job (the low bits of a path): its numbers and its
/// weight (combinational, both ways).
#[derive(LogicBlock, Default)]
pub struct ConstellationJob {
    /// A path to read, and the numbers (see [`Tuple`]) and weight's log2 in
    /// it.
    pub path: Signal<In, Bits<CONSTELLATION_JOB_BITS>>,
    pub i: Signal<Out, Bits<NUMBER_BITS>>,
    pub j: Signal<Out, Bits<NUMBER_BITS>>,
    pub a: Signal<Out, Bits<NUMBER_BITS>>,
    pub b: Signal<Out, Bits<NUMBER_BITS>>,
    pub weight_log2: Signal<Out, Bits<2>>,
    /// A tuple and weight to write, and the path of them.
    pub new_tuple: Signal<In, Bits<TUPLE_BITS>>,
    pub new_weight_log2: Signal<In, Bits<2>>,
    pub new_path: Signal<Out, Bits<CONSTELLATION_JOB_BITS>>,

    numbers: Tuple,
}

impl Logic for ConstellationJob {
    #[hdl_gen]
    fn update(&mut self) {
        self.numbers.tuple.next = self.path.val().get_bits::<TUPLE_BITS>(0);
        self.i.next = self.numbers.i.val();
        self.j.next = self.numbers.j.val();
        self.a.next = self.numbers.a.val();
        self.b.next = self.numbers.b.val();
        self.weight_log2.next = self.path.val().get_bits::<2>(20);
        self.new_path.next = bit_cast::<CONSTELLATION_JOB_BITS, TUPLE_BITS>(self.new_tuple.val())
            | (bit_cast::<CONSTELLATION_JOB_BITS, 2>(self.new_weight_log2.val()) << 20);
    }
}
