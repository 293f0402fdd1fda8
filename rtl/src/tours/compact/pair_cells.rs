//! This clock's pair of neighbours, one in each bank: a visit reads pair k
//! in stage k + 1 (pair 0 at the target in its pulse's clock: reads have
//! no effect, so an idle clock reads it anyway); an unvisit writes the
//! picked neighbour of each bank of the cell it leaves.

use rust_hdl::prelude::*;

use super::grid::{PaddedGrid, EVEN_FILE_MOVES, ODD_FILE_MOVES};
use crate::tours::common::geometry::Geometry;

/// The pair's cells and the bank of the cell they are around
/// (combinational): a visit's, read, and an unvisit's, written. (Both are
/// given every clock: which is used is decided late in the clock, by the
/// unvisit's pulse, and only the banks' ports choose.)
#[derive(LogicBlock)]
pub struct PairCells<const AB: usize> {
    /// The visit's stage (0: none under way) and its centre.
    pub stage: Signal<In, Bits<3>>,
    pub centre: Signal<In, Bits<AB>>,
    /// A visit's target (read while idle), an unvisit's cell and its picks.
    pub target: Signal<In, Bits<AB>>,
    pub leaving_cell: Signal<In, Bits<AB>>,
    pub odd_pick: Signal<In, Bits<8>>,
    pub even_pick: Signal<In, Bits<8>>,
    /// A visit's pair of cells (read) and the centre's bank.
    pub odd_cell: Signal<Out, Bits<AB>>,
    pub even_cell: Signal<Out, Bits<AB>>,
    pub centre_bank: Signal<Out, bool>,
    /// An unvisit's picked cells (written), the left cell's bank, and where
    /// the picked moves' ways sit in its level's frame.
    pub odd_freed: Signal<Out, Bits<AB>>,
    pub even_freed: Signal<Out, Bits<AB>>,
    pub leaving_bank: Signal<Out, bool>,
    pub odd_back_shift: Signal<Out, Bits<32>>,
    pub even_back_shift: Signal<Out, Bits<32>>,

    // Pair k of a visit: its moves' offsets, and the stage it is read in;
    // each move's offset and nibble.
    odd_offset: [Constant<Bits<AB>>; 4],
    even_offset: [Constant<Bits<AB>>; 4],
    stage_issue: [Constant<Bits<3>>; 4],
    move_offset: [Constant<Bits<AB>>; 8],
    move_shift: [Constant<Bits<32>>; 8],
    base: Signal<Local, Bits<AB>>,
    odd_step: Signal<Local, Bits<AB>>,
    even_step: Signal<Local, Bits<AB>>,
    odd_back: Signal<Local, Bits<AB>>,
    even_back: Signal<Local, Bits<AB>>,
}

impl<const AB: usize> PairCells<AB> {
    pub fn new(geometry: Geometry) -> Self {
        let grid = PaddedGrid::new(geometry);
        let offset = |m: usize| Constant::new(grid.offset_modulo(m, AB).into());
        PairCells {
            stage: Default::default(),
            centre: Default::default(),
            target: Default::default(),
            leaving_cell: Default::default(),
            odd_pick: Default::default(),
            even_pick: Default::default(),
            odd_cell: Default::default(),
            even_cell: Default::default(),
            centre_bank: Default::default(),
            odd_freed: Default::default(),
            even_freed: Default::default(),
            leaving_bank: Default::default(),
            odd_back_shift: Default::default(),
            even_back_shift: Default::default(),
            odd_offset: ODD_FILE_MOVES.map(offset),
            even_offset: EVEN_FILE_MOVES.map(offset),
            // (Pair 0 is read in the pulse's clock.)
            stage_issue: std::array::from_fn(|k| Constant::new((k as u64 + 1).into())),
            move_offset: std::array::from_fn(offset),
            move_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            base: Default::default(),
            odd_step: Default::default(),
            even_step: Default::default(),
            odd_back: Default::default(),
            even_back: Default::default(),
        }
    }
}

impl<const AB: usize> Logic for PairCells<AB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.base.next = self.centre.val();
        self.centre_bank.next = self.centre.val().get_bit(0);
        self.odd_step.next = 0.into();
        self.even_step.next = 0.into();
        for k in 0..4 {
            if self.stage.val() == self.stage_issue[k].val() {
                self.odd_step.next = self.odd_offset[k].val();
                self.even_step.next = self.even_offset[k].val();
            }
        }
        if !self.stage.val().any() {
            self.base.next = self.target.val();
            self.centre_bank.next = self.target.val().get_bit(0);
            self.odd_step.next = self.odd_offset[0].val();
            self.even_step.next = self.even_offset[0].val();
        }
        self.odd_cell.next = self.base.val() + self.odd_step.val();
        self.even_cell.next = self.base.val() + self.even_step.val();

        self.leaving_bank.next = self.leaving_cell.val().get_bit(0);
        self.odd_back.next = 0.into();
        self.even_back.next = 0.into();
        self.odd_back_shift.next = 0.into();
        self.even_back_shift.next = 0.into();
        for m in 0..8 {
            if self.odd_pick.val().get_bit(m) {
                self.odd_back.next = self.move_offset[m].val();
                self.odd_back_shift.next = self.move_shift[m].val();
            }
            if self.even_pick.val().get_bit(m) {
                self.even_back.next = self.move_offset[m].val();
                self.even_back_shift.next = self.move_shift[m].val();
            }
        }
        self.odd_freed.next = self.leaving_cell.val() + self.odd_back.val();
        self.even_freed.next = self.leaving_cell.val() + self.even_back.val();
    }
}
