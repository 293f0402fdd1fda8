//! The board's cells in block RAM, with the tallies dead-end pruning reads
//! and the judge that reads them (the reference's `TalliedSet`).
//!
//! The board sits on a padded grid (two cells of border, an even row
//! stride) so that a knight step is a constant offset and the border is
//! simply never free. A cell's word holds whether it is visited, whether it
//! is a knight move from the start square (a *closing* cell) and its free
//! neighbours. The stride is even, so a cell's bank is its file's parity:
//! a step of one file lands in the other bank, a step of two files in the
//! same one, and the eight neighbours of a cell are read four clocks long,
//! two at a time (one per bank).
//!
//! Only free cells' counts are kept up to date. A visited neighbour of a
//! cell being entered was entered before it and is left after it, so the
//! cell's coming and going never show in that neighbour's count when it is
//! freed again (the search is a stack).
//!
//! Operations, each started by a pulse while not `busy`:
//! - `sweep`: writes every cell of the padded grid for the board and start
//!   square given, and counts the tallies (a cell a clock).
//! - `visit` the free `target` (its free neighbours `target_ways`, its
//!   closing bit): marks it visited, takes one free neighbour from each of
//!   its free neighbours and reports them (`found_*`: the moves of the
//!   level it starts). It reads the eight neighbours, so it takes five
//!   clocks after the pulse; `found_*` are final in the fifth
//!   (`visit_ends`).
//! - `unvisit` the current level's cell (`frame_*`, the level's frame):
//!   frees it and gives each of its free neighbours its way back. Their
//!   counts are the frame's (the board is as it was when the level was
//!   entered), so this only writes: the cell and an odd-file neighbour in
//!   the pulse's clock, then a neighbour of each bank a clock.

use rust_hdl::prelude::*;

use crate::geometry::{Geometry, KNIGHT_STEPS};

/// The moves one file aside (the other bank) and two files aside (the same
/// bank), paired so that a clock reads one of each.
const ODD_FILE_MOVES: [usize; 4] = [0, 3, 4, 7];
const EVEN_FILE_MOVES: [usize; 4] = [1, 2, 5, 6];

/// The padded grid of a build's largest board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaddedGrid {
    /// Cells a row: the board's width plus the border, rounded up to even.
    pub stride: usize,
    pub rows: usize,
}

impl PaddedGrid {
    pub fn new(geometry: Geometry) -> Self {
        let stride = (geometry.max_width + 4).next_multiple_of(2);
        PaddedGrid { stride, rows: geometry.max_height + 4 }
    }

    pub fn cells(&self) -> usize {
        self.stride * self.rows
    }

    /// Cell of padded file `file`, rank `rank`.
    pub fn cell(&self, file: usize, rank: usize) -> usize {
        rank * self.stride + file
    }

    /// Move `m`'s offset modulo `2^bits`.
    pub fn offset_modulo(&self, m: usize, bits: usize) -> u64 {
        let (df, dr) = KNIGHT_STEPS[m];
        (i64::from(dr) * self.stride as i64 + i64::from(df)).rem_euclid(1 << bits) as u64
    }
}

/// One cell word's change in a pass: the word after it, and how the cell
/// moves between the tallies. Visited cells are left alone.
#[derive(LogicBlock, Default)]
pub struct WaysChange {
    pub word: Signal<In, Bits<6>>,
    /// Freeing the centre (one way more); else visiting it (one fewer).
    pub freeing: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub free: Signal<Out, bool>,
    pub ways: Signal<Out, Bits<4>>,
    pub closing: Signal<Out, bool>,
    pub new_word: Signal<Out, Bits<6>>,
    /// Changes to the tallies of cells with no way and with one way
    /// (0, 1 or -1 modulo 2^16).
    pub no_way_change: Signal<Out, Bits<16>>,
    pub one_way_change: Signal<Out, Bits<16>>,
    new_ways: Signal<Local, Bits<4>>,
    base: Signal<Local, Bits<4>>,
    new_base: Signal<Local, Bits<4>>,
}

impl Logic for WaysChange {
    #[hdl_gen]
    fn update(&mut self) {
        self.ways.next = self.word.val().get_bits::<4>(0);
        self.closing.next = self.word.val().get_bit(4);
        self.free.next = !self.word.val().get_bit(5);
        self.new_ways.next = self.ways.val() - 1;
        if self.freeing.val() {
            self.new_ways.next = self.ways.val() + 1;
        }
        self.new_word.next = self.word.val() & 0x30 | bit_cast::<6, 4>(self.new_ways.val());
        // Base ways: free neighbours, plus the way to the start on a closing
        // cell of a closed tour.
        self.base.next = self.ways.val();
        self.new_base.next = self.new_ways.val();
        if self.closed.val() & self.closing.val() {
            self.base.next = self.ways.val() + 1;
            self.new_base.next = self.new_ways.val() + 1;
        }
        self.no_way_change.next = 0.into();
        self.one_way_change.next = 0.into();
        if self.free.val() {
            if self.base.val() == 0 {
                self.no_way_change.next = 0xFFFF.into();
            }
            if self.new_base.val() == 0 {
                self.no_way_change.next = 1.into();
            }
            if self.base.val() == 1 {
                self.one_way_change.next = 0xFFFF.into();
            }
            if self.new_base.val() == 1 {
                self.one_way_change.next = 1.into();
            }
        }
    }
}

