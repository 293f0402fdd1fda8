//! Streaming a tour out: its squares, from the start square on, read from
//! the stack level by level (the last one is the current square, which has
//! no entry yet), one per clock taken with a valid/ready handshake.
//!
//! A square is read a clock before it is offered (the stack's read is
//! registered). A tour being streamed is never cut short: a cancel takes
//! effect only before its first square is taken. On a board of more than
//! 256 squares each square goes out as two items, its low byte first.

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
    /// Squares go out two bytes each (else one).
    pub two_bytes: Signal<In, bool>,
    /// The item offered: the square, or its low or high byte.
    pub item: Signal<Out, Bits<8>>,
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
    // The square's high byte is offered.
    high: DFF<bool>,
    at_last: Signal<Local, bool>,
    // The square offered (its byte or bytes go out as `item`).
    square: Signal<Local, Bits<LB>>,
    wide_square: Signal<Local, Bits<16>>,
}

impl<const LB: usize> Logic for TourStream<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, level, waiting, high);
        self.at_last.next = self.level.q.val() == self.depth.val();
        self.read_level.next = self.level.q.val();
        self.square.next = self.stack_square.val();
        if self.at_last.val() {
            self.square.next = self.current_index.val();
        }
        self.wide_square.next = bit_cast::<16, LB>(self.square.val());
        self.item.next = self.wide_square.val().get_bits::<8>(0);
        if self.high.q.val() {
            self.item.next = self.wide_square.val().get_bits::<8>(8);
        }
        self.valid.next = self.active.val() & !self.waiting.q.val();
        self.last.next = self.active.val() & self.at_last.val() & (self.high.q.val() | !self.two_bytes.val());
        self.cancelled.next = false;
        self.finished.next = false;
        if self.active.val() {
            if self.cancel.val() & !self.level.q.val().any() & !self.high.q.val() & !self.ready.val() {
                self.cancelled.next = true;
            } else if self.waiting.q.val() {
                self.waiting.d.next = false;
            } else if self.ready.val() & self.two_bytes.val() & !self.high.q.val() {
                self.high.d.next = true;
            } else if self.ready.val() {
                self.high.d.next = false;
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
            self.high.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streams a tour of three squares (two on the stack, the last the
    /// current square) under back-pressure: the items taken, each with its
    /// last flag.
    fn stream<const LB: usize>(stack: [u64; 2], current: u64, two_bytes: bool) -> Vec<(u64, bool)> {
        let mut uut = TourStream::<LB>::default();
        uut.connect_all();
        let taken = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let out = taken.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<TourStream<LB>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<TourStream<LB>>| {
            let mut x = sim.init()?;
            x.depth.next = 2.into();
            x.current_index.next = current.into();
            x.two_bytes.next = two_bytes;
            x.found.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.found.next = false;
            x.active.next = true;
            for clock in 0..30u64 {
                // The stack: the entry asked for, a clock later.
                let level = x.read_level.val().index();
                let ready = clock % 3 != 1;
                x.ready.next = ready;
                if x.valid.val() & ready {
                    out.lock().unwrap().push((x.item.val().to_u64(), x.last.val()));
                    // (The engine leaves its Emit state on `finished`.)
                    x.active.next = !x.last.val();
                }
                // (Set now, it is what the stack gives from the next clock.)
                x.stack_square.next = stack.get(level).copied().unwrap_or(0).into();
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000).unwrap();
        let items = taken.lock().unwrap().clone();
        items
    }

    #[test]
    fn streams_the_stack_then_the_current_square() {
        assert_eq!(stream::<4>([5, 9], 3, false), vec![(5, false), (9, false), (3, true)]);
    }

    #[test]
    fn squares_past_a_byte_go_out_low_byte_first() {
        let items = stream::<11>([0x105, 0x3FF], 0x80, true);
        let expected = [(0x05, false), (0x01, false), (0xFF, false), (0x03, false), (0x80, false), (0x00, true)];
        assert_eq!(items, expected);
    }
}
