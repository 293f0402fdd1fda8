//! The square a move of the current level goes to, and what the level's
//! frame says of it: its cell and square number (one adder each: the move's
//! offset is picked first), its free neighbours and its closing bit.

use rust_hdl::prelude::*;

use super::grid::PaddedGrid;
use crate::geometry::Geometry;

#[derive(LogicBlock)]
pub struct MoveTarget<const AB: usize, const LB: usize> {
    /// The level's cell and square, and its moves' free neighbours (four
    /// bits a move) and closing bits.
    pub from_cell: Signal<In, Bits<AB>>,
    pub from_square: Signal<In, Bits<LB>>,
    pub moves_ways: Signal<In, Bits<32>>,
    pub moves_closing: Signal<In, Bits<8>>,
    /// The move (one-hot; none gives zeros).
    pub chosen: Signal<In, Bits<8>>,
    pub target_cell: Signal<Out, Bits<AB>>,
    pub target_square: Signal<Out, Bits<LB>>,
    pub target_ways: Signal<Out, Bits<4>>,
    pub target_closing: Signal<Out, bool>,

    cell_step: [Constant<Bits<AB>>; 8],
    square_step: [Constant<Bits<LB>>; 8],
    ways_shift: [Constant<Bits<32>>; 8],
    cell_offset: Signal<Local, Bits<AB>>,
    square_offset: Signal<Local, Bits<LB>>,
    shift: Signal<Local, Bits<32>>,
}

impl<const AB: usize, const LB: usize> MoveTarget<AB, LB> {
    pub fn new(geometry: Geometry) -> Self {
        let grid = PaddedGrid::new(geometry);
        MoveTarget {
            from_cell: Default::default(),
            from_square: Default::default(),
            moves_ways: Default::default(),
            moves_closing: Default::default(),
            chosen: Default::default(),
            target_cell: Default::default(),
            target_square: Default::default(),
            target_ways: Default::default(),
            target_closing: Default::default(),
            cell_step: std::array::from_fn(|m| Constant::new(grid.offset_modulo(m, AB).into())),
            square_step: std::array::from_fn(|m| Constant::new(geometry.offset_modulo(m, LB).into())),
            ways_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            cell_offset: Default::default(),
            square_offset: Default::default(),
            shift: Default::default(),
        }
    }
}

impl<const AB: usize, const LB: usize> Logic for MoveTarget<AB, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.cell_offset.next = 0.into();
        self.square_offset.next = 0.into();
        self.shift.next = 0.into();
        for m in 0..8 {
            if self.chosen.val().get_bit(m) {
                self.cell_offset.next = self.cell_step[m].val();
                self.square_offset.next = self.square_step[m].val();
                self.shift.next = self.ways_shift[m].val();
            }
        }
        self.target_cell.next = self.from_cell.val() + self.cell_offset.val();
        self.target_square.next = self.from_square.val() + self.square_offset.val();
        self.target_ways.next = bit_cast::<4, 32>((self.moves_ways.val() >> self.shift.val()) & 15);
        self.target_closing.next = (self.moves_closing.val() & self.chosen.val()).any();
        if !self.chosen.val().any() {
            self.target_ways.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_lands_a_knight_step_away_with_the_frames_figures() {
        let geometry = Geometry::new(5, 4);
        let grid = PaddedGrid::new(geometry);
        let mut uut = MoveTarget::<7, 5>::new(geometry);
        uut.connect_all();
        // From c2 (file 2, rank 1).
        let (file, rank) = (2i64, 1i64);
        uut.from_cell.next = (((rank + 2) * grid.stride as i64 + file + 2) as u64).into();
        uut.from_square.next = ((rank * 5 + file) as u64).into();
        uut.moves_ways.next = 0x7654_3210u64.into();
        uut.moves_closing.next = 0b0100_0001u64.into();
        for (m, &(df, dr)) in crate::geometry::KNIGHT_STEPS.iter().enumerate() {
            uut.chosen.next = (1u64 << m).into();
            assert!(simulate(&mut uut, 10));
            let (f, r) = (file + i64::from(df), rank + i64::from(dr));
            assert_eq!(uut.target_cell.val().index() as i64, (r + 2) * grid.stride as i64 + f + 2, "move {m}");
            if (0..5).contains(&f) && (0..4).contains(&r) {
                assert_eq!(uut.target_square.val().index() as i64, r * 5 + f, "move {m}");
            }
            assert_eq!(uut.target_ways.val().index(), m);
            assert_eq!(uut.target_closing.val(), m == 0 || m == 6);
        }
        uut.chosen.next = 0.into();
        assert!(simulate(&mut uut, 10));
        assert_eq!(uut.target_ways.val().index(), 0);
    }
}
