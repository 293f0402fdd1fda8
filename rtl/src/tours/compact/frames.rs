//! The compact engine's stack: a frame per level below the current one, in
//! block RAM. A frame is what a backtrack into its level needs: the level's
//! cell, its moves (those not tried yet, and all its free neighbours, which
//! leaving the level frees again), each move's free neighbours and closing
//! bit (for the move order and the dead-end judge), and the cell's own. The
//! squares of the path are kept apart, for streaming a tour out while the
//! frames stay put.

use rust_hdl::prelude::*;

/// A stack of `2^LB` frames.
#[derive(LogicBlock, Default)]
pub struct FrameStack<const AB: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The frame at `read_level`, a clock later.
    pub read_level: Signal<In, Bits<LB>>,
    pub level_cell: Signal<Out, Bits<AB>>,
    pub untried: Signal<Out, Bits<8>>,
    pub free: Signal<Out, Bits<8>>,
    pub ways: Signal<Out, Bits<32>>,
    pub closing: Signal<Out, Bits<8>>,
    pub own_ways: Signal<Out, Bits<4>>,
    pub own_closing: Signal<Out, bool>,
    /// Writes the frame given at `write_level` at the clock's edge.
    pub push: Signal<In, bool>,
    pub write_level: Signal<In, Bits<LB>>,
    pub write_cell: Signal<In, Bits<AB>>,
    pub write_untried: Signal<In, Bits<8>>,
    pub write_free: Signal<In, Bits<8>>,
    pub write_ways: Signal<In, Bits<32>>,
    pub write_closing: Signal<In, Bits<8>>,
    pub write_own_ways: Signal<In, Bits<4>>,
    pub write_own_closing: Signal<In, bool>,
    /// The path's squares (`rank * max_width + file`), a level each.
    pub square_read_level: Signal<In, Bits<LB>>,
    pub square: Signal<Out, Bits<LB>>,
    pub square_write: Signal<In, bool>,
    pub square_write_level: Signal<In, Bits<LB>>,
    pub write_square: Signal<In, Bits<LB>>,

    cells: RAM<Bits<AB>, LB>,
    // Untried moves in the low byte, free neighbours in the high one.
    moves: RAM<Bits<16>, LB>,
    ways_ram: RAM<Bits<32>, LB>,
    // Moves' closing bits in the low byte, then the own closing bit and the
    // own free neighbours.
    own: RAM<Bits<16>, LB>,
    squares: RAM<Bits<LB>, LB>,
}

impl<const AB: usize, const LB: usize> Logic for FrameStack<AB, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.cells.read_clock.next = self.clock.val();
        self.cells.write_clock.next = self.clock.val();
        self.moves.read_clock.next = self.clock.val();
        self.moves.write_clock.next = self.clock.val();
        self.ways_ram.read_clock.next = self.clock.val();
        self.ways_ram.write_clock.next = self.clock.val();
        self.own.read_clock.next = self.clock.val();
        self.own.write_clock.next = self.clock.val();
        self.squares.read_clock.next = self.clock.val();
        self.squares.write_clock.next = self.clock.val();

        self.cells.read_address.next = self.read_level.val();
        self.moves.read_address.next = self.read_level.val();
        self.ways_ram.read_address.next = self.read_level.val();
        self.own.read_address.next = self.read_level.val();
        self.level_cell.next = self.cells.read_data.val();
        self.untried.next = self.moves.read_data.val().get_bits::<8>(0);
        self.free.next = self.moves.read_data.val().get_bits::<8>(8);
        self.ways.next = self.ways_ram.read_data.val();
        self.closing.next = self.own.read_data.val().get_bits::<8>(0);
        self.own_closing.next = self.own.read_data.val().get_bit(8);
        self.own_ways.next = self.own.read_data.val().get_bits::<4>(9);

        self.cells.write_address.next = self.write_level.val();
        self.moves.write_address.next = self.write_level.val();
        self.ways_ram.write_address.next = self.write_level.val();
        self.own.write_address.next = self.write_level.val();
        self.cells.write_enable.next = self.push.val();
        self.moves.write_enable.next = self.push.val();
        self.ways_ram.write_enable.next = self.push.val();
        self.own.write_enable.next = self.push.val();
        self.cells.write_data.next = self.write_cell.val();
        self.moves.write_data.next =
            bit_cast::<16, 8>(self.write_untried.val()) | (bit_cast::<16, 8>(self.write_free.val()) << 8);
        self.ways_ram.write_data.next = self.write_ways.val();
        self.own.write_data.next =
            bit_cast::<16, 8>(self.write_closing.val()) | (bit_cast::<16, 4>(self.write_own_ways.val()) << 9);
        if self.write_own_closing.val() {
            self.own.write_data.next = bit_cast::<16, 8>(self.write_closing.val())
                | (bit_cast::<16, 4>(self.write_own_ways.val()) << 9)
                | 0x100;
        }

        self.squares.read_address.next = self.square_read_level.val();
        self.square.next = self.squares.read_data.val();
        self.squares.write_address.next = self.square_write_level.val();
        self.squares.write_enable.next = self.square_write.val();
        self.squares.write_data.next = self.write_square.val();
    }
}
