//! The parent's side of a pop, worked out beside the rule (stage 2): the level below
//! the current one, as its stack entry was read (its square, the moves it
//! has not tried), its square one-hot, and the child its next move enters.

use rust_hdl::prelude::*;

use crate::tours::common::geometry::Geometry;
use crate::tours::wide::knight_moves::KnightMoves;

/// A stack entry: the moves not yet tried at bits 0-7, the level's square
/// from bit 8.
pub const ENTRY_BITS: usize = 16;

#[derive(LogicBlock)]
pub struct Parent<const SQ: usize, const LB: usize> {
    pub entry: Signal<In, Bits<ENTRY_BITS>>,
    /// The parent's square, one-hot and as an index.
    pub square: Signal<Out, Bits<SQ>>,
    pub square_at: Signal<Out, Bits<LB>>,
    /// It has a move left; the moves left after the next one.
    pub has_move: Signal<Out, bool>,
    pub rest: Signal<Out, Bits<8>>,
    /// The square its next move enters, one-hot and as an index, and the
    /// move's number.
    pub child: Signal<Out, Bits<SQ>>,
    pub child_at: Signal<Out, Bits<LB>>,
    pub move_index: Signal<Out, Bits<3>>,

    knight: KnightMoves<SQ, LB>,
    moves: Signal<Local, Bits<8>>,
    first: Signal<Local, Bits<8>>,
}

impl<const SQ: usize, const LB: usize> Parent<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        Parent {
            entry: Default::default(),
            square: Default::default(),
            square_at: Default::default(),
            has_move: Default::default(),
            rest: Default::default(),
            child: Default::default(),
            child_at: Default::default(),
            move_index: Default::default(),
            knight: KnightMoves::new(geometry),
            moves: Default::default(),
            first: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Parent<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.moves.next = self.entry.val().get_bits::<8>(0);
        // The fixed order: the lowest move first.
        self.first.next = self.moves.val() & (!self.moves.val() + 1);
        self.has_move.next = self.moves.val().any();
        self.rest.next = self.moves.val() & !self.first.val();
        self.square_at.next = self.entry.val().get_bits::<LB>(8);
        self.square.next = bits::<SQ>(1) << self.entry.val().get_bits::<LB>(8);
        self.knight.square.next = self.square.val();
        self.knight.index.next = self.square_at.val();
        self.knight.chosen.next = self.first.val();
        self.child.next = self.knight.child.val();
        self.child_at.next = self.knight.child_index.val();
        self.move_index.next = bits::<3>(0)
            .replace_bit(0, (self.first.val() & 0xAA).any())
            .replace_bit(1, (self.first.val() & 0xCC).any())
            .replace_bit(2, (self.first.val() & 0xF0).any());
    }
}
