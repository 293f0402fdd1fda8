//! The board's cells in block RAM: each cell's word says whether it is
//! visited, whether it is a knight move from the start square (*closing*)
//! and how many free neighbours it has. Two banks by file parity (the row
//! stride is even), so a knight step of one file lands in the other bank
//! and one of two files in the same one: a clock reads or writes one
//! neighbour in each.
//!
//! Only free cells' counts are kept up to date. A visited neighbour of a
//! cell being entered was entered before it and is left after it, so the
//! cell's coming and going never shows in that neighbour's count when it is
//! freed again (the search is a stack).
//!
//! Operations, each started by a pulse while not `busy`:
//! - `sweep`: lays out the board ([`BoardSweep`]), a cell a clock, counting
//!   the tallies ([`Tallies`]).
//! - `visit` the free `target` (its free neighbours, its closing bit):
//!   marks it visited, takes one free neighbour from each of its free
//!   neighbours and reports them (`found_*`: the moves of the level it
//!   starts). Its neighbours are read a pair a clock, the first in the
//!   pulse's clock (`target` is read every idle clock): `found_*` are final
//!   in the fourth clock after the pulse (`visit_ends`).
//! - `unvisit` the current level's cell (`frame_*`, its level's frame):
//!   frees it and gives each of its free neighbours its way back. Their
//!   counts are the frame's (the board is as it was when the level was
//!   entered), so this only writes: the cell and a neighbour of the other
//!   bank in the pulse's clock, then a neighbour of each bank a clock.

use rust_hdl::prelude::*;

use super::found_moves::FoundMoves;
use super::grid::{PaddedGrid, EVEN_FILE_MOVES, ODD_FILE_MOVES};
use super::pair_cells::PairCells;
use super::pair_picks::PendingPicks;
use super::sweep::BoardSweep;
use super::tallies::{Tallies, WaysChange};
use crate::tours::common::geometry::Geometry;

/// A padded grid of up to `2^AB` cells in two banks of `2^CB` (`CB = AB -
/// 1`), with tallies of `TB` bits.
#[derive(LogicBlock)]
pub struct BoardCells<const AB: usize, const CB: usize, const TB: usize> {
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

    /// Frees the current level's cell, its frame given with the pulse (the
    /// cells keep what they need of it until not `busy`).
    pub unvisit: Signal<In, bool>,
    pub frame_cell: Signal<In, Bits<AB>>,
    pub frame_ways: Signal<In, Bits<4>>,
    pub frame_closing: Signal<In, bool>,
    pub frame_free: Signal<In, Bits<8>>,
    pub frame_moves_ways: Signal<In, Bits<32>>,
    pub frame_moves_closing: Signal<In, Bits<8>>,
    pub busy: Signal<Out, bool>,
    /// An unvisit writes its last neighbour this clock (in its pulse's
    /// clock when it has no more than one free neighbour, in the other
    /// bank): not `busy` after it.
    pub unvisit_ends: Signal<Out, bool>,

    /// After a sweep: the start square's cell and free neighbours.
    pub start_cell: Signal<Out, Bits<AB>>,
    pub start_ways: Signal<Out, Bits<4>>,
    /// Free squares now; just one.
    pub free_cells: Signal<Out, Bits<TB>>,
    pub free_one: Signal<Out, bool>,
    /// The dead-end judge ([`Tallies`]).
    pub judge_base_none: Signal<In, bool>,
    pub judge_base_one: Signal<In, bool>,
    pub judge_closing: Signal<In, bool>,
    pub dead: Signal<Out, bool>,

    banks: [RAM<Bits<6>, CB>; 2],
    sweeper: BoardSweep<AB>,
    tallies: Tallies<TB>,
    odd_change: WaysChange<TB>,
    even_change: WaysChange<TB>,
    picks: PendingPicks,
    pair: PairCells<AB>,
    found: FoundMoves,
    odd_files: Constant<Bits<8>>,
    even_files: Constant<Bits<8>>,

    // A visit: its stage (0 idle, or its pulse, which reads pair 0; 2-4
    // read pairs 1-3; 2-5 write pairs 0-3).
    stage: DFF<Bits<3>>,
    centre: DFF<Bits<AB>>,
    centre_ways: DFF<Bits<4>>,
    centre_closing: DFF<bool>,
    odd_address: DFF<Bits<CB>>,
    even_address: DFF<Bits<CB>>,
    free_found: DFF<Bits<8>>,
    ways_found: DFF<Bits<32>>,
    closing_found: DFF<Bits<8>>,
    // An unvisit: its frame's cell and moves, and the neighbours still to
    // write back, by bank.
    held_cell: DFF<Bits<AB>>,
    held_ways: DFF<Bits<32>>,
    held_closing: DFF<Bits<8>>,
    freeing: DFF<bool>,
    odd_left: DFF<Bits<8>>,
    even_left: DFF<Bits<8>>,

