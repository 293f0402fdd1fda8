//! Onward moves of every square at once: how many free squares lie a knight
//! move away from each square, read off for the current square's eight move
//! targets (Warnsdorff's degree) and as the two planes pruning needs (no
//! onward move, exactly one).

use rust_hdl::prelude::*;

use crate::tours::common::geometry::{Geometry, MoveShifts};

/// Onward counts over a board of `SQ` squares.
#[derive(LogicBlock)]
pub struct OnwardCounts<const SQ: usize> {
    /// The free squares: on the board and not visited.
    pub free: Signal<In, Bits<SQ>>,
    /// The current square's eight move targets in canonical order (each a
    /// one-hot square, or 0 where the move leaves the largest board).
    pub targets: [Signal<In, Bits<SQ>>; 8],
    /// The squares with no free square a knight move away.
    pub none: Signal<Out, Bits<SQ>>,
    /// The squares with exactly one.
    pub one: Signal<Out, Bits<SQ>>,
    /// Each target's count (bits 0-3; 32 wide so that packing four bits a
    /// move needs no casts). Only builds with the full count make it.
    pub target_count: [Signal<Out, Bits<32>>; 8],

    legal: [Constant<Bits<SQ>>; 8],
    shift_up: [Constant<Bits<16>>; 8],
    shift_down: [Constant<Bits<16>>; 8],
    // Builds with Warnsdorff's order add the counts up, as they need each
    // target's count anyway, and read `none` and `one` off them. The others
    // take `none` and `one` from the eight moves directly, as two halves of
    // four (a LUT each): two LUT levels instead of the count's adder tree,
    // on the step's longest path.
    full_count: Constant<bool>,

    onward: [Signal<Local, Bits<SQ>>; 8],
    pair_sum: [Signal<Local, Bits<SQ>>; 4],
    pair_carry: [Signal<Local, Bits<SQ>>; 4],
    quad_carry0: [Signal<Local, Bits<SQ>>; 2],
    quad_sum0: [Signal<Local, Bits<SQ>>; 2],
    quad_sum1: [Signal<Local, Bits<SQ>>; 2],
    quad_sum2: [Signal<Local, Bits<SQ>>; 2],
    total_carry0: Signal<Local, Bits<SQ>>,
    total_carry1: Signal<Local, Bits<SQ>>,
    count: [Signal<Local, Bits<SQ>>; 4],
    half_none: [Signal<Local, Bits<SQ>>; 2],
    half_one: [Signal<Local, Bits<SQ>>; 2],
}

impl<const SQ: usize> OnwardCounts<SQ> {
    /// For boards up to `geometry`'s size; with `full_count`, each target's
    /// count too (builds with Warnsdorff's order).
    pub fn new(geometry: Geometry, full_count: bool) -> Self {
        let MoveShifts { legal, up, down } = MoveShifts::new(geometry);
        OnwardCounts {
            free: Default::default(),
            targets: Default::default(),
            none: Default::default(),
            one: Default::default(),
            target_count: Default::default(),
            legal,
            shift_up: up,
            shift_down: down,
            full_count: Constant::new(full_count),
            onward: Default::default(),
            pair_sum: Default::default(),
            pair_carry: Default::default(),
            quad_carry0: Default::default(),
            quad_sum0: Default::default(),
            quad_sum1: Default::default(),
            quad_sum2: Default::default(),
            total_carry0: Default::default(),
            total_carry1: Default::default(),
            count: Default::default(),
            half_none: Default::default(),
            half_one: Default::default(),
        }
    }
}

