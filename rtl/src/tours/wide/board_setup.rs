//! The run-time board as a square mask, built one rank per clock while a
//! search is set up: the ranks so far move up one and rank 0 comes in. (A
//! shift by a constant is wiring; shifting each new rank into place by a
//! variable amount was a barrel shifter.) The board occupies the bottom-left
//! corner of the build's largest board.

use rust_hdl::prelude::*;

use crate::tours::common::geometry::{square_mask, Geometry};

#[derive(LogicBlock)]
pub struct BoardSetup<const SQ: usize> {
    pub clock: Signal<In, Clock>,
    /// Starts anew with this board (files, ranks), taken at the clock edge.
    pub start: Signal<In, bool>,
    pub width: Signal<In, Bits<8>>,
    pub height: Signal<In, Bits<8>>,
    /// Adds a rank at the clock edge.
    pub step: Signal<In, bool>,
    /// The step adds the last rank. (A register: it feeds the engines'
    /// control, placed anywhere on a full part.)
    pub last_rank: Signal<Out, bool>,
    /// The board's squares, and how many (both whole once the last rank is in).
    pub board: Signal<Out, Bits<SQ>>,
    pub area: Signal<Out, Bits<16>>,

    row_stride: Constant<Bits<16>>,
    first_rank: Constant<Bits<SQ>>,
    files: DFF<Bits<8>>,
    ranks: DFF<Bits<8>>,
    rank: DFF<Bits<8>>,
    mask: DFF<Bits<SQ>>,
    squares: DFF<Bits<16>>,
    at_last_rank: DFF<bool>,
}

impl<const SQ: usize> BoardSetup<SQ> {
    pub fn new(geometry: Geometry) -> Self {
        assert_eq!(geometry.squares(), SQ);
        BoardSetup {
            clock: Default::default(),
            start: Default::default(),
            width: Default::default(),
            height: Default::default(),
            step: Default::default(),
            last_rank: Default::default(),
            board: Default::default(),
            area: Default::default(),
            row_stride: Constant::new((geometry.max_width as u64).into()),
            first_rank: square_mask((0..SQ).map(|i| i < geometry.max_width)),
            files: Default::default(),
            ranks: Default::default(),
            rank: Default::default(),
            mask: Default::default(),
            squares: Default::default(),
            at_last_rank: Default::default(),
        }
    }
}

impl<const SQ: usize> Logic for BoardSetup<SQ> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, files, ranks, rank, mask, squares, at_last_rank);
        self.board.next = self.mask.q.val();
        self.area.next = self.squares.q.val();
        // The board's own ranks, not the build's: a search's clocks do not
        // depend on the bitstream it runs on. Made a clock ahead from the
        // rank the clock edge leaves, so the output is a register's.
        self.last_rank.next = self.at_last_rank.q.val();
        self.at_last_rank.d.next = (self.rank.q.val() + 1) == self.ranks.q.val();
        if self.step.val() {
            self.at_last_rank.d.next = (self.rank.q.val() + 2) == self.ranks.q.val();
            self.mask.d.next = (self.mask.q.val() << self.row_stride.val())
                | (((bits::<SQ>(1) << self.files.q.val()) - 1) & self.first_rank.val());
            self.squares.d.next = self.squares.q.val() + bit_cast::<16, 8>(self.files.q.val());
            self.rank.d.next = self.rank.q.val() + 1;
        }
        if self.start.val() {
            self.files.d.next = self.width.val();
            self.ranks.d.next = self.height.val();
            self.rank.d.next = 0.into();
            self.mask.d.next = 0.into();
            self.squares.d.next = 0.into();
            self.at_last_rank.d.next = self.height.val() == 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_a_3x2_board_in_the_corner_of_4x4() {
        let mut uut = BoardSetup::<16>::new(Geometry::new(4, 4));
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<BoardSetup<16>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<BoardSetup<16>>| {
            let mut x = sim.init()?;
            x.start.next = true;
            x.width.next = 3.into();
            x.height.next = 2.into();
            wait_clock_cycle!(sim, clock, x);
            x.start.next = false;
            x.step.next = true;
            sim_assert!(sim, !x.last_rank.val(), x);
            wait_clock_cycle!(sim, clock, x);
            sim_assert!(sim, x.last_rank.val(), x);
            wait_clock_cycle!(sim, clock, x);
            x.step.next = false;
            // a1-c1 and a2-c2 of a board four squares wide.
            sim_assert_eq!(sim, x.board.val(), 0b0111_0111, x);
            sim_assert_eq!(sim, x.area.val(), 6, x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }
}
