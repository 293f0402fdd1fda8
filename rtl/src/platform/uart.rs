//! UART receiver and transmitter, 8N1, least significant bit first.
//!
//! The bit time is a build parameter in clocks, so simulation can run the
//! link at a few clocks per bit. Both lines idle high; the flip-flops power
//! up at zero, so the registers hold the *inverted* line to start idle.

use rust_hdl::prelude::*;

/// Bits of the bit timers: a bit lasts at most [`MAX_CLOCKS_PER_BIT`]
/// clocks (115,200 baud up to a 471 MHz clock; every logic cell counts on
/// the iCEBreaker's N-Queens build).
const TIMER_BITS: usize = 12;
pub const MAX_CLOCKS_PER_BIT: u64 = (1 << TIMER_BITS) - 1;

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum ReceiverState {
    Idle,
    Start,
    Data,
    Stop,
    Break,
}

/// Receives bytes from an asynchronous serial line.
#[derive(LogicBlock)]
pub struct UartReceiver {
    pub clock: Signal<In, Clock>,
    /// The serial line from the host (asynchronous to `clock`).
    pub line: Signal<In, bool>,
    /// The last byte received.
    pub data: Signal<Out, Bits<8>>,
    /// High for one clock when `data` holds a new byte. A byte whose stop
    /// bit is low (a framing error) is dropped.
    pub valid: Signal<Out, bool>,
    clocks_per_bit: Constant<Bits<TIMER_BITS>>,
    half_bit: Constant<Bits<TIMER_BITS>>,
    // Two-stage synchroniser of the inverted line.
    low_meta: DFF<bool>,
    low: DFF<bool>,
    state: DFF<ReceiverState>,
    timer: DFF<Bits<TIMER_BITS>>,
    bit_count: DFF<Bits<4>>,
    shift: DFF<Bits<8>>,
    received: DFF<Bits<8>>,
    strobe: DFF<bool>,
}

impl UartReceiver {
    pub fn new(clocks_per_bit: u64) -> Self {
        assert!((4..=MAX_CLOCKS_PER_BIT).contains(&clocks_per_bit), "a bit must last 4 to {MAX_CLOCKS_PER_BIT} clocks");
        UartReceiver {
            clock: Default::default(),
            line: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            clocks_per_bit: Constant::new(clocks_per_bit.into()),
            half_bit: Constant::new((clocks_per_bit / 2).into()),
            low_meta: Default::default(),
            low: Default::default(),
            state: Default::default(),
            timer: Default::default(),
            bit_count: Default::default(),
            shift: Default::default(),
            received: Default::default(),
            strobe: Default::default(),
        }
    }
}

