//! The search stack: one entry per level, in RAM (block RAM for the visited
//! squares; the narrow fields map to LUT RAM or block RAM as the part has
//! them). An entry keeps what a backtrack into its level needs at once: the
//! moves not yet tried there, the level's square (also what a tour streams
//! out), the moves' Warnsdorff degrees and which of them are dead ends, the
//! visited squares as the level was left, and the next level down that still
//! has untried moves (a link, so that a pop never searches for it).

use rust_hdl::prelude::*;

/// A stack of `2^LB` levels over a board of `SQ` squares.
#[derive(LogicBlock, Default)]
pub struct Stack<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The entry read; its fields come out a clock later.
    pub read_address: Signal<In, Bits<LB>>,
    /// The square field's own read address (a tour being streamed reads
    /// squares alone, level by level); else `read_address`.
    pub square_read_address: Signal<In, Bits<LB>>,
    pub moves: Signal<Out, Bits<8>>,
    pub square: Signal<Out, Bits<LB>>,
    pub degrees: Signal<Out, Bits<32>>,
    pub doomed: Signal<Out, Bits<8>>,
    pub visited: Signal<Out, Bits<SQ>>,
    pub below: Signal<Out, Bits<LB>>,
    pub below_valid: Signal<Out, bool>,

    /// The entry written at the clock's edge.
    pub write_address: Signal<In, Bits<LB>>,
    /// Writes every field (a level pushed).
    pub push: Signal<In, bool>,
    /// Writes the moves, square and degrees only (a level revisited: a
    /// backtrack takes one of its moves; a prefix square is entered).
    pub rewrite: Signal<In, bool>,
    pub write_moves: Signal<In, Bits<8>>,
    pub write_square: Signal<In, Bits<LB>>,
    pub write_degrees: Signal<In, Bits<32>>,
    pub write_doomed: Signal<In, Bits<8>>,
    pub write_visited: Signal<In, Bits<SQ>>,
    pub write_below: Signal<In, Bits<LB>>,
    pub write_below_valid: Signal<In, bool>,

    moves_ram: RAM<Bits<8>, LB>,
    squares_ram: RAM<Bits<LB>, LB>,
    degrees_ram: RAM<Bits<32>, LB>,
    doomed_ram: RAM<Bits<8>, LB>,
    visited_ram: RAM<Bits<SQ>, LB>,
    // The link and whether there is one, apart (a `Bits<{ LB + 1 }>` word
    // would need generic const arithmetic).
    below_ram: RAM<Bits<LB>, LB>,
    below_valid_ram: RAM<Bits<1>, LB>,
}