/// The cells of a padded grid of up to `2^AB` cells, in two banks of
/// `2^CB` (`CB = AB - 1`).
#[derive(LogicBlock)]
pub struct BoardCells<const AB: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    /// The board, the start square (unpadded) and the flags, held while a
    /// search runs.
    pub width: Signal<In, Bits<8>>,
    pub height: Signal<In, Bits<8>>,
    pub start_file: Signal<In, Bits<8>>,
    pub start_rank: Signal<In, Bits<8>>,
    pub closed: Signal<In, bool>,
    pub prune: Signal<In, bool>,

    pub sweep: Signal<In, bool>,
    pub visit: Signal<In, bool>,
    pub target: Signal<In, Bits<AB>>,
    pub target_ways: Signal<In, Bits<4>>,
    pub target_closing: Signal<In, bool>,
    /// The visit's last clock: `found_*` are final.
    pub visit_ends: Signal<Out, bool>,
    /// The last visit's free neighbours (bit `m` for move `m`), their free
    /// neighbours after it (four bits a move) and their closing bits.
    pub found_free: Signal<Out, Bits<8>>,
    pub found_ways: Signal<Out, Bits<32>>,
    pub found_closing: Signal<Out, Bits<8>>,

    /// Frees the current level's cell; its frame is held until not `busy`.
    pub unvisit: Signal<In, bool>,
    pub frame_cell: Signal<In, Bits<AB>>,
    pub frame_ways: Signal<In, Bits<4>>,
    pub frame_closing: Signal<In, bool>,
    pub frame_free: Signal<In, Bits<8>>,
    pub frame_moves_ways: Signal<In, Bits<32>>,
    pub frame_moves_closing: Signal<In, Bits<8>>,
    pub busy: Signal<Out, bool>,

    /// After a sweep: the start square's cell and free neighbours, and the
    /// board's squares.
    pub start_cell: Signal<Out, Bits<AB>>,
    pub start_ways: Signal<Out, Bits<4>>,
    pub area: Signal<Out, Bits<16>>,
    /// Free squares now.
    pub free_cells: Signal<Out, Bits<16>>,

    /// Whether entering the free square with `judge_ways` free neighbours
    /// and closing bit `judge_closing` leaves no tour (always false without
    /// pruning): the reference's `dead_end_entering`.
    pub judge_ways: Signal<In, Bits<4>>,
    pub judge_closing: Signal<In, bool>,
    pub dead: Signal<Out, bool>,

    banks: [RAM<Bits<6>, CB>; 2],
    odd_change: WaysChange,
    even_change: WaysChange,
    odd_offset: [Constant<Bits<AB>>; 4],
    even_offset: [Constant<Bits<AB>>; 4],
    odd_move: [Constant<Bits<8>>; 4],
    even_move: [Constant<Bits<8>>; 4],
    stage_issue: [Constant<Bits<3>>; 4],
    stage_data: [Constant<Bits<3>>; 4],
    odd_shift: [Constant<Bits<32>>; 4],
    even_shift: [Constant<Bits<32>>; 4],
    odd_keep: [Constant<Bits<32>>; 4],
    even_keep: [Constant<Bits<32>>; 4],
    step_delta: [Constant<Bits<8>>; 4],
    keep_all: Constant<Bits<32>>,
    move_offset: [Constant<Bits<AB>>; 8],
    move_shift: [Constant<Bits<32>>; 8],
    odd_files: Constant<Bits<8>>,
    even_files: Constant<Bits<8>>,
    last_file: Constant<Bits<8>>,
    last_rank: Constant<Bits<8>>,

    // The tallies over free squares (base ways 0 and 1, free squares, free
    // closing squares).
    no_way: DFF<Bits<16>>,
    one_way: DFF<Bits<16>>,
    free: DFF<Bits<16>>,
    free_closing: DFF<Bits<16>>,

    // A visit: its stage (0 idle; 1 own word; 1-4 reads; 2-5 writes).
    stage: DFF<Bits<3>>,
    centre: DFF<Bits<AB>>,
    centre_ways: DFF<Bits<4>>,
    centre_closing: DFF<bool>,
    odd_address: DFF<Bits<CB>>,
    even_address: DFF<Bits<CB>>,
    free_found: DFF<Bits<8>>,
    ways_found: DFF<Bits<32>>,
    closing_found: DFF<Bits<8>>,
    // An unvisit: the neighbours still to write back, by bank.
    freeing: DFF<bool>,
    odd_left: DFF<Bits<8>>,
    even_left: DFF<Bits<8>>,

    // A sweep: the padded file and rank, and the cell.
    sweeping: DFF<bool>,
    file: DFF<Bits<8>>,
    rank: DFF<Bits<8>>,
    sweep_cell: DFF<Bits<AB>>,
    start_cell_held: DFF<Bits<AB>>,
    start_ways_held: DFF<Bits<4>>,
    area_held: DFF<Bits<16>>,

    // Combinational values.
    visiting: Signal<Local, bool>,
    centre_bank: Signal<Local, bool>,
    odd_read: Signal<Local, Bits<AB>>,
    even_read: Signal<Local, Bits<AB>>,
    odd_found: Signal<Local, Bits<8>>,
    even_found: Signal<Local, Bits<8>>,
    odd_ways_at: Signal<Local, Bits<32>>,
    even_ways_at: Signal<Local, Bits<32>>,
    odd_keep_at: Signal<Local, Bits<32>>,
    even_keep_at: Signal<Local, Bits<32>>,
    free_found_next: Signal<Local, Bits<8>>,
    ways_found_next: Signal<Local, Bits<32>>,
    closing_found_next: Signal<Local, Bits<8>>,
    odd_pending: Signal<Local, Bits<8>>,
    even_pending: Signal<Local, Bits<8>>,
    odd_pick: Signal<Local, Bits<8>>,
    odd_rest: Signal<Local, Bits<8>>,
    even_rest: Signal<Local, Bits<8>>,
    even_pick: Signal<Local, Bits<8>>,
    odd_back: Signal<Local, Bits<AB>>,
    even_back: Signal<Local, Bits<AB>>,
    odd_back_ways: Signal<Local, Bits<32>>,
    even_back_ways: Signal<Local, Bits<32>>,
    odd_back_word: Signal<Local, Bits<6>>,
    even_back_word: Signal<Local, Bits<6>>,
    own_active: Signal<Local, bool>,
    own_freeing: Signal<Local, bool>,
    own_cell: Signal<Local, Bits<AB>>,
    own_ways: Signal<Local, Bits<4>>,
    own_closing: Signal<Local, bool>,
    own_base: Signal<Local, Bits<4>>,
    own_word: Signal<Local, Bits<6>>,
    own_no_way: Signal<Local, Bits<16>>,
    own_one_way: Signal<Local, Bits<16>>,
    pair_no_way: Signal<Local, Bits<16>>,
    pair_one_way: Signal<Local, Bits<16>>,
    move_ok: Signal<Local, Bits<8>>,
    sweep_on: Signal<Local, bool>,
    sweep_ways: Signal<Local, Bits<4>>,
    sweep_closing: Signal<Local, bool>,
    sweep_base: Signal<Local, Bits<4>>,
    file_ok: [Signal<Local, bool>; 4],
    rank_ok: [Signal<Local, bool>; 4],
    start_file_pad: Signal<Local, Bits<8>>,
    start_rank_pad: Signal<Local, Bits<8>>,
    file_from_start: Signal<Local, Bits<8>>,
    rank_from_start: Signal<Local, Bits<8>>,
    judge_base: Signal<Local, Bits<4>>,
    other_no_way: Signal<Local, Bits<16>>,
    other_one_way: Signal<Local, Bits<16>>,
    closing_left: Signal<Local, Bits<16>>,
}