    visiting: Signal<Local, bool>,
    unvisiting: Signal<Local, bool>,
    leaving_cell: Signal<Local, Bits<AB>>,
    leaving_ways: Signal<Local, Bits<32>>,
    leaving_closing: Signal<Local, Bits<8>>,
    odd_pending: Signal<Local, Bits<8>>,
    even_pending: Signal<Local, Bits<8>>,
    odd_rest: Signal<Local, Bits<8>>,
    even_rest: Signal<Local, Bits<8>>,
    own_write: Signal<Local, bool>,
    own_cell: Signal<Local, Bits<AB>>,
    own_word: Signal<Local, Bits<6>>,
    odd_read: Signal<Local, Bits<6>>,
    even_read: Signal<Local, Bits<6>>,
    odd_write_address: Signal<Local, Bits<CB>>,
    even_write_address: Signal<Local, Bits<CB>>,
    write_bank: Signal<Local, bool>,
}

fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.into())
}

impl<const AB: usize, const CB: usize, const TB: usize> BoardCells<AB, CB, TB> {
    pub fn new(geometry: Geometry) -> Self {
        let grid = PaddedGrid::new(geometry);
        assert!(CB + 1 == AB && grid.cells() <= 1 << AB, "{AB} bits must number the {} cells", grid.cells());
        assert!(geometry.squares() < 1 << TB, "{TB} bits must count the squares");
        let bits = |moves: [usize; 4]| constant(moves.iter().map(|m| 1u64 << m).sum());
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
            unvisit_ends: Default::default(),
            start_cell: Default::default(),
            start_ways: Default::default(),
            free_cells: Default::default(),
            free_one: Default::default(),
            judge_base_none: Default::default(),
            judge_base_one: Default::default(),
            judge_closing: Default::default(),
            dead: Default::default(),
            banks: Default::default(),
            sweeper: BoardSweep::new(geometry),
            tallies: Default::default(),
            odd_change: Default::default(),
            even_change: Default::default(),
            picks: Default::default(),
            pair: PairCells::new(geometry),
            found: Default::default(),
            odd_files: bits(ODD_FILE_MOVES),
            even_files: bits(EVEN_FILE_MOVES),
            stage: Default::default(),
            centre: Default::default(),
            centre_ways: Default::default(),
            centre_closing: Default::default(),
            odd_address: Default::default(),
            even_address: Default::default(),
            free_found: Default::default(),
            ways_found: Default::default(),
            closing_found: Default::default(),
            held_cell: Default::default(),
            held_ways: Default::default(),
            held_closing: Default::default(),
            freeing: Default::default(),
            odd_left: Default::default(),
            even_left: Default::default(),
            visiting: Default::default(),
            unvisiting: Default::default(),
            leaving_cell: Default::default(),
            leaving_ways: Default::default(),
            leaving_closing: Default::default(),
            odd_pending: Default::default(),
            even_pending: Default::default(),
            odd_rest: Default::default(),
            even_rest: Default::default(),
            own_write: Default::default(),
            own_cell: Default::default(),
            own_word: Default::default(),
            odd_read: Default::default(),
            even_read: Default::default(),
            odd_write_address: Default::default(),
            even_write_address: Default::default(),
            write_bank: Default::default(),
        }
    }
}

