//! Move select: of the moves still to try at a level, the one to take now
//! (least Warnsdorff degree, ties to the lower canonical index; with the
//! fixed order every degree is 0, so the lowest index) and the rest.
//!
//! Each move gets the key `degree * 8 + index` (all eight differ); every pair
//! of keys is compared at once and the move that no other candidate ranks
//! before wins. (A serial minimum over the eight moves was the engine's
//! critical path: seven compares deep instead of one.)

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct MoveSelect {
    /// The candidate moves, bit `m` for canonical move `m`.
    pub candidates: Signal<In, Bits<8>>,
    /// Each move's degree, four bits a move (move `m` at bit `4 m`).
    pub degrees: Signal<In, Bits<32>>,
    /// The move to take (one-hot), or 0 when there is no candidate.
    pub first: Signal<Out, Bits<8>>,
    /// The candidates left after it.
    pub rest: Signal<Out, Bits<8>>,

    degree_shift: [Constant<Bits<8>>; 8],
    move_index: [Constant<Bits<32>>; 8],
    key: [Signal<Local, Bits<32>>; 8],
    ranks_before: [Signal<Local, Bits<8>>; 8],
    beaten: Signal<Local, Bits<8>>,
}

impl Default for MoveSelect {
    fn default() -> Self {
        MoveSelect {
            candidates: Default::default(),
            degrees: Default::default(),
            first: Default::default(),
            rest: Default::default(),
            degree_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            move_index: std::array::from_fn(|m| Constant::new((m as u64).into())),
            key: Default::default(),
            ranks_before: Default::default(),
            beaten: Default::default(),
        }
    }
}

impl Logic for MoveSelect {
    #[hdl_gen]
    fn update(&mut self) {
        for m in 0..8 {
            self.key[m].next =
                (((self.degrees.val() >> self.degree_shift[m].val()) & 15) << 3) | self.move_index[m].val();
        }
        // Bit i of `ranks_before[j]`: candidate j comes before move i.
        for j in 0..8 {
            self.ranks_before[j].next = 0.into();
            if self.candidates.val().get_bit(j) {
                self.ranks_before[j].next = bits::<8>(0)
                    .replace_bit(0, self.key[j].val() < self.key[0].val())
                    .replace_bit(1, self.key[j].val() < self.key[1].val())
                    .replace_bit(2, self.key[j].val() < self.key[2].val())
                    .replace_bit(3, self.key[j].val() < self.key[3].val())
                    .replace_bit(4, self.key[j].val() < self.key[4].val())
                    .replace_bit(5, self.key[j].val() < self.key[5].val())
                    .replace_bit(6, self.key[j].val() < self.key[6].val())
                    .replace_bit(7, self.key[j].val() < self.key[7].val());
            }
        }
        self.beaten.next = self.ranks_before[0].val()
            | self.ranks_before[1].val()
            | self.ranks_before[2].val()
            | self.ranks_before[3].val()
            | self.ranks_before[4].val()
            | self.ranks_before[5].val()
            | self.ranks_before[6].val()
            | self.ranks_before[7].val();
        self.first.next = self.candidates.val() & !self.beaten.val();
        self.rest.next = self.candidates.val() & !self.first.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_least_degree_then_the_lowest_index() {
        let mut uut = MoveSelect::default();
        uut.connect_all();
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        for round in 0..1000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let candidates = seed & 0xff;
            // Small degrees, so that ties are common; every fifth round the
            // fixed order (all degrees 0).
            let degrees: Vec<u64> =
                (0..8).map(|m| if round % 5 == 0 { 0 } else { (seed >> (8 + 3 * m)) & 3 }).collect();
            uut.candidates.next = candidates.into();
            uut.degrees.next = degrees.iter().enumerate().map(|(m, d)| d << (4 * m)).sum::<u64>().into();
            assert!(simulate(&mut uut, 100), "settles");
            let best = (0..8).filter(|&m| candidates >> m & 1 == 1).min_by_key(|&m| (degrees[m], m));
            let first = best.map_or(0, |m| 1u64 << m);
            assert_eq!(uut.first.val().index() as u64, first, "{candidates:#010b} {degrees:?}");
            assert_eq!(uut.rest.val().index() as u64, candidates & !first);
        }
    }
}