/// File and rank offsets `[-2, -1, +1, +2]` (modulo 2^8) checked by
/// `file_ok` and `rank_ok`.
const STEP_DELTAS: [u64; 4] = [254, 255, 1, 2];

fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.into())
}

impl<const AB: usize, const CB: usize> BoardCells<AB, CB> {
    pub fn new(geometry: Geometry) -> Self {
        let grid = PaddedGrid::new(geometry);
        assert!(CB + 1 == AB && grid.cells() <= 1 << AB, "{AB} bits must number the {} cells", grid.cells());
        assert!(grid.stride <= 255 && grid.rows <= 255);
        let offset = |m: usize| constant(grid.offset_modulo(m, AB));
        let keep = |m: usize| constant(!(15u64 << (4 * m)) & 0xFFFF_FFFF);
        let group = |moves: [usize; 4]| constant(moves.iter().map(|m| 1u64 << m).sum());
        BoardCells {
            clock: Default::default(),
            width: Default::default(),
            height: Default::default(),
            start_file: Default::default(),
            start_rank: Default::default(),
            closed: Default::default(),
            prune: Default::default(),
            sweep: Default::default(),
            visit: Default::default(),
            target: Default::default(),
            target_ways: Default::default(),
            target_closing: Default::default(),
            visit_ends: Default::default(),
            found_free: Default::default(),
            found_ways: Default::default(),
            found_closing: Default::default(),
            unvisit: Default::default(),
            frame_cell: Default::default(),
            frame_ways: Default::default(),
            frame_closing: Default::default(),
            frame_free: Default::default(),
            frame_moves_ways: Default::default(),
            frame_moves_closing: Default::default(),
            busy: Default::default(),
            start_cell: Default::default(),
            start_ways: Default::default(),
            area: Default::default(),
            free_cells: Default::default(),
            judge_ways: Default::default(),
            judge_closing: Default::default(),
            dead: Default::default(),
            banks: Default::default(),
            odd_change: Default::default(),
            even_change: Default::default(),
            odd_offset: ODD_FILE_MOVES.map(offset),
            even_offset: EVEN_FILE_MOVES.map(offset),
            odd_move: ODD_FILE_MOVES.map(|m| constant(1 << m)),
            even_move: EVEN_FILE_MOVES.map(|m| constant(1 << m)),
            stage_issue: std::array::from_fn(|k| constant(k as u64 + 1)),
            stage_data: std::array::from_fn(|k| constant(k as u64 + 2)),
            odd_shift: ODD_FILE_MOVES.map(|m| constant(4 * m as u64)),
            even_shift: EVEN_FILE_MOVES.map(|m| constant(4 * m as u64)),
            odd_keep: ODD_FILE_MOVES.map(keep),
            even_keep: EVEN_FILE_MOVES.map(keep),
            step_delta: STEP_DELTAS.map(constant),
            keep_all: constant(0xFFFF_FFFF),
            move_offset: std::array::from_fn(offset),
            move_shift: std::array::from_fn(|m| constant(4 * m as u64)),
            odd_files: group(ODD_FILE_MOVES),
            even_files: group(EVEN_FILE_MOVES),
            last_file: constant(grid.stride as u64 - 1),
            last_rank: constant(grid.rows as u64 - 1),
            no_way: Default::default(),
            one_way: Default::default(),
            free: Default::default(),
            free_closing: Default::default(),
            stage: Default::default(),
            centre: Default::default(),
            centre_ways: Default::default(),
            centre_closing: Default::default(),
            odd_address: Default::default(),
            even_address: Default::default(),
            free_found: Default::default(),
            ways_found: Default::default(),
            closing_found: Default::default(),
            freeing: Default::default(),
            odd_left: Default::default(),
            even_left: Default::default(),
            sweeping: Default::default(),
            file: Default::default(),
            rank: Default::default(),
            sweep_cell: Default::default(),
            start_cell_held: Default::default(),
            start_ways_held: Default::default(),
            area_held: Default::default(),
            visiting: Default::default(),
            centre_bank: Default::default(),
            odd_read: Default::default(),
            even_read: Default::default(),
            odd_found: Default::default(),
            even_found: Default::default(),
            odd_ways_at: Default::default(),
            even_ways_at: Default::default(),
            odd_keep_at: Default::default(),
            even_keep_at: Default::default(),
            free_found_next: Default::default(),
            ways_found_next: Default::default(),
            closing_found_next: Default::default(),
            odd_pending: Default::default(),
            even_pending: Default::default(),
            odd_pick: Default::default(),
            odd_rest: Default::default(),
            even_rest: Default::default(),
            even_pick: Default::default(),
            odd_back: Default::default(),
            even_back: Default::default(),
            odd_back_ways: Default::default(),
            even_back_ways: Default::default(),
            odd_back_word: Default::default(),
            even_back_word: Default::default(),
            own_active: Default::default(),
            own_freeing: Default::default(),
            own_cell: Default::default(),
            own_ways: Default::default(),
            own_closing: Default::default(),
            own_base: Default::default(),
            own_word: Default::default(),
            own_no_way: Default::default(),
            own_one_way: Default::default(),
            pair_no_way: Default::default(),
            pair_one_way: Default::default(),
            move_ok: Default::default(),
            sweep_on: Default::default(),
            sweep_ways: Default::default(),
            sweep_closing: Default::default(),
            sweep_base: Default::default(),
            file_ok: Default::default(),
            rank_ok: Default::default(),
            start_file_pad: Default::default(),
            start_rank_pad: Default::default(),
            file_from_start: Default::default(),
            rank_from_start: Default::default(),
            judge_base: Default::default(),
            other_no_way: Default::default(),
            other_one_way: Default::default(),
            closing_left: Default::default(),
        }
    }
}

