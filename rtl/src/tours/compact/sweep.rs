//! The sweep that lays out a search's board on the padded grid: a cell a
//! clock, saying whether the cell is on the board, how many of its knight
//! neighbours are (its free neighbours before anything is visited), and
//! whether it is a knight move from the start square (a *closing* cell).
//!
//! No compare per neighbour: windows of five bits say which of the files
//! (ranks) two either side of the current one are on the board, and which
//! is the start square's; they shift as the sweep moves on, each taking one
//! new bit a step, and a neighbour's bits are picked from them by wiring.

use rust_hdl::prelude::*;

use super::grid::PaddedGrid;
use crate::tours::common::geometry::Geometry;

#[derive(LogicBlock)]
pub struct BoardSweep<const AB: usize> {
    pub clock: Signal<In, Clock>,
    /// Starts a sweep: cell 0 comes in the next clock.
    pub start: Signal<In, bool>,
    /// The board and the start square (unpadded), held while sweeping.
    pub width: Signal<In, Bits<8>>,
    pub height: Signal<In, Bits<8>>,
    pub start_file: Signal<In, Bits<8>>,
    pub start_rank: Signal<In, Bits<8>>,
    /// A cell this clock: its number and what it is.
    pub active: Signal<Out, bool>,
    pub swept_cell: Signal<Out, Bits<AB>>,
    pub on_board: Signal<Out, bool>,
    pub closing: Signal<Out, bool>,
    pub ways: Signal<Out, Bits<4>>,
    /// The start square's cell and its neighbours on the board (final once
    /// the sweep is over).
    pub start_cell: Signal<Out, Bits<AB>>,
    pub start_ways: Signal<Out, Bits<4>>,

    last_file: Constant<Bits<8>>,
    last_rank: Constant<Bits<8>>,
    sweeping: DFF<bool>,
    file: DFF<Bits<8>>,
    rank: DFF<Bits<8>>,
    position: DFF<Bits<AB>>,
    // Bit i: file (rank) `current + i - 2` is on the board; is the start's.
    files: DFF<Bits<5>>,
    ranks: DFF<Bits<5>>,
    start_files: DFF<Bits<5>>,
    start_ranks: DFF<Bits<5>>,
    start_cell_held: DFF<Bits<AB>>,
    start_ways_held: DFF<Bits<4>>,

    // A row's first cell starts its file windows afresh, the first row its
    // rank windows.
    files_now: Signal<Local, Bits<5>>,
    ranks_now: Signal<Local, Bits<5>>,
    start_files_now: Signal<Local, Bits<5>>,
    start_ranks_now: Signal<Local, Bits<5>>,
    // Bit m: move m's neighbour is on the board; is the start square.
    neighbours: Signal<Local, Bits<8>>,
    start_near: Signal<Local, Bits<8>>,
}

impl<const AB: usize> BoardSweep<AB> {
    pub fn new(geometry: Geometry) -> Self {
        let grid = PaddedGrid::new(geometry);
        assert!(grid.cells() <= 1 << AB && grid.stride <= 256 && grid.rows <= 256);
        BoardSweep {
            clock: Default::default(),
            start: Default::default(),
            width: Default::default(),
            height: Default::default(),
            start_file: Default::default(),
            start_rank: Default::default(),
            active: Default::default(),
            swept_cell: Default::default(),
            on_board: Default::default(),
            closing: Default::default(),
            ways: Default::default(),
            start_cell: Default::default(),
            start_ways: Default::default(),
            last_file: Constant::new((grid.stride as u64 - 1).into()),
            last_rank: Constant::new((grid.rows as u64 - 1).into()),
            sweeping: Default::default(),
            file: Default::default(),
            rank: Default::default(),
            position: Default::default(),
            files: Default::default(),
            ranks: Default::default(),
            start_files: Default::default(),
            start_ranks: Default::default(),
            start_cell_held: Default::default(),
            start_ways_held: Default::default(),
            files_now: Default::default(),
            ranks_now: Default::default(),
            start_files_now: Default::default(),
            start_ranks_now: Default::default(),
            neighbours: Default::default(),
            start_near: Default::default(),
        }
    }
}

