//! Streaming a tour out: its squares, from the start square on, read from
//! the stack level by level (the last one is the current square, which has
//! no entry yet), one per clock taken with a valid/ready handshake.
//!
//! A square is read a clock before it is offered (the stack's read is
//! registered). A tour being streamed is never cut short: a cancel takes
//! effect only before its first square is taken.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct TourStream<const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// Starts a tour that ends at level `depth` (its last square
    /// `current_index`).
    pub found: Signal<In, bool>,
    /// The tour is being streamed (the engine's Emit state).
    pub active: Signal<In, bool>,
    pub depth: Signal<In, Bits<LB>>,
    pub current_index: Signal<In, Bits<LB>>,
    /// The stack's square at `read_level`, a clock after it is asked for.
    pub read_level: Signal<Out, Bits<LB>>,
    pub stack_square: Signal<In, Bits<LB>>,
    pub cancel: Signal<In, bool>,
    pub square: Signal<Out, Bits<LB>>,
    pub valid: Signal<Out, bool>,
    pub last: Signal<Out, bool>,
    pub ready: Signal<In, bool>,
    /// The last square is taken, or the stream is cancelled before its
    /// first.
    pub finished: Signal<Out, bool>,
    pub cancelled: Signal<Out, bool>,

    level: DFF<Bits<LB>>,
    // The square at `level` is being read.
    waiting: DFF<bool>,
    at_last: Signal<Local, bool>,
}

impl<const LB: usize> Logic for TourStream<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, level, waiting);
        self.at_last.next = self.level.q.val() == self.depth.val();
        self.read_level.next = self.level.q.val();
        self.square.next = self.stack_square.val();
        if self.at_last.val() {
            self.square.next = self.current_index.val();
        }
        self.valid.next = self.active.val() & !self.waiting.q.val();
        self.last.next = self.active.val() & self.at_last.val();
        self.cancelled.next = false;
        self.finished.next = false;
        if self.active.val() {
            if self.cancel.val() & !self.level.q.val().any() & !self.ready.val() {
                self.cancelled.next = true;
            } else if self.waiting.q.val() {
                self.waiting.d.next = false;
            } else if self.ready.val() {
                if self.at_last.val() {
                    self.finished.next = true;
                } else {
                    self.level.d.next = self.level.q.val() + 1;
                    self.waiting.d.next = true;
                }
            }
        }
        if self.found.val() {
            self.level.d.next = 0.into();
            self.waiting.d.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tour of three squares (two on the stack, the last the current
    /// square) comes out in order under back-pressure, each square once.
    #[test]
    fn streams_the_stack_then_the_current_square() {
        let mut uut = TourStream::<4>::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<TourStream<4>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<TourStream<4>>| {
            let mut x = sim.init()?;
            let stack = [5u64, 9];
            x.depth.next = 2.into();
            x.current_index.next = 3.into();
            x.found.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.found.next = false;
            x.active.next = true;
            let mut taken = Vec::new();
            for clock in 0..20u64 {
                // The stack: the entry asked for, a clock later.
                let level = x.read_level.val().index();
                let ready = clock % 3 != 1;
                x.ready.next = ready;
                if x.valid.val() & ready {
                    taken.push((x.square.val().to_u64(), x.last.val()));
                    // (The engine leaves its Emit state on `finished`.)
                    x.active.next = !x.last.val();
                }
                wait_clock_cycle!(sim, clock, x);
                x.stack_square.next = stack.get(level).copied().unwrap_or(0).into();
            }
            sim_assert_eq!(sim, taken, vec![(5, false), (9, false), (3, true)], x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000).unwrap();
    }
}
