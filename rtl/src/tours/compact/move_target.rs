//! The square a move of the current level goes to, and what the level's
//! frame says of it: its cell and square number (one adder each: the move's
//! offset is picked first), its free neighbours and closing bit, and what
//! the judge and the leaf test need of them. Those are worked out for all
//! eight moves from the frame while the move is chosen, and picked by it:
//! the move, a clock's first signal, is not followed by a mux and a compare.

use rust_hdl::prelude::*;

use super::grid::PaddedGrid;
use crate::tours::common::geometry::Geometry;

#[derive(LogicBlock)]
pub struct MoveTarget<const AB: usize, const LB: usize> {
    /// The level's cell and square, and its moves' free neighbours (four
    /// bits a move) and closing bits.
    pub from_cell: Signal<In, Bits<AB>>,
    pub from_square: Signal<In, Bits<LB>>,
    pub moves_ways: Signal<In, Bits<32>>,
    pub moves_closing: Signal<In, Bits<8>>,
    /// Closed tours: a closing square has one way more.
    pub closed: Signal<In, bool>,
    /// The move (one-hot; none gives zeros).
    pub chosen: Signal<In, Bits<8>>,
    pub target_cell: Signal<Out, Bits<AB>>,
    pub target_square: Signal<Out, Bits<LB>>,
    pub target_ways: Signal<Out, Bits<4>>,
    pub target_closing: Signal<Out, bool>,
    /// It has no free neighbour (a leaf); its base ways (free neighbours,
    /// plus one if closing on a closed tour) are 0, or 1.
    pub target_leaf: Signal<Out, bool>,
    pub target_base_none: Signal<Out, bool>,
    pub target_base_one: Signal<Out, bool>,

    cell_step: [Constant<Bits<AB>>; 8],
    square_step: [Constant<Bits<LB>>; 8],
    ways_shift: [Constant<Bits<32>>; 8],
    cell_offset: Signal<Local, Bits<AB>>,
    square_offset: Signal<Local, Bits<LB>>,
    shift: Signal<Local, Bits<32>>,
    ways_of: [Signal<Local, Bits<32>>; 8],
    leaf_of: [Signal<Local, bool>; 8],
    none_of: [Signal<Local, bool>; 8],
    one_of: [Signal<Local, bool>; 8],
    leaves: Signal<Local, Bits<8>>,
    base_none: Signal<Local, Bits<8>>,
    base_one: Signal<Local, Bits<8>>,
    closing_counts: Signal<Local, Bits<8>>,
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
            closed: Default::default(),
            target_leaf: Default::default(),
            target_base_none: Default::default(),
            target_base_one: Default::default(),
            cell_step: std::array::from_fn(|m| Constant::new(grid.offset_modulo(m, AB).into())),
            square_step: geometry.move_offsets(),
            ways_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            cell_offset: Default::default(),
            square_offset: Default::default(),
            shift: Default::default(),
            ways_of: Default::default(),
            leaf_of: Default::default(),
            none_of: Default::default(),
            one_of: Default::default(),
            leaves: Default::default(),
            base_none: Default::default(),
            base_one: Default::default(),
            closing_counts: Default::default(),
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

        // Every move's leaf test and base-ways class, from the frame.
        self.closing_counts.next = 0.into();
        if self.closed.val() {
            self.closing_counts.next = self.moves_closing.val();
        }
        for m in 0..8 {
            self.ways_of[m].next = (self.moves_ways.val() >> self.ways_shift[m].val()) & 15;
            self.leaf_of[m].next = self.ways_of[m].val() == 0;
            self.none_of[m].next = self.leaf_of[m].val() & !self.closing_counts.val().get_bit(m);
            self.one_of[m].next = (self.leaf_of[m].val() & self.closing_counts.val().get_bit(m))
                | ((self.ways_of[m].val() == 1) & !self.closing_counts.val().get_bit(m));
        }
        self.leaves.next = bits::<8>(0)
            .replace_bit(0, self.leaf_of[0].val())
            .replace_bit(1, self.leaf_of[1].val())
            .replace_bit(2, self.leaf_of[2].val())
            .replace_bit(3, self.leaf_of[3].val())
            .replace_bit(4, self.leaf_of[4].val())
            .replace_bit(5, self.leaf_of[5].val())
            .replace_bit(6, self.leaf_of[6].val())
            .replace_bit(7, self.leaf_of[7].val());
        self.base_none.next = bits::<8>(0)
            .replace_bit(0, self.none_of[0].val())
            .replace_bit(1, self.none_of[1].val())
            .replace_bit(2, self.none_of[2].val())
            .replace_bit(3, self.none_of[3].val())
            .replace_bit(4, self.none_of[4].val())
            .replace_bit(5, self.none_of[5].val())
            .replace_bit(6, self.none_of[6].val())
            .replace_bit(7, self.none_of[7].val());
        self.base_one.next = bits::<8>(0)
            .replace_bit(0, self.one_of[0].val())
            .replace_bit(1, self.one_of[1].val())
            .replace_bit(2, self.one_of[2].val())
            .replace_bit(3, self.one_of[3].val())
            .replace_bit(4, self.one_of[4].val())
            .replace_bit(5, self.one_of[5].val())
            .replace_bit(6, self.one_of[6].val())
            .replace_bit(7, self.one_of[7].val());
        self.target_leaf.next = (self.leaves.val() & self.chosen.val()).any();
        self.target_base_none.next = (self.base_none.val() & self.chosen.val()).any();
        self.target_base_one.next = (self.base_one.val() & self.chosen.val()).any();
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
        uut.moves_closing.next = 0b0100_0011u64.into();
        uut.closed.next = true;
        for (m, &(df, dr)) in crate::tours::common::geometry::KNIGHT_STEPS.iter().enumerate() {
            uut.chosen.next = (1u64 << m).into();
            assert!(simulate(&mut uut, 10));
            let (f, r) = (file + i64::from(df), rank + i64::from(dr));
            assert_eq!(uut.target_cell.val().index() as i64, (r + 2) * grid.stride as i64 + f + 2, "move {m}");
            if (0..5).contains(&f) && (0..4).contains(&r) {
                assert_eq!(uut.target_square.val().index() as i64, r * 5 + f, "move {m}");
            }
            assert_eq!(uut.target_ways.val().index(), m);
            assert_eq!(uut.target_closing.val(), [0, 1, 6].contains(&m));
            // Ways m, one more on the closing moves 0, 1 and 6.
            assert_eq!(uut.target_leaf.val(), m == 0);
            assert!(!uut.target_base_none.val(), "move {m}");
            assert_eq!(uut.target_base_one.val(), m == 0, "move {m}");
        }
        uut.closed.next = false;
        uut.chosen.next = 1.into();
        assert!(simulate(&mut uut, 10));
        assert!(uut.target_leaf.val() && uut.target_base_none.val() && !uut.target_base_one.val());
        uut.chosen.next = 2.into();
        assert!(simulate(&mut uut, 10));
        assert!(!uut.target_leaf.val() && !uut.target_base_none.val() && uut.target_base_one.val());
        uut.chosen.next = 0.into();
        assert!(simulate(&mut uut, 10));
        assert_eq!(uut.target_ways.val().index(), 0);
    }
}