impl<const SQ: usize, const LB: usize> Logic for Stack<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.moves_ram.read_clock.next = self.clock.val();
        self.moves_ram.write_clock.next = self.clock.val();
        self.squares_ram.read_clock.next = self.clock.val();
        self.squares_ram.write_clock.next = self.clock.val();
        self.degrees_ram.read_clock.next = self.clock.val();
        self.degrees_ram.write_clock.next = self.clock.val();
        self.doomed_ram.read_clock.next = self.clock.val();
        self.doomed_ram.write_clock.next = self.clock.val();
        self.visited_ram.read_clock.next = self.clock.val();
        self.visited_ram.write_clock.next = self.clock.val();
        self.below_ram.read_clock.next = self.clock.val();
        self.below_ram.write_clock.next = self.clock.val();
        self.below_valid_ram.read_clock.next = self.clock.val();
        self.below_valid_ram.write_clock.next = self.clock.val();

        self.moves_ram.read_address.next = self.read_address.val();
        self.squares_ram.read_address.next = self.square_read_address.val();
        self.degrees_ram.read_address.next = self.read_address.val();
        self.doomed_ram.read_address.next = self.read_address.val();
        self.visited_ram.read_address.next = self.read_address.val();
        self.below_ram.read_address.next = self.read_address.val();
        self.below_valid_ram.read_address.next = self.read_address.val();
        self.moves.next = self.moves_ram.read_data.val();
        self.square.next = self.squares_ram.read_data.val();
        self.degrees.next = self.degrees_ram.read_data.val();
        self.doomed.next = self.doomed_ram.read_data.val();
        self.visited.next = self.visited_ram.read_data.val();
        self.below.next = self.below_ram.read_data.val();
        self.below_valid.next = self.below_valid_ram.read_data.val().any();

        self.moves_ram.write_address.next = self.write_address.val();
        self.squares_ram.write_address.next = self.write_address.val();
        self.degrees_ram.write_address.next = self.write_address.val();
        self.doomed_ram.write_address.next = self.write_address.val();
        self.visited_ram.write_address.next = self.write_address.val();
        self.below_ram.write_address.next = self.write_address.val();
        self.below_valid_ram.write_address.next = self.write_address.val();
        self.moves_ram.write_data.next = self.write_moves.val();
        self.squares_ram.write_data.next = self.write_square.val();
        self.degrees_ram.write_data.next = self.write_degrees.val();
        self.doomed_ram.write_data.next = self.write_doomed.val();
        self.visited_ram.write_data.next = self.write_visited.val();
        self.below_ram.write_data.next = self.write_below.val();
        self.below_valid_ram.write_data.next = bits::<1>(0).replace_bit(0, self.write_below_valid.val());
        self.moves_ram.write_enable.next = self.push.val() | self.rewrite.val();
        self.squares_ram.write_enable.next = self.push.val() | self.rewrite.val();
        self.degrees_ram.write_enable.next = self.push.val() | self.rewrite.val();
        self.doomed_ram.write_enable.next = self.push.val();
        self.visited_ram.write_enable.next = self.push.val();
        self.below_ram.write_enable.next = self.push.val();
        self.below_valid_ram.write_enable.next = self.push.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_writes_every_field_and_a_rewrite_three() {
        let mut uut = Stack::<16, 4>::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Stack<16, 4>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Stack<16, 4>>| {
            let mut x = sim.init()?;
            // Push levels 0-3, each field a function of its level.
            for level in 0..4u64 {
                x.write_address.next = level.into();
                x.push.next = true;
                x.write_moves.next = (level + 1).into();
                x.write_square.next = (level + 5).into();
                x.write_degrees.next = (level * 0x1111).into();
                x.write_doomed.next = (1 << level).into();
                x.write_visited.next = ((1 << (level + 1)) - 1).into();
                x.write_below.next = level.saturating_sub(1).into();
                x.write_below_valid.next = level > 0;
                wait_clock_cycle!(sim, clock, x);
            }
            // Rewrite level 2's moves, square and degrees: its other fields stay.
            x.push.next = false;
            x.rewrite.next = true;
            x.write_address.next = 2.into();
            x.write_moves.next = 0x80.into();
            x.write_square.next = 15.into();
            x.write_degrees.next = 0x8000_0000.into();
            x.write_doomed.next = 0xff.into();
            x.write_visited.next = 0xffff.into();
            x.write_below_valid.next = false;
            wait_clock_cycle!(sim, clock, x);
            x.rewrite.next = false;
            for level in 0..4u64 {
                x.read_address.next = level.into();
                x.square_read_address.next = (3 - level).into();
                wait_clock_cycle!(sim, clock, x);
                let rewritten = level == 2;
                sim_assert_eq!(sim, x.moves.val(), if rewritten { 0x80 } else { level + 1 }, x);
                sim_assert_eq!(sim, x.square.val(), if level == 1 { 15 } else { 3 - level + 5 }, x);
                sim_assert_eq!(sim, x.degrees.val(), if rewritten { 0x8000_0000 } else { level * 0x1111 }, x);
                sim_assert_eq!(sim, x.doomed.val(), 1 << level, x);
                sim_assert_eq!(sim, x.visited.val(), (1 << (level + 1)) - 1, x);
                sim_assert_eq!(sim, x.below.val(), level.saturating_sub(1), x);
                sim_assert_eq!(sim, x.below_valid.val(), level > 0, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000).unwrap();
    }
}