impl<const AB: usize> Logic for BoardSweep<AB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sweeping,
            file,
            rank,
            position,
            files,
            ranks,
            start_files,
            start_ranks,
            start_cell_held,
            start_ways_held
        );
        // Padded file 0 of a row: files -2..2 are off the board but file 2,
        // the board's first; the start square's file is padded file
        // `start_file + 2`, so it is in the window when it is the first.
        self.files_now.next = self.files.q.val();
        self.start_files_now.next = self.start_files.q.val();
        if !self.file.q.val().any() {
            self.files_now.next = 0b10000.into();
            self.start_files_now.next = 0.into();
            if !self.start_file.val().any() {
                self.start_files_now.next = 0b10000.into();
            }
        }
        self.ranks_now.next = self.ranks.q.val();
        self.start_ranks_now.next = self.start_ranks.q.val();
        if !self.rank.q.val().any() {
            self.ranks_now.next = 0b10000.into();
            self.start_ranks_now.next = 0.into();
            if !self.start_rank.val().any() {
                self.start_ranks_now.next = 0b10000.into();
            }
        }

        // Move m lands `KNIGHT_STEPS[m]` = (files, ranks) away: window bits
        // `files + 2` and `ranks + 2`. The start square is a knight move
        // away when the cell is that move from it.
        self.neighbours.next = bits::<8>(0)
            .replace_bit(0, self.files_now.val().get_bit(3) & self.ranks_now.val().get_bit(4))
            .replace_bit(1, self.files_now.val().get_bit(4) & self.ranks_now.val().get_bit(3))
            .replace_bit(2, self.files_now.val().get_bit(4) & self.ranks_now.val().get_bit(1))
            .replace_bit(3, self.files_now.val().get_bit(3) & self.ranks_now.val().get_bit(0))
            .replace_bit(4, self.files_now.val().get_bit(1) & self.ranks_now.val().get_bit(0))
            .replace_bit(5, self.files_now.val().get_bit(0) & self.ranks_now.val().get_bit(1))
            .replace_bit(6, self.files_now.val().get_bit(0) & self.ranks_now.val().get_bit(3))
            .replace_bit(7, self.files_now.val().get_bit(1) & self.ranks_now.val().get_bit(4));
        self.start_near.next = bits::<8>(0)
            .replace_bit(0, self.start_files_now.val().get_bit(3) & self.start_ranks_now.val().get_bit(4))
            .replace_bit(1, self.start_files_now.val().get_bit(4) & self.start_ranks_now.val().get_bit(3))
            .replace_bit(2, self.start_files_now.val().get_bit(4) & self.start_ranks_now.val().get_bit(1))
            .replace_bit(3, self.start_files_now.val().get_bit(3) & self.start_ranks_now.val().get_bit(0))
            .replace_bit(4, self.start_files_now.val().get_bit(1) & self.start_ranks_now.val().get_bit(0))
            .replace_bit(5, self.start_files_now.val().get_bit(0) & self.start_ranks_now.val().get_bit(1))
            .replace_bit(6, self.start_files_now.val().get_bit(0) & self.start_ranks_now.val().get_bit(3))
            .replace_bit(7, self.start_files_now.val().get_bit(1) & self.start_ranks_now.val().get_bit(4));
        self.ways.next = bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(0))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(1))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(2))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(3))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(4))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(5))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(6))
            + bit_cast::<4, 1>(self.neighbours.val().get_bits::<1>(7));
        self.on_board.next = self.files_now.val().get_bit(2) & self.ranks_now.val().get_bit(2);
        self.closing.next = self.on_board.val() & self.start_near.val().any();
        self.active.next = self.sweeping.q.val();
        self.swept_cell.next = self.position.q.val();
        self.start_cell.next = self.start_cell_held.q.val();
        self.start_ways.next = self.start_ways_held.q.val();

        if self.sweeping.q.val() {
            if self.start_files_now.val().get_bit(2) & self.start_ranks_now.val().get_bit(2) {
                self.start_cell_held.d.next = self.position.q.val();
                self.start_ways_held.d.next = self.ways.val();
            }
            self.position.d.next = self.position.q.val() + 1;
            self.file.d.next = self.file.q.val() + 1;
            // Each window takes the file (rank) three on: `f + 3` is on the
            // board when `f + 1 < width`, and the start's when `f + 1` is
            // its file.
            self.files.d.next =
                (self.files_now.val() >> 1) | bits::<5>(0).replace_bit(4, (self.file.q.val() + 1) < self.width.val());
            self.start_files.d.next = (self.start_files_now.val() >> 1)
                | bits::<5>(0).replace_bit(4, (self.file.q.val() + 1) == self.start_file.val());
            self.ranks.d.next = self.ranks_now.val();
            self.start_ranks.d.next = self.start_ranks_now.val();
            if self.file.q.val() == self.last_file.val() {
                self.file.d.next = 0.into();
                self.rank.d.next = self.rank.q.val() + 1;
                self.ranks.d.next = (self.ranks_now.val() >> 1)
                    | bits::<5>(0).replace_bit(4, (self.rank.q.val() + 1) < self.height.val());
                self.start_ranks.d.next = (self.start_ranks_now.val() >> 1)
                    | bits::<5>(0).replace_bit(4, (self.rank.q.val() + 1) == self.start_rank.val());
                if self.rank.q.val() == self.last_rank.val() {
                    self.sweeping.d.next = false;
                }
            }
        }
        if self.start.val() {
            self.sweeping.d.next = true;
            self.file.d.next = 0.into();
            self.rank.d.next = 0.into();
            self.position.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tours::common::geometry::KNIGHT_STEPS;
    use crate::tours::compact::grid::bits_for;

    /// Each cell the sweep gives: (cell, on board, closing, ways); and the
    /// start's cell and ways.
    type Swept = (Vec<(usize, bool, bool, u64)>, (usize, u64));

    fn sweep(max: (usize, usize), board: (u8, u8), start: (u8, u8)) -> Swept {
        const AB: usize = 7;
        let geometry = Geometry::new(max.0, max.1);
        assert!(bits_for(PaddedGrid::new(geometry).cells()) <= AB);
        let mut uut = BoardSweep::<AB>::new(geometry);
        uut.connect_all();
        let result = std::sync::Arc::new(std::sync::Mutex::new((Vec::new(), (0, 0))));
        let out = result.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<BoardSweep<AB>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<BoardSweep<AB>>| {
            let mut x = sim.init()?;
            x.start.next = true;
            x.width.next = u64::from(board.0).into();
            x.height.next = u64::from(board.1).into();
            x.start_file.next = u64::from(start.0).into();
            x.start_rank.next = u64::from(start.1).into();
            wait_clock_cycle!(sim, clock, x);
            x.start.next = false;
            let mut cells = Vec::new();
            while x.active.val() {
                cells.push((x.swept_cell.val().index(), x.on_board.val(), x.closing.val(), x.ways.val().to_u64()));
                wait_clock_cycle!(sim, clock, x);
            }
            *out.lock().unwrap() = (cells, (x.start_cell.val().index(), x.start_ways.val().to_u64()));
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000).unwrap();
        let swept = result.lock().unwrap().clone();
        swept
    }

    /// What the sweep must give, worked out square by square.
    fn expected(max: (usize, usize), board: (u8, u8), start: (u8, u8)) -> Swept {
        let grid = PaddedGrid::new(Geometry::new(max.0, max.1));
        let on = |f: i64, r: i64| (2..i64::from(board.0) + 2).contains(&f) && (2..i64::from(board.1) + 2).contains(&r);
        let (sf, sr) = (i64::from(start.0) + 2, i64::from(start.1) + 2);
        let mut cells = Vec::new();
        let mut start_of = (0, 0);
        for cell in 0..grid.cells() {
            let (f, r) = ((cell % grid.stride) as i64, (cell / grid.stride) as i64);
            let ways = KNIGHT_STEPS.iter().filter(|&&(df, dr)| on(f + i64::from(df), r + i64::from(dr))).count() as u64;
            let closing =
                on(f, r) && KNIGHT_STEPS.iter().any(|&(df, dr)| (f + i64::from(df), r + i64::from(dr)) == (sf, sr));
            cells.push((cell, on(f, r), closing, ways));
            if (f, r) == (sf, sr) {
                start_of = (cell, ways);
            }
        }
        (cells, start_of)
    }

    #[test]
    fn lays_out_boards_of_any_size_up_to_the_builds() {
        for (board, start) in [((5, 5), (0, 0)), ((5, 5), (2, 2)), ((3, 4), (2, 3)), ((1, 1), (0, 0)), ((5, 2), (4, 1))]
        {
            let got = sweep((5, 5), board, start);
            assert_eq!(got, expected((5, 5), board, start), "board {board:?} from {start:?}");
        }
    }
}