impl<const AB: usize, const CB: usize, const TB: usize> Logic for BoardCells<AB, CB, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        // A visit's registers, then an unvisit's.
        dff_setup!(self, clock, stage, centre, centre_ways, centre_closing, odd_address, even_address, free_found);
        dff_setup!(self, clock, ways_found, closing_found);
        dff_setup!(self, clock, held_cell, held_ways, held_closing, freeing, odd_left, even_left);
        clock!(self, clock, sweeper, tallies);
        for b in 0..2 {
            self.banks[b].read_clock.next = self.clock.val();
            self.banks[b].write_clock.next = self.clock.val();
            self.banks[b].write_enable.next = false;
        }
        self.sweeper.start.next = self.sweep.val();
        self.sweeper.width.next = self.width.val();
        self.sweeper.height.next = self.height.val();
        self.sweeper.start_file.next = self.start_file.val();
        self.sweeper.start_rank.next = self.start_rank.val();
        self.start_cell.next = self.sweeper.start_cell.val();
        self.start_ways.next = self.sweeper.start_ways.val();
        self.tallies.clear.next = self.sweep.val();
        self.tallies.closed.next = self.closed.val();
        self.tallies.prune.next = self.prune.val();
        self.tallies.judge_base_none.next = self.judge_base_none.val();
        self.tallies.judge_base_one.next = self.judge_base_one.val();
        self.tallies.judge_closing.next = self.judge_closing.val();
        self.dead.next = self.tallies.dead.val();
        self.free_cells.next = self.tallies.free.val();
        self.free_one.next = self.tallies.free_one.val();
        self.busy.next = self.sweeper.active.val() | self.stage.q.val().any() | self.freeing.q.val();
        self.visit_ends.next = self.stage.q.val() == 5;

        // This clock's pair of neighbours, one in each bank: a visit reads
        // pair k in stage k + 1 (and writes it back a clock later, at the
        // address kept); an unvisit writes the lowest neighbour left in each
        // bank (the other bank's only, in its pulse's clock: the cell's own
        // word takes its bank). A cell's bank is its file's parity; the
        // centre's holds its neighbours two files aside.
        self.visiting.next = (self.stage.q.val() >= 2) & (self.stage.q.val() <= 5);
        self.unvisiting.next = self.unvisit.val() | self.freeing.q.val();
        // The unvisited level's frame: as given in the pulse, then as kept.
        // (Chosen by `freeing`, a register, not by the pulse, which comes
        // late in its clock: outside an unvisit the choice does not matter.)
        self.leaving_cell.next = self.held_cell.q.val();
        self.leaving_ways.next = self.held_ways.q.val();
        self.leaving_closing.next = self.held_closing.q.val();
        if !self.freeing.q.val() {
            self.leaving_cell.next = self.frame_cell.val();
            self.leaving_ways.next = self.frame_moves_ways.val();
            self.leaving_closing.next = self.frame_moves_closing.val();
            self.held_cell.d.next = self.frame_cell.val();
            self.held_ways.d.next = self.frame_moves_ways.val();
            self.held_closing.d.next = self.frame_moves_closing.val();
        }
        self.odd_pending.next = self.odd_left.q.val();
        self.even_pending.next = self.even_left.q.val();
        if !self.freeing.q.val() {
            self.odd_pending.next = self.frame_free.val() & self.odd_files.val();
            self.even_pending.next = 0.into();
        }
        // The lowest pending neighbour of each bank.
        self.picks.odd_pending.next = self.odd_pending.val();
        self.picks.even_pending.next = self.even_pending.val();
        self.odd_rest.next = self.odd_pending.val() & !self.picks.odd_pick.val();
        self.even_rest.next = self.even_pending.val() & !self.picks.even_pick.val();
        if !self.freeing.q.val() {
            self.even_rest.next = self.frame_free.val() & self.even_files.val();
        }
        self.unvisit_ends.next = self.unvisiting.val() & !(self.odd_rest.val() | self.even_rest.val()).any();
        if self.unvisiting.val() {
            self.odd_left.d.next = self.odd_rest.val();
            self.even_left.d.next = self.even_rest.val();
            self.freeing.d.next = (self.odd_rest.val() | self.even_rest.val()).any();
        }
        self.pair.stage.next = self.stage.q.val();
        self.pair.centre.next = self.centre.q.val();
        self.pair.target.next = self.target.val();
        self.pair.leaving_cell.next = self.leaving_cell.val();
        self.pair.odd_pick.next = self.picks.odd_pick.val();
        self.pair.even_pick.next = self.picks.even_pick.val();
        self.odd_address.d.next = self.pair.odd_cell.val().get_bits::<CB>(1);
        self.even_address.d.next = self.pair.even_cell.val().get_bits::<CB>(1);

        // The pair's words: as read (a visit), or as the frame has them (an
        // unvisit; with no pick, a visited word, left alone).
        self.odd_change.closed.next = self.closed.val();
        self.even_change.closed.next = self.closed.val();
        self.odd_change.freeing.next = !self.visiting.val();
        self.even_change.freeing.next = !self.visiting.val();
        self.odd_change.word.next = bits::<6>(0)
            .replace_bit(4, (self.leaving_closing.val() & self.picks.odd_pick.val()).any())
            .replace_bit(5, !self.picks.odd_pick.val().any())
            | bit_cast::<6, 32>((self.leaving_ways.val() >> self.pair.odd_back_shift.val()) & 15);
        self.even_change.word.next = bits::<6>(0)
            .replace_bit(4, (self.leaving_closing.val() & self.picks.even_pick.val()).any())
            .replace_bit(5, !self.picks.even_pick.val().any())
            | bit_cast::<6, 32>((self.leaving_ways.val() >> self.pair.even_back_shift.val()) & 15);
        // (Read data is a visit's, mapped by its centre's bank: the bank
        // this clock's addresses use may be the next visit's.)
        self.odd_read.next = self.banks[1].read_data.val();
        self.even_read.next = self.banks[0].read_data.val();
        if self.centre.q.val().get_bit(0) {
            self.odd_read.next = self.banks[0].read_data.val();
            self.even_read.next = self.banks[1].read_data.val();
        }
        if self.visiting.val() {
            self.odd_change.word.next = self.odd_read.val();
            self.even_change.word.next = self.even_read.val();
        }
        self.tallies.odd_no_way.next = 0.into();
        self.tallies.odd_one_way.next = 0.into();
        self.tallies.even_no_way.next = 0.into();
        self.tallies.even_one_way.next = 0.into();
        if self.visiting.val() | self.unvisiting.val() {
            self.tallies.odd_no_way.next = self.odd_change.no_way_change.val();
            self.tallies.odd_one_way.next = self.odd_change.one_way_change.val();
            self.tallies.even_no_way.next = self.even_change.no_way_change.val();
            self.tallies.even_one_way.next = self.even_change.one_way_change.val();
        }

        // The banks: the pair's reads and writes (free cells change by one
        // way), mapped by the centre's bank: a visit's reads, and its writes
        // a clock later at the addresses kept; or an unvisit's writes.
        self.banks[0].read_address.next = self.pair.even_cell.val().get_bits::<CB>(1);
        self.banks[1].read_address.next = self.pair.odd_cell.val().get_bits::<CB>(1);
        if self.pair.centre_bank.val() {
            self.banks[0].read_address.next = self.pair.odd_cell.val().get_bits::<CB>(1);
            self.banks[1].read_address.next = self.pair.even_cell.val().get_bits::<CB>(1);
        }
        self.odd_write_address.next = self.pair.odd_freed.val().get_bits::<CB>(1);
        self.even_write_address.next = self.pair.even_freed.val().get_bits::<CB>(1);
        self.write_bank.next = self.pair.leaving_bank.val();
        if self.visiting.val() {
            self.odd_write_address.next = self.odd_address.q.val();
            self.even_write_address.next = self.even_address.q.val();
            self.write_bank.next = self.centre.q.val().get_bit(0);
        }
        self.banks[0].write_address.next = self.even_write_address.val();
        self.banks[1].write_address.next = self.odd_write_address.val();
        self.banks[0].write_data.next = self.even_change.new_word.val();
        self.banks[1].write_data.next = self.odd_change.new_word.val();
        self.banks[0].write_enable.next = (self.visiting.val() | self.unvisiting.val()) & self.even_change.free.val();
        self.banks[1].write_enable.next = (self.visiting.val() | self.unvisiting.val()) & self.odd_change.free.val();
        if self.write_bank.val() {
            self.banks[0].write_address.next = self.odd_write_address.val();
            self.banks[1].write_address.next = self.even_write_address.val();
            self.banks[0].write_data.next = self.odd_change.new_word.val();
            self.banks[1].write_data.next = self.even_change.new_word.val();
            self.banks[0].write_enable.next =
                (self.visiting.val() | self.unvisiting.val()) & self.odd_change.free.val();
            self.banks[1].write_enable.next =
                (self.visiting.val() | self.unvisiting.val()) & self.even_change.free.val();
        }

        // A cell's own word: the sweep's, the centre visited (in the visit's
        // pulse) or the frame's cell freed (in the unvisit's): its bank's port
        // is free then. It joins the free cells' tallies then, or leaves
        // them with the visit's first pair.
        // (The cell and word are chosen by the sweep, a register, and the
        // unvisit's pulse; the visit's pulse, the latest signal of the
        // clock, only enables the write.)
        self.own_write.next = self.sweeper.active.val() | self.visit.val() | self.unvisit.val();
        self.own_cell.next = self.target.val();
        self.own_word.next =
            bits::<6>(0b100000).replace_bit(4, self.target_closing.val()) | bit_cast::<6, 4>(self.target_ways.val());
        if self.unvisit.val() {
            self.own_cell.next = self.frame_cell.val();
            self.own_word.next =
                bits::<6>(0).replace_bit(4, self.frame_closing.val()) | bit_cast::<6, 4>(self.frame_ways.val());
        }
        if self.sweeper.active.val() {
            self.own_cell.next = self.sweeper.swept_cell.val();
            self.own_word.next =
                bits::<6>(0).replace_bit(5, !self.sweeper.on_board.val()).replace_bit(4, self.sweeper.closing.val())
                    | bit_cast::<6, 4>(self.sweeper.ways.val());
        }
        // (The tallies' own cell is chosen by registers: the sweep's, the
        // visited centre's in stage 2, else the frame's, which only the
        // unvisit's pulse, late in its clock, makes count.)
        self.tallies.own_joins.next = (self.sweeper.active.val() & self.sweeper.on_board.val()) | self.unvisit.val();
        self.tallies.own_leaves.next = self.stage.q.val() == 2;
        self.tallies.own_ways.next = self.frame_ways.val();
        self.tallies.own_closing.next = self.frame_closing.val();
        if self.sweeper.active.val() {
            self.tallies.own_ways.next = self.sweeper.ways.val();
            self.tallies.own_closing.next = self.sweeper.closing.val();
        }
        if self.stage.q.val() == 2 {
            self.tallies.own_ways.next = self.centre_ways.q.val();
            self.tallies.own_closing.next = self.centre_closing.q.val();
        }
        // (In the clocks an operation may start in, the own cell's bank
        // takes its word: no pair writes that bank then.)
        if self.sweeper.active.val() | (!self.visiting.val() & !self.freeing.q.val()) {
            if self.own_cell.val().get_bit(0) {
                self.banks[1].write_enable.next = self.own_write.val();
                self.banks[1].write_address.next = self.own_cell.val().get_bits::<CB>(1);
                self.banks[1].write_data.next = self.own_word.val();
            } else {
                self.banks[0].write_enable.next = self.own_write.val();
                self.banks[0].write_address.next = self.own_cell.val().get_bits::<CB>(1);
                self.banks[0].write_data.next = self.own_word.val();
            }
        }

        // A visit reports its free neighbours as the pairs come in: the
        // next level's moves.
        self.found.stage.next = self.stage.q.val();
        // (From the read data alone, not through the pair's change: an
        // unvisit's frame and picks never reach the next level's moves.)
        self.found.odd_free.next = !self.odd_read.val().get_bit(5);
        self.found.even_free.next = !self.even_read.val().get_bit(5);
        self.found.odd_ways.next = self.odd_read.val().get_bits::<4>(0) - 1;
        self.found.even_ways.next = self.even_read.val().get_bits::<4>(0) - 1;
        self.found.odd_closing.next = self.odd_read.val().get_bit(4);
        self.found.even_closing.next = self.even_read.val().get_bit(4);
        self.found.free_before.next = self.free_found.q.val();
        self.found.ways_before.next = self.ways_found.q.val();
        self.found.closing_before.next = self.closing_found.q.val();
        self.found_free.next = self.found.free.val();
        self.found_ways.next = self.found.ways.val();
        self.found_closing.next = self.found.closing.val();
        if self.visiting.val() {
            self.free_found.d.next = self.found.free.val();
            self.ways_found.d.next = self.found.ways.val();
            self.closing_found.d.next = self.found.closing.val();
        }
        if self.stage.q.val().any() {
            self.stage.d.next = self.stage.q.val() + 1;
            if self.stage.q.val() == 5 {
                self.stage.d.next = 0.into();
            }
        }
        if self.sweep.val() {
            // (A search stopped mid-visit or mid-unvisit leaves nothing
            // behind: the sweep rewrites every cell.)
            self.stage.d.next = 0.into();
            self.freeing.d.next = false;
        }
        if self.visit.val() {
            self.stage.d.next = 2.into();
            self.centre.d.next = self.target.val();
            self.centre_ways.d.next = self.target_ways.val();
            self.centre_closing.d.next = self.target_closing.val();
            self.free_found.d.next = 0.into();
            self.closing_found.d.next = 0.into();
        }
    }
}
