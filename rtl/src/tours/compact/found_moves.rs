//! A visit's report as its pairs come in: the free neighbours, their free
//! neighbours after the visit and their closing bits, the next level's
//! moves.

use rust_hdl::prelude::*;

use super::grid::{EVEN_FILE_MOVES, ODD_FILE_MOVES};

/// The moves a visit found so far, with this clock's pair (combinational).
#[derive(LogicBlock)]
pub struct FoundMoves {
    /// The visit's stage: pair k's data comes in stage k + 2.
    pub stage: Signal<In, Bits<3>>,
    /// This clock's pair: each word's cell free, its ways after the visit,
    /// its closing bit.
    pub odd_free: Signal<In, bool>,
    pub even_free: Signal<In, bool>,
    pub odd_ways: Signal<In, Bits<4>>,
    pub even_ways: Signal<In, Bits<4>>,
    pub odd_closing: Signal<In, bool>,
    pub even_closing: Signal<In, bool>,
    /// What the earlier pairs found (registered).
    pub free_before: Signal<In, Bits<8>>,
    pub ways_before: Signal<In, Bits<32>>,
    pub closing_before: Signal<In, Bits<8>>,
    /// With this clock's pair.
    pub free: Signal<Out, Bits<8>>,
    pub ways: Signal<Out, Bits<32>>,
    pub closing: Signal<Out, Bits<8>>,

    // Pair k of a visit: its moves' bits and nibbles, its data's stage.
    odd_move: [Constant<Bits<8>>; 4],
    even_move: [Constant<Bits<8>>; 4],
    odd_shift: [Constant<Bits<32>>; 4],
    even_shift: [Constant<Bits<32>>; 4],
    stage_data: [Constant<Bits<3>>; 4],
    keep_all: Constant<Bits<32>>,
    odd_found: Signal<Local, Bits<8>>,
    even_found: Signal<Local, Bits<8>>,
    odd_ways_at: Signal<Local, Bits<32>>,
    even_ways_at: Signal<Local, Bits<32>>,
    keep: Signal<Local, Bits<32>>,
}

impl Default for FoundMoves {
    fn default() -> Self {
        fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
            Constant::new(value.into())
        }
        FoundMoves {
            stage: Default::default(),
            odd_free: Default::default(),
            even_free: Default::default(),
            odd_ways: Default::default(),
            even_ways: Default::default(),
            odd_closing: Default::default(),
            even_closing: Default::default(),
            free_before: Default::default(),
            ways_before: Default::default(),
            closing_before: Default::default(),
            free: Default::default(),
            ways: Default::default(),
            closing: Default::default(),
            odd_move: ODD_FILE_MOVES.map(|m| constant(1 << m)),
            even_move: EVEN_FILE_MOVES.map(|m| constant(1 << m)),
            odd_shift: ODD_FILE_MOVES.map(|m| constant(4 * m as u64)),
            even_shift: EVEN_FILE_MOVES.map(|m| constant(4 * m as u64)),
            stage_data: std::array::from_fn(|k| constant(k as u64 + 2)),
            keep_all: constant(0xFFFF_FFFF),
            odd_found: Default::default(),
            even_found: Default::default(),
            odd_ways_at: Default::default(),
            even_ways_at: Default::default(),
            keep: Default::default(),
        }
    }
}

impl Logic for FoundMoves {
    #[hdl_gen]
    fn update(&mut self) {
        self.odd_found.next = 0.into();
        self.even_found.next = 0.into();
        self.odd_ways_at.next = 0.into();
        self.even_ways_at.next = 0.into();
        self.keep.next = self.keep_all.val();
        for k in 0..4 {
            if self.stage.val() == self.stage_data[k].val() {
                if self.odd_free.val() {
                    self.odd_found.next = self.odd_move[k].val();
                }
                if self.even_free.val() {
                    self.even_found.next = self.even_move[k].val();
                }
                self.odd_ways_at.next = bit_cast::<32, 4>(self.odd_ways.val()) << self.odd_shift[k].val();
                self.even_ways_at.next = bit_cast::<32, 4>(self.even_ways.val()) << self.even_shift[k].val();
                self.keep.next =
                    !((bits::<32>(15) << self.odd_shift[k].val()) | (bits::<32>(15) << self.even_shift[k].val()));
            }
        }
        self.free.next = self.free_before.val() | self.odd_found.val() | self.even_found.val();
        self.ways.next = (self.ways_before.val() & self.keep.val()) | self.odd_ways_at.val() | self.even_ways_at.val();
        self.closing.next = self.closing_before.val();
        if self.odd_closing.val() {
            self.closing.next = self.closing_before.val() | self.odd_found.val();
        }
        if self.even_closing.val() {
            self.closing.next = self.closing_before.val() | self.even_found.val();
            if self.odd_closing.val() {
                self.closing.next = self.closing_before.val() | self.odd_found.val() | self.even_found.val();
            }
        }
    }
}
