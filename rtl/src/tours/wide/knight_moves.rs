//! The knight moves from one square: its eight targets, as constant shifts
//! of the one-hot board vector (masked first by the squares from which the
//! move stays on the largest board), their union, and the child a chosen
//! move leads to, one-hot and as an index.

use rust_hdl::prelude::*;

use crate::tours::common::geometry::{Geometry, MoveShifts};

#[derive(LogicBlock)]
pub struct KnightMoves<const SQ: usize, const LB: usize> {
    /// The square, one-hot (or 0: no targets).
    pub square: Signal<In, Bits<SQ>>,
    /// The same square as an index.
    pub index: Signal<In, Bits<LB>>,
    /// The chosen move, one-hot (or 0).
    pub chosen: Signal<In, Bits<8>>,
    /// Move `m`'s target, one-hot, or 0 where it leaves the largest board.
    pub targets: [Signal<Out, Bits<SQ>>; 8],
    /// Every target.
    pub reach: Signal<Out, Bits<SQ>>,
    /// The chosen move's target (0 for none), and its index.
    pub child: Signal<Out, Bits<SQ>>,
    pub child_index: Signal<Out, Bits<LB>>,

    legal: [Constant<Bits<SQ>>; 8],
    shift_up: [Constant<Bits<16>>; 8],
    shift_down: [Constant<Bits<16>>; 8],
    // Move m's index offset, modulo 2^LB.
    delta: [Constant<Bits<LB>>; 8],
    reach_chain: [Signal<Local, Bits<SQ>>; 8],
}

impl<const SQ: usize, const LB: usize> KnightMoves<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        assert!(SQ <= 1 << LB, "LB bits must number SQ squares");
        let MoveShifts { legal, up, down } = MoveShifts::new(geometry);
        KnightMoves {
            square: Default::default(),
            index: Default::default(),
            chosen: Default::default(),
            targets: Default::default(),
            reach: Default::default(),
            child: Default::default(),
            child_index: Default::default(),
            legal,
            shift_up: up,
            shift_down: down,
            delta: geometry.move_offsets(),
            reach_chain: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for KnightMoves<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        for m in 0..8 {
            self.targets[m].next =
                ((self.square.val() & self.legal[m].val()) << self.shift_up[m].val()) >> self.shift_down[m].val();
        }
        self.reach_chain[0].next = self.targets[0].val();
        for m in 1..8 {
            self.reach_chain[m].next = self.reach_chain[m - 1].val() | self.targets[m].val();
        }
        self.reach.next = self.reach_chain[7].val();
        self.child.next = 0.into();
        self.child_index.next = self.index.val();
        for m in 0..8 {
            if self.chosen.val().get_bit(m) {
                self.child.next = self.targets[m].val();
                self.child_index.next = self.index.val() + self.delta[m].val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tours::common::geometry::KNIGHT_STEPS;

    #[test]
    fn targets_and_children_of_every_square_of_6x5() {
        const W: usize = 6;
        const H: usize = 5;
        let mut uut = KnightMoves::<{ W * H }, 5>::new(Geometry::new(W, H));
        uut.connect_all();
        for square in 0..W * H {
            let (file, rank) = ((square % W) as i32, (square / W) as i32);
            let targets: Vec<Option<usize>> = KNIGHT_STEPS
                .iter()
                .map(|(df, dr)| {
                    let (f, r) = (file + df, rank + dr);
                    ((0..W as i32).contains(&f) && (0..H as i32).contains(&r)).then(|| r as usize * W + f as usize)
                })
                .collect();
            for chosen in 0..8 {
                uut.square.next = (1u64 << square).into();
                uut.index.next = (square as u64).into();
                uut.chosen.next = (1u64 << chosen).into();
                assert!(simulate(&mut uut, 100), "settles");
                for (m, target) in targets.iter().enumerate() {
                    assert_eq!(uut.targets[m].val().index() as u64, target.map_or(0, |t| 1 << t), "{square} {m}");
                }
                let reach: u64 = targets.iter().flatten().map(|t| 1 << t).sum();
                assert_eq!(uut.reach.val().index() as u64, reach);
                if let Some(child) = targets[chosen] {
                    assert_eq!(uut.child.val().index() as u64, 1 << child);
                    assert_eq!(uut.child_index.val().index(), child);
                } else {
                    assert_eq!(uut.child.val().index(), 0);
                }
            }
        }
    }
}