impl<const SQ: usize> Logic for OnwardCounts<SQ> {
    #[hdl_gen]
    fn update(&mut self) {
        // The free squares one knight move away, as eight planes: plane k
        // marks the squares from which move k lands on a free square.
        for k in 0..8 {
            self.onward[k].next =
                ((self.free.val() >> self.shift_up[k].val()) << self.shift_down[k].val()) & self.legal[k].val();
        }
        // Summed bit-sliced into four bit-planes, as a tree (pairs, quads,
        // all eight) so the count is three adder stages deep, not seven.
        for p in 0..4 {
            self.pair_sum[p].next = self.onward[2 * p].val() ^ self.onward[2 * p + 1].val();
            self.pair_carry[p].next = self.onward[2 * p].val() & self.onward[2 * p + 1].val();
        }
        for q in 0..2 {
            self.quad_sum0[q].next = self.pair_sum[2 * q].val() ^ self.pair_sum[2 * q + 1].val();
            self.quad_carry0[q].next = self.pair_sum[2 * q].val() & self.pair_sum[2 * q + 1].val();
            self.quad_sum1[q].next =
                self.pair_carry[2 * q].val() ^ self.pair_carry[2 * q + 1].val() ^ self.quad_carry0[q].val();
            self.quad_sum2[q].next = (self.pair_carry[2 * q].val() & self.pair_carry[2 * q + 1].val())
                | (self.quad_carry0[q].val() & (self.pair_carry[2 * q].val() | self.pair_carry[2 * q + 1].val()));
        }
        self.count[0].next = self.quad_sum0[0].val() ^ self.quad_sum0[1].val();
        self.total_carry0.next = self.quad_sum0[0].val() & self.quad_sum0[1].val();
        self.count[1].next = self.quad_sum1[0].val() ^ self.quad_sum1[1].val() ^ self.total_carry0.val();
        self.total_carry1.next = (self.quad_sum1[0].val() & self.quad_sum1[1].val())
            | (self.total_carry0.val() & (self.quad_sum1[0].val() | self.quad_sum1[1].val()));
        self.count[2].next = self.quad_sum2[0].val() ^ self.quad_sum2[1].val() ^ self.total_carry1.val();
        self.count[3].next = (self.quad_sum2[0].val() & self.quad_sum2[1].val())
            | (self.total_carry1.val() & (self.quad_sum2[0].val() | self.quad_sum2[1].val()));
        for m in 0..8 {
            self.target_count[m].next = 0.into();
            if self.full_count.val() {
                self.target_count[m].next = bits::<32>(0)
                    .replace_bit(0, (self.targets[m].val() & self.count[0].val()).any())
                    .replace_bit(1, (self.targets[m].val() & self.count[1].val()).any())
                    .replace_bit(2, (self.targets[m].val() & self.count[2].val()).any())
                    .replace_bit(3, (self.targets[m].val() & self.count[3].val()).any());
            }
        }

        for h in 0..2 {
            self.half_none[h].next = !(self.onward[4 * h].val()
                | self.onward[4 * h + 1].val()
                | self.onward[4 * h + 2].val()
                | self.onward[4 * h + 3].val());
            self.half_one[h].next = ((self.onward[4 * h].val() ^ self.onward[4 * h + 1].val())
                & !(self.onward[4 * h + 2].val() | self.onward[4 * h + 3].val()))
                | ((self.onward[4 * h + 2].val() ^ self.onward[4 * h + 3].val())
                    & !(self.onward[4 * h].val() | self.onward[4 * h + 1].val()));
        }
        if self.full_count.val() {
            self.none.next = !(self.count[0].val() | self.count[1].val() | self.count[2].val() | self.count[3].val());
            self.one.next = self.count[0].val() & !(self.count[1].val() | self.count[2].val() | self.count[3].val());
        } else {
            self.none.next = self.half_none[0].val() & self.half_none[1].val();
            self.one.next =
                (self.half_one[0].val() & self.half_none[1].val()) | (self.half_none[0].val() & self.half_one[1].val());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tours::common::geometry::KNIGHT_STEPS;

    const W: usize = 5;
    const H: usize = 4;
    const SQ: usize = W * H;

    /// Free squares a knight move from `square`, counted in plain Rust.
    fn onward(free: u64, square: usize) -> u32 {
        let (file, rank) = ((square % W) as i32, (square / W) as i32);
        KNIGHT_STEPS
            .iter()
            .map(|(df, dr)| (file + df, rank + dr))
            .filter(|&(f, r)| (0..W as i32).contains(&f) && (0..H as i32).contains(&r))
            .filter(|&(f, r)| free >> (r as usize * W + f as usize) & 1 == 1)
            .count() as u32
    }

    fn check(full_count: bool) {
        let geometry = Geometry::new(W, H);
        let mut uut = OnwardCounts::<SQ>::new(geometry, full_count);
        uut.connect_all();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let free = seed & ((1 << SQ) - 1);
            let current = (seed >> 32) as usize % SQ;
            uut.free.next = free.into();
            let (file, rank) = ((current % W) as i32, (current / W) as i32);
            for (m, (df, dr)) in KNIGHT_STEPS.iter().enumerate() {
                let (f, r) = (file + df, rank + dr);
                let on_board = (0..W as i32).contains(&f) && (0..H as i32).contains(&r);
                uut.targets[m].next = if on_board { (1u64 << (r as usize * W + f as usize)).into() } else { 0.into() };
            }
            assert!(simulate(&mut uut, 100), "settles");
            for square in 0..SQ {
                let count = onward(free, square);
                assert_eq!(uut.none.val().get_bit(square), count == 0, "none at {square}, free {free:#x}");
                assert_eq!(uut.one.val().get_bit(square), count == 1, "one at {square}, free {free:#x}");
            }
            for (m, (df, dr)) in KNIGHT_STEPS.iter().enumerate() {
                let (f, r) = (file + df, rank + dr);
                let expected = if full_count && (0..W as i32).contains(&f) && (0..H as i32).contains(&r) {
                    onward(free, r as usize * W + f as usize)
                } else {
                    0
                };
                assert_eq!(uut.target_count[m].val().index() as u32, expected, "move {m} from {current}");
            }
        }
    }

    #[test]
    fn counts_onward_moves_of_every_square_with_the_full_count() {
        check(true);
    }

    #[test]
    fn reads_none_and_one_off_the_moves_without_it() {
        check(false);
    }
}