impl Logic for UartReceiver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, low_meta, low, state, timer, bit_count, shift, received, strobe);
        self.low_meta.d.next = !self.line.val();
        self.low.d.next = self.low_meta.q.val();
        self.strobe.d.next = false;
        self.data.next = self.received.q.val();
        self.valid.next = self.strobe.q.val();
        self.timer.d.next = self.timer.q.val() - 1;
        match self.state.q.val() {
            ReceiverState::Idle => {
                // A falling edge: sample again half a bit later.
                if self.low.q.val() {
                    self.timer.d.next = self.half_bit.val() - 1;
                    self.state.d.next = ReceiverState::Start;
                }
            }
            ReceiverState::Start => {
                if self.timer.q.val() == 0 {
                    self.timer.d.next = self.clocks_per_bit.val() - 1;
                    self.bit_count.d.next = 0.into();
                    self.state.d.next = ReceiverState::Data;
                    if !self.low.q.val() {
                        // A glitch, not a start bit.
                        self.state.d.next = ReceiverState::Idle;
                    }
                }
            }
            ReceiverState::Data => {
                if self.timer.q.val() == 0 {
                    self.timer.d.next = self.clocks_per_bit.val() - 1;
                    self.shift.d.next = (self.shift.q.val() >> 1).replace_bit(7, !self.low.q.val());
                    self.bit_count.d.next = self.bit_count.q.val() + 1;
                    if self.bit_count.q.val() == 7 {
                        self.state.d.next = ReceiverState::Stop;
                    }
                }
            }
            ReceiverState::Stop => {
                if self.timer.q.val() == 0 {
                    if self.low.q.val() {
                        // Framing error: drop the byte, wait for an idle line.
                        self.state.d.next = ReceiverState::Break;
                    } else {
                        self.received.d.next = self.shift.q.val();
                        self.strobe.d.next = true;
                        self.state.d.next = ReceiverState::Idle;
                    }
                }
            }
            ReceiverState::Break => {
                if !self.low.q.val() {
                    self.state.d.next = ReceiverState::Idle;
                }
            }
            _ => {
                self.state.d.next = ReceiverState::Idle;
            }
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum TransmitterState {
    Idle,
    Sending,
}

/// Sends bytes on a serial line.
#[derive(LogicBlock)]
pub struct UartTransmitter {
    pub clock: Signal<In, Clock>,
    /// The byte to send, taken when `send` is high while `ready`.
    pub data: Signal<In, Bits<8>>,
    pub send: Signal<In, bool>,
    /// Idle: the next byte can be taken.
    pub ready: Signal<Out, bool>,
    /// The serial line to the host.
    pub line: Signal<Out, bool>,
    clocks_per_bit: Constant<Bits<TIMER_BITS>>,
    state: DFF<TransmitterState>,
    timer: DFF<Bits<TIMER_BITS>>,
    bits_left: DFF<Bits<4>>,
    // The frame's bits still to send (start, 8 data, stop), inverted.
    shift_low: DFF<Bits<10>>,
    line_low: DFF<bool>,
    // Inverted in its own 8-bit signal: inside a wider Verilog expression
    // `~data` would be widened first and set the stop bit's place too.
    data_low: Signal<Local, Bits<8>>,
}

impl UartTransmitter {
    pub fn new(clocks_per_bit: u64) -> Self {
        assert!((4..=MAX_CLOCKS_PER_BIT).contains(&clocks_per_bit), "a bit must last 4 to {MAX_CLOCKS_PER_BIT} clocks");
        UartTransmitter {
            clock: Default::default(),
            data: Default::default(),
            send: Default::default(),
            ready: Default::default(),
            line: Default::default(),
            clocks_per_bit: Constant::new(clocks_per_bit.into()),
            state: Default::default(),
            timer: Default::default(),
            bits_left: Default::default(),
            shift_low: Default::default(),
            line_low: Default::default(),
            data_low: Default::default(),
        }
    }
}

impl Logic for UartTransmitter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, timer, bits_left, shift_low, line_low);
        self.line.next = !self.line_low.q.val();
        self.ready.next = false;
        self.data_low.next = !self.data.val();
        self.timer.d.next = self.timer.q.val() - 1;
        match self.state.q.val() {
            TransmitterState::Idle => {
                self.ready.next = true;
                self.line_low.d.next = false;
                if self.send.val() {
                    // Start bit (low, so 1 inverted), data, stop bit (0 inverted).
                    self.shift_low.d.next = (bit_cast::<10, 8>(self.data_low.val()) << 1) | 1;
                    self.bits_left.d.next = 10.into();
                    self.timer.d.next = 0.into();
                    self.state.d.next = TransmitterState::Sending;
                }
            }
            TransmitterState::Sending => {
                if self.timer.q.val() == 0 {
                    if self.bits_left.q.val() == 0 {
                        self.state.d.next = TransmitterState::Idle;
                    } else {
                        self.line_low.d.next = self.shift_low.q.val().get_bit(0);
                        self.shift_low.d.next = self.shift_low.q.val() >> 1;
                        self.bits_left.d.next = self.bits_left.q.val() - 1;
                        self.timer.d.next = self.clocks_per_bit.val() - 1;
                    }
                }
            }
            _ => {
                self.state.d.next = TransmitterState::Idle;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A transmitter whose line drives a receiver.
    #[derive(LogicBlock)]
    struct Loopback {
        clock: Signal<In, Clock>,
        data: Signal<In, Bits<8>>,
        send: Signal<In, bool>,
        tx: UartTransmitter,
        rx: UartReceiver,
    }

    impl Logic for Loopback {
        #[hdl_gen]
        fn update(&mut self) {
            clock!(self, clock, tx, rx);
            self.tx.data.next = self.data.val();
            self.tx.send.next = self.send.val();
            self.rx.line.next = self.tx.line.val();
        }
    }

    #[test]
    fn loopback_receives_every_byte_once_in_order() {
        let sent = vec![0x00u8, 0xFF, 0x55, 0xAA, 0x01, 0x80, 0xA5, 0x00];
        let mut uut = Loopback {
            clock: Default::default(),
            data: Default::default(),
            send: Default::default(),
            tx: UartTransmitter::new(4),
            rx: UartReceiver::new(4),
        };
        uut.connect_all();
        let received = Arc::new(Mutex::new(Vec::new()));
        let out = received.clone();
        let bytes = sent.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Loopback>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Loopback>| {
            let mut x = sim.init()?;
            let mut next = 0;
            // Offer each byte as soon as the transmitter is ready, then let the line idle.
            for _ in 0..bytes.len() * 50 + 100 {
                x.send.next = false;
                if next < bytes.len() && x.tx.ready.val() {
                    x.data.next = u64::from(bytes[next]).into();
                    x.send.next = true;
                    next += 1;
                }
                if x.rx.valid.val() {
                    out.lock().unwrap().push(x.rx.data.val().index() as u8);
                }
                wait_clock_cycle!(sim, clock, x);
            }
            sim_assert!(sim, x.tx.line.val() & x.tx.ready.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000).unwrap();
        assert_eq!(*received.lock().unwrap(), sent);
    }

    /// The line's level clock by clock for one 8N1 character.
    fn character(byte: u8, stop: bool, clocks_per_bit: usize) -> Vec<bool> {
        let bits = [false].into_iter().chain((0..8).map(|i| byte >> i & 1 == 1)).chain([stop]);
        bits.flat_map(|bit| std::iter::repeat_n(bit, clocks_per_bit)).collect()
    }

    /// The bytes a receiver reports for a line driven clock by clock.
    fn receive(line: Vec<bool>, clocks_per_bit: u64) -> Vec<u8> {
        let mut uut = UartReceiver::new(clocks_per_bit);
        uut.connect_all();
        let received = Arc::new(Mutex::new(Vec::new()));
        let out = received.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<UartReceiver>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<UartReceiver>| {
            let mut x = sim.init()?;
            // Idle first (the line's reset level), and after, for the last byte to land.
            let idle = std::iter::repeat(&true);
            for &level in idle.clone().take(20).chain(&line).chain(idle.take(40)) {
                x.line.next = level;
                if x.valid.val() {
                    out.lock().unwrap().push(x.data.val().index() as u8);
                }
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000_000).unwrap();
        let bytes = received.lock().unwrap().clone();
        bytes
    }

    #[test]
    fn a_low_pulse_shorter_than_half_a_bit_is_no_start_bit() {
        let mut line = vec![false, false, true, true, true, true, true, true];
        line.extend(character(0x3C, true, 8));
        assert_eq!(receive(line, 8), vec![0x3C]);
    }

    #[test]
    fn a_character_with_a_low_stop_bit_is_dropped() {
        // 0x5A framed wrong, the line held low a while (a break), then 0xC3 framed right.
        let mut line = character(0x5A, false, 8);
        line.extend([false; 20]);
        line.extend([true; 8]);
        line.extend(character(0xC3, true, 8));
        assert_eq!(receive(line, 8), vec![0xC3]);
        // The same characters framed right are both received: the drop is the stop bit's doing.
        let mut line = character(0x5A, true, 8);
        line.extend(character(0xC3, true, 8));
        assert_eq!(receive(line, 8), vec![0x5A, 0xC3]);
    }
}
