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
    pub begin: Signal<In, bool>,
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
        if self.begin.val() {
            self.level.d.next = 0.into();
            self.waiting.d.next = true;
        }
    }
}