impl<const AB: usize, const CB: usize> Logic for BoardCells<AB, CB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            no_way,
            one_way,
            free,
            free_closing,
            stage,
            centre,
            centre_ways,
            centre_closing,
            odd_address,
            even_address,
            free_found,
            ways_found,
            closing_found,
            freeing,
            odd_left,
            even_left,
            sweeping,
            file,
            rank,
            sweep_cell,
            start_cell_held,
            start_ways_held,
            area_held
        );
        for b in 0..2 {
            self.banks[b].read_clock.next = self.clock.val();
            self.banks[b].write_clock.next = self.clock.val();
            self.banks[b].read_address.next = 0.into();
            self.banks[b].write_address.next = 0.into();
            self.banks[b].write_data.next = 0.into();
            self.banks[b].write_enable.next = false;
        }
        self.busy.next = self.sweeping.q.val() | self.stage.q.val().any() | self.freeing.q.val();
        self.visit_ends.next = self.stage.q.val() == 5;
        self.start_cell.next = self.start_cell_held.q.val();
        self.start_ways.next = self.start_ways_held.q.val();
        self.area.next = self.area_held.q.val();
        self.free_cells.next = self.free.q.val();

        // Which pair of cells is changed this clock, in which bank: a
        // visit's neighbours as read (stages 2-5), or an unvisit's as its
        // frame has them. The centre's bank holds its neighbours two files
        // aside, the other bank those one file aside.
        self.visiting.next = (self.stage.q.val() >= 2) & (self.stage.q.val() <= 5);
        self.centre_bank.next = self.centre.q.val().get_bit(0);
        if !self.stage.q.val().any() {
            self.centre_bank.next = self.frame_cell.val().get_bit(0);
        }
        // An unvisit: the lowest neighbour left in each bank.
        self.odd_pending.next = self.odd_left.q.val();
        self.even_pending.next = self.even_left.q.val();
        if self.unvisit.val() {
            // (The centre's own word takes its bank's port this clock.)
            self.odd_pending.next = self.frame_free.val() & self.odd_files.val();
            self.even_pending.next = 0.into();
        }
        self.odd_pick.next = self.odd_pending.val() & (!self.odd_pending.val() + 1);
        self.even_pick.next = self.even_pending.val() & (!self.even_pending.val() + 1);
        // With no pick, a visited word: left alone.
        self.odd_back.next = 0.into();
        self.even_back.next = 0.into();
        self.odd_back_ways.next = 0.into();
        self.even_back_ways.next = 0.into();
        for m in 0..8 {
            if self.odd_pick.val().get_bit(m) {
                self.odd_back.next = self.frame_cell.val() + self.move_offset[m].val();
                self.odd_back_ways.next = self.frame_moves_ways.val() >> self.move_shift[m].val();
            }
            if self.even_pick.val().get_bit(m) {
                self.even_back.next = self.frame_cell.val() + self.move_offset[m].val();
                self.even_back_ways.next = self.frame_moves_ways.val() >> self.move_shift[m].val();
            }
        }
        self.odd_back_word.next = bits::<6>(0)
            .replace_bit(4, (self.frame_moves_closing.val() & self.odd_pick.val()).any())
            .replace_bit(5, !self.odd_pick.val().any())
            | bit_cast::<6, 4>(self.odd_back_ways.val().get_bits::<4>(0));
        self.even_back_word.next = bits::<6>(0)
            .replace_bit(4, (self.frame_moves_closing.val() & self.even_pick.val()).any())
            .replace_bit(5, !self.even_pick.val().any())
            | bit_cast::<6, 4>(self.even_back_ways.val().get_bits::<4>(0));
        self.odd_change.word.next = self.odd_back_word.val();
        self.even_change.word.next = self.even_back_word.val();
        self.odd_change.freeing.next = true;
        self.even_change.freeing.next = true;
        if self.visiting.val() {
            self.odd_change.freeing.next = false;
            self.even_change.freeing.next = false;
            self.odd_change.word.next = self.banks[1].read_data.val();
            self.even_change.word.next = self.banks[0].read_data.val();
            if self.centre_bank.val() {
                self.odd_change.word.next = self.banks[0].read_data.val();
                self.even_change.word.next = self.banks[1].read_data.val();
            }
        }
        self.odd_change.closed.next = self.closed.val();
        self.even_change.closed.next = self.closed.val();
        self.odd_rest.next = self.odd_pending.val() & !self.odd_pick.val();
        self.even_rest.next = self.even_pending.val() & !self.even_pick.val();
        if self.unvisit.val() {
            self.even_rest.next = self.frame_free.val() & self.even_files.val();
        }
        if self.unvisit.val() | self.freeing.q.val() {
            self.odd_left.d.next = self.odd_rest.val();
            self.even_left.d.next = self.even_rest.val();
            self.freeing.d.next = (self.odd_rest.val() | self.even_rest.val()).any();
        }

        // A visit's stages 1-4 read a pair of neighbours.
        self.odd_read.next = 0.into();
        self.even_read.next = 0.into();
        for k in 0..4 {
            if self.stage.q.val() == self.stage_issue[k].val() {
                self.odd_read.next = self.centre.q.val() + self.odd_offset[k].val();
                self.even_read.next = self.centre.q.val() + self.even_offset[k].val();
            }
        }
        self.odd_address.d.next = self.odd_read.val().get_bits::<CB>(1);
        self.even_address.d.next = self.even_read.val().get_bits::<CB>(1);
        if self.centre_bank.val() {
            self.banks[0].read_address.next = self.odd_read.val().get_bits::<CB>(1);
            self.banks[1].read_address.next = self.even_read.val().get_bits::<CB>(1);
        } else {
            self.banks[1].read_address.next = self.odd_read.val().get_bits::<CB>(1);
            self.banks[0].read_address.next = self.even_read.val().get_bits::<CB>(1);
        }
        if self.stage.q.val().any() {
            self.stage.d.next = self.stage.q.val() + 1;
            if self.stage.q.val() == 5 {
                self.stage.d.next = 0.into();
            }
        }

        // The pair's writes: free cells change by one way.
        if self.visiting.val() {
            if self.centre_bank.val() {
                self.banks[0].write_enable.next = self.odd_change.free.val();
                self.banks[0].write_address.next = self.odd_address.q.val();
                self.banks[1].write_enable.next = self.even_change.free.val();
                self.banks[1].write_address.next = self.even_address.q.val();
            } else {
                self.banks[1].write_enable.next = self.odd_change.free.val();
                self.banks[1].write_address.next = self.odd_address.q.val();
                self.banks[0].write_enable.next = self.even_change.free.val();
                self.banks[0].write_address.next = self.even_address.q.val();
            }
        } else if self.unvisit.val() | self.freeing.q.val() {
            if self.centre_bank.val() {
                self.banks[0].write_enable.next = self.odd_change.free.val();
                self.banks[0].write_address.next = self.odd_back.val().get_bits::<CB>(1);
                self.banks[1].write_enable.next = self.even_change.free.val();
                self.banks[1].write_address.next = self.even_back.val().get_bits::<CB>(1);
            } else {
                self.banks[1].write_enable.next = self.odd_change.free.val();
                self.banks[1].write_address.next = self.odd_back.val().get_bits::<CB>(1);
                self.banks[0].write_enable.next = self.even_change.free.val();
                self.banks[0].write_address.next = self.even_back.val().get_bits::<CB>(1);
            }
        }
        if self.centre_bank.val() {
            self.banks[0].write_data.next = self.odd_change.new_word.val();
            self.banks[1].write_data.next = self.even_change.new_word.val();
        } else {
            self.banks[1].write_data.next = self.odd_change.new_word.val();
            self.banks[0].write_data.next = self.even_change.new_word.val();
        }
        self.pair_no_way.next = 0.into();
        self.pair_one_way.next = 0.into();
        if self.visiting.val() | self.unvisit.val() | self.freeing.q.val() {
            self.pair_no_way.next = self.odd_change.no_way_change.val() + self.even_change.no_way_change.val();
            self.pair_one_way.next = self.odd_change.one_way_change.val() + self.even_change.one_way_change.val();
        }

        // The centre's own word, and the centre out of the tallies (a
        // visit's stage 1) or back in (an unvisit's pulse).
        self.own_active.next = (self.stage.q.val() == 1) | self.unvisit.val();
        self.own_freeing.next = self.unvisit.val();
        self.own_cell.next = self.centre.q.val();
        self.own_ways.next = self.centre_ways.q.val();
        self.own_closing.next = self.centre_closing.q.val();
        if self.unvisit.val() {
            self.own_cell.next = self.frame_cell.val();
            self.own_ways.next = self.frame_ways.val();
            self.own_closing.next = self.frame_closing.val();
        }
        self.own_base.next = self.own_ways.val();
        if self.closed.val() & self.own_closing.val() {
            self.own_base.next = self.own_ways.val() + 1;
        }
        self.own_word.next =
            bits::<6>(0).replace_bit(5, !self.own_freeing.val()).replace_bit(4, self.own_closing.val())
                | bit_cast::<6, 4>(self.own_ways.val());
        self.own_no_way.next = 0.into();
        self.own_one_way.next = 0.into();
        if self.own_active.val() {
            // (The centre's bank: its port is free this clock.)
            if self.own_cell.val().get_bit(0) {
                self.banks[1].write_enable.next = true;
                self.banks[1].write_address.next = self.own_cell.val().get_bits::<CB>(1);
                self.banks[1].write_data.next = self.own_word.val();
            } else {
                self.banks[0].write_enable.next = true;
                self.banks[0].write_address.next = self.own_cell.val().get_bits::<CB>(1);
                self.banks[0].write_data.next = self.own_word.val();
            }
            if self.own_freeing.val() {
                self.free.d.next = self.free.q.val() + 1;
                if self.own_closing.val() {
                    self.free_closing.d.next = self.free_closing.q.val() + 1;
                }
                if self.own_base.val() == 0 {
                    self.own_no_way.next = 1.into();
                }
                if self.own_base.val() == 1 {
                    self.own_one_way.next = 1.into();
                }
            } else {
                self.free.d.next = self.free.q.val() - 1;
                if self.own_closing.val() {
                    self.free_closing.d.next = self.free_closing.q.val() - 1;
                }
                if self.own_base.val() == 0 {
                    self.own_no_way.next = 0xFFFF.into();
                }
                if self.own_base.val() == 1 {
                    self.own_one_way.next = 0xFFFF.into();
                }
            }
        }
        self.no_way.d.next = self.no_way.q.val() + self.pair_no_way.val() + self.own_no_way.val();
        self.one_way.d.next = self.one_way.q.val() + self.pair_one_way.val() + self.own_one_way.val();

        // A visit reports its free neighbours: the next level's moves.
        self.odd_found.next = 0.into();
        self.even_found.next = 0.into();
        self.odd_ways_at.next = 0.into();
        self.even_ways_at.next = 0.into();
        self.odd_keep_at.next = self.keep_all.val();
        self.even_keep_at.next = self.keep_all.val();
        for k in 0..4 {
            if self.stage.q.val() == self.stage_data[k].val() {
                if self.odd_change.free.val() {
                    self.odd_found.next = self.odd_move[k].val();
                    self.odd_ways_at.next =
                        bit_cast::<32, 4>(self.odd_change.new_word.val().get_bits::<4>(0)) << self.odd_shift[k].val();
                    self.odd_keep_at.next = self.odd_keep[k].val();
                }
                if self.even_change.free.val() {
                    self.even_found.next = self.even_move[k].val();
                    self.even_ways_at.next =
                        bit_cast::<32, 4>(self.even_change.new_word.val().get_bits::<4>(0)) << self.even_shift[k].val();
                    self.even_keep_at.next = self.even_keep[k].val();
                }
            }
        }
        self.free_found_next.next = self.free_found.q.val() | self.odd_found.val() | self.even_found.val();
        self.ways_found_next.next = (self.ways_found.q.val() & self.odd_keep_at.val() & self.even_keep_at.val())
            | self.odd_ways_at.val()
            | self.even_ways_at.val();
        self.closing_found_next.next = self.closing_found.q.val();
        if self.odd_change.closing.val() & self.even_change.closing.val() {
            self.closing_found_next.next = self.closing_found.q.val() | self.odd_found.val() | self.even_found.val();
        } else if self.odd_change.closing.val() {
            self.closing_found_next.next = self.closing_found.q.val() | self.odd_found.val();
        } else if self.even_change.closing.val() {
            self.closing_found_next.next = self.closing_found.q.val() | self.even_found.val();
        }
        self.found_free.next = self.free_found_next.val();
        self.found_ways.next = self.ways_found_next.val();
        self.found_closing.next = self.closing_found_next.val();
        if self.visiting.val() {
            self.free_found.d.next = self.free_found_next.val();
            self.ways_found.d.next = self.ways_found_next.val();
            self.closing_found.d.next = self.closing_found_next.val();
        }

        // A sweep: a cell a clock over the padded grid.
        for i in 0..4 {
            self.file_ok[i].next = ((self.file.q.val() + self.step_delta[i].val()) >= 2)
                & ((self.file.q.val() + self.step_delta[i].val()) < (self.width.val() + 2));
            self.rank_ok[i].next = ((self.rank.q.val() + self.step_delta[i].val()) >= 2)
                & ((self.rank.q.val() + self.step_delta[i].val()) < (self.height.val() + 2));
        }
        // Moves as (files, ranks), deltas indexed -2, -1, +1, +2.
        self.move_ok.next = bits::<8>(0)
            .replace_bit(0, self.file_ok[2].val() & self.rank_ok[3].val())
            .replace_bit(1, self.file_ok[3].val() & self.rank_ok[2].val())
            .replace_bit(2, self.file_ok[3].val() & self.rank_ok[1].val())
            .replace_bit(3, self.file_ok[2].val() & self.rank_ok[0].val())
            .replace_bit(4, self.file_ok[1].val() & self.rank_ok[0].val())
            .replace_bit(5, self.file_ok[0].val() & self.rank_ok[1].val())
            .replace_bit(6, self.file_ok[0].val() & self.rank_ok[2].val())
            .replace_bit(7, self.file_ok[1].val() & self.rank_ok[3].val());
        self.sweep_ways.next = bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(0))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(1))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(2))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(3))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(4))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(5))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(6))
            + bit_cast::<4, 1>(self.move_ok.val().get_bits::<1>(7));
        self.sweep_on.next = (self.file.q.val() >= 2)
            & (self.file.q.val() < (self.width.val() + 2))
            & (self.rank.q.val() >= 2)
            & (self.rank.q.val() < (self.height.val() + 2));
        self.start_file_pad.next = self.start_file.val() + 2;
        self.start_rank_pad.next = self.start_rank.val() + 2;
        self.file_from_start.next = self.file.q.val() - self.start_file_pad.val();
        self.rank_from_start.next = self.rank.q.val() - self.start_rank_pad.val();
        self.sweep_closing.next = self.sweep_on.val()
            & ((((self.file_from_start.val() == 1) | (self.file_from_start.val() == 255))
                & ((self.rank_from_start.val() == 2) | (self.rank_from_start.val() == 254)))
                | (((self.file_from_start.val() == 2) | (self.file_from_start.val() == 254))
                    & ((self.rank_from_start.val() == 1) | (self.rank_from_start.val() == 255))));
        self.sweep_base.next = self.sweep_ways.val();
        if self.closed.val() & self.sweep_closing.val() {
            self.sweep_base.next = self.sweep_ways.val() + 1;
        }
        if self.sweeping.q.val() {
            if self.sweep_cell.q.val().get_bit(0) {
                self.banks[1].write_enable.next = true;
                self.banks[1].write_address.next = self.sweep_cell.q.val().get_bits::<CB>(1);
                self.banks[1].write_data.next =
                    bits::<6>(0).replace_bit(5, !self.sweep_on.val()).replace_bit(4, self.sweep_closing.val())
                        | bit_cast::<6, 4>(self.sweep_ways.val());
            } else {
                self.banks[0].write_enable.next = true;
                self.banks[0].write_address.next = self.sweep_cell.q.val().get_bits::<CB>(1);
                self.banks[0].write_data.next =
                    bits::<6>(0).replace_bit(5, !self.sweep_on.val()).replace_bit(4, self.sweep_closing.val())
                        | bit_cast::<6, 4>(self.sweep_ways.val());
            }
            if self.sweep_on.val() {
                self.free.d.next = self.free.q.val() + 1;
                self.area_held.d.next = self.area_held.q.val() + 1;
                if self.sweep_closing.val() {
                    self.free_closing.d.next = self.free_closing.q.val() + 1;
                }
                if self.sweep_base.val() == 0 {
                    self.no_way.d.next = self.no_way.q.val() + 1;
                }
                if self.sweep_base.val() == 1 {
                    self.one_way.d.next = self.one_way.q.val() + 1;
                }
            }
            if (self.file.q.val() == self.start_file_pad.val()) & (self.rank.q.val() == self.start_rank_pad.val()) {
                self.start_cell_held.d.next = self.sweep_cell.q.val();
                self.start_ways_held.d.next = self.sweep_ways.val();
            }
            self.sweep_cell.d.next = self.sweep_cell.q.val() + 1;
            self.file.d.next = self.file.q.val() + 1;
            if self.file.q.val() == self.last_file.val() {
                self.file.d.next = 0.into();
                self.rank.d.next = self.rank.q.val() + 1;
                if self.rank.q.val() == self.last_rank.val() {
                    self.sweeping.d.next = false;
                }
            }
        }

        // Requests (each while not busy).
        if self.sweep.val() {
            self.sweeping.d.next = true;
            self.stage.d.next = 0.into();
            self.freeing.d.next = false;
            self.file.d.next = 0.into();
            self.rank.d.next = 0.into();
            self.sweep_cell.d.next = 0.into();
            self.no_way.d.next = 0.into();
            self.one_way.d.next = 0.into();
            self.free.d.next = 0.into();
            self.free_closing.d.next = 0.into();
            self.area_held.d.next = 0.into();
        }
        if self.visit.val() {
            self.stage.d.next = 1.into();
            self.centre.d.next = self.target.val();
            self.centre_ways.d.next = self.target_ways.val();
            self.centre_closing.d.next = self.target_closing.val();
            self.free_found.d.next = 0.into();
            self.closing_found.d.next = 0.into();
        }

        // The dead-end judge: the tallies with the judged square left out.
        self.judge_base.next = self.judge_ways.val();
        if self.closed.val() & self.judge_closing.val() {
            self.judge_base.next = self.judge_ways.val() + 1;
        }
        self.other_no_way.next = self.no_way.q.val();
        if self.judge_base.val() == 0 {
            self.other_no_way.next = self.no_way.q.val() - 1;
        }
        self.other_one_way.next = self.one_way.q.val();
        if self.judge_base.val() == 1 {
            self.other_one_way.next = self.one_way.q.val() - 1;
        }
        self.closing_left.next = self.free_closing.q.val();
        if self.judge_closing.val() {
            self.closing_left.next = self.free_closing.q.val() - 1;
        }
        if self.closed.val() {
            self.dead.next = self.prune.val()
                & (self.other_no_way.val().any()
                    | self.other_one_way.val().any()
                    | ((self.free.q.val() > 1) & !self.closing_left.val().any()));
        } else {
            self.dead.next = self.prune.val() & (self.other_no_way.val().any() | (self.other_one_way.val() >= 2));
        }
    }
}
