//! An unvisit's next pair of writes: the lowest neighbour still pending in
//! each bank (written out: a carry chain here was the longest path). A
//! square's neighbours on odd files (moves 0, 3, 4, 7) are in one bank,
//! those on even files (moves 1, 2, 5, 6) in the other.

use rust_hdl::prelude::*;

/// The lowest pending move of each bank (combinational).
#[derive(LogicBlock, Default)]
pub struct PendingPicks {
    /// Pending moves, a bit each, by bank.
    pub odd_pending: Signal<In, Bits<8>>,
    pub even_pending: Signal<In, Bits<8>>,
    /// The lowest of each (one-hot, or none).
    pub odd_pick: Signal<Out, Bits<8>>,
    pub even_pick: Signal<Out, Bits<8>>,
}

impl Logic for PendingPicks {
    #[hdl_gen]
    fn update(&mut self) {
        self.odd_pick.next = bits::<8>(0)
            .replace_bit(0, self.odd_pending.val().get_bit(0))
            .replace_bit(3, self.odd_pending.val().get_bit(3) & !self.odd_pending.val().get_bit(0))
            .replace_bit(
                4,
                self.odd_pending.val().get_bit(4)
                    & !self.odd_pending.val().get_bit(0)
                    & !self.odd_pending.val().get_bit(3),
            )
            .replace_bit(
                7,
                self.odd_pending.val().get_bit(7)
                    & !self.odd_pending.val().get_bit(0)
                    & !self.odd_pending.val().get_bit(3)
                    & !self.odd_pending.val().get_bit(4),
            );
        self.even_pick.next = bits::<8>(0)
            .replace_bit(1, self.even_pending.val().get_bit(1))
            .replace_bit(2, self.even_pending.val().get_bit(2) & !self.even_pending.val().get_bit(1))
            .replace_bit(
                5,
                self.even_pending.val().get_bit(5)
                    & !self.even_pending.val().get_bit(1)
                    & !self.even_pending.val().get_bit(2),
            )
            .replace_bit(
                6,
                self.even_pending.val().get_bit(6)
                    & !self.even_pending.val().get_bit(1)
                    & !self.even_pending.val().get_bit(2)
                    & !self.even_pending.val().get_bit(5),
            );
    }
}
