//! The parent's side of a pop, from the level below the current one as its
//! stack entry was read (its square, the moves it has not tried): worked out
//! in stage 1 beside the tallies, except the child its next move enters as a
//! one-hot square, which stage 2 picks from the square's targets. (Done in
//! one stage, the entry's decode, the next move and the one-hot pick were
//! the ring's longest path.)

use rust_hdl::prelude::*;

use crate::tours::common::geometry::Geometry;
use crate::tours::common::job_path::MoveIndex;

/// A stack entry: the moves not yet tried at bits 0-7, the level's square
/// from bit 8.
pub const ENTRY_BITS: usize = 16;

#[derive(LogicBlock)]
pub struct ParentEntry<const SQ: usize, const LB: usize> {
    pub entry: Signal<In, Bits<ENTRY_BITS>>,
    /// The parent's square, one-hot and as an index.
    pub square: Signal<Out, Bits<SQ>>,
    pub square_at: Signal<Out, Bits<LB>>,
    /// It has a move left; its next move (one-hot) and the moves after it.
    pub has_move: Signal<Out, bool>,
    pub next_move: Signal<Out, Bits<8>>,
    pub rest: Signal<Out, Bits<8>>,
    /// The square the next move enters, as an index, and the move's number.
    pub child_at: Signal<Out, Bits<LB>>,
    pub move_index: Signal<Out, Bits<3>>,

    first: FirstMove,
    index_of_first: MoveIndex,
    // Move m's index offset, modulo 2^LB.
    delta: [Constant<Bits<LB>>; 8],
    moves: Signal<Local, Bits<8>>,
    offset: Signal<Local, Bits<LB>>,
}

impl<const SQ: usize, const LB: usize> ParentEntry<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        ParentEntry {
            entry: Default::default(),
            square: Default::default(),
            square_at: Default::default(),
            has_move: Default::default(),
            next_move: Default::default(),
            rest: Default::default(),
            child_at: Default::default(),
            move_index: Default::default(),
            first: Default::default(),
            index_of_first: Default::default(),
            delta: geometry.move_offsets(),
            moves: Default::default(),
            offset: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for ParentEntry<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.moves.next = self.entry.val().get_bits::<8>(0);
        // The fixed order: the lowest move first.
        self.first.moves.next = self.moves.val();
        self.next_move.next = self.first.first.val();
        self.has_move.next = self.moves.val().any();
        self.rest.next = self.moves.val() & !self.first.first.val();
        self.square_at.next = self.entry.val().get_bits::<LB>(8);
        self.square.next = bits::<SQ>(1) << self.entry.val().get_bits::<LB>(8);
        // The offset picked first, then one adder.
        self.offset.next = 0.into();
        for m in 0..8 {
            if self.first.first.val().get_bit(m) {
                self.offset.next = self.delta[m].val();
            }
        }
        self.child_at.next = self.entry.val().get_bits::<LB>(8) + self.offset.val();
        self.index_of_first.move_bit.next = self.first.first.val();
        self.move_index.next = self.index_of_first.index.val();
    }
}

/// The lowest of eight moves, one-hot (0 for none): each bit against an OR
/// of the bits below it, side by side (a chain of ORs, or a carry chain,
/// puts up to seven cells in a row on these paths).
#[derive(LogicBlock, Default)]
pub struct FirstMove {
    pub moves: Signal<In, Bits<8>>,
    pub first: Signal<Out, Bits<8>>,
}

impl Logic for FirstMove {
    #[hdl_gen]
    fn update(&mut self) {
        self.first.next = bits::<8>(0)
            .replace_bit(0, self.moves.val().get_bit(0))
            .replace_bit(1, self.moves.val().get_bit(1) & !(self.moves.val() & 0x01).any())
            .replace_bit(2, self.moves.val().get_bit(2) & !(self.moves.val() & 0x03).any())
            .replace_bit(3, self.moves.val().get_bit(3) & !(self.moves.val() & 0x07).any())
            .replace_bit(4, self.moves.val().get_bit(4) & !(self.moves.val() & 0x0F).any())
            .replace_bit(5, self.moves.val().get_bit(5) & !(self.moves.val() & 0x1F).any())
            .replace_bit(6, self.moves.val().get_bit(6) & !(self.moves.val() & 0x3F).any())
            .replace_bit(7, self.moves.val().get_bit(7) & !(self.moves.val() & 0x7F).any());
    }
}
