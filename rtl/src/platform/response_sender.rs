//! The response sender: writes one frame at a time to the UART.
//!
//! A frame is loaded as a header of up to `FRAME_BITS / 8` bytes (sync,
//! length, type and, for fixed-size responses, the whole payload), optionally
//! followed by a tour's squares taken from the engine's stream as the UART
//! accepts them (that is the engine's back-pressure), and closed with the CRC.
//! A square is taken into a register before it is sent: the stream comes from
//! whichever engine found the tour, across the chip, and went straight on
//! into the CRC, which made it the accelerator's longest path.

use rust_hdl::prelude::*;

use super::crc::{Crc16Step, CRC_INIT};

/// Header bits a frame can be loaded with: the longest fixed-size response.
pub const FRAME_BITS: usize = 232;

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum SendState {
    Idle,
    Header,
    Squares,
    CrcLow,
    CrcHigh,
}

#[derive(LogicBlock)]
pub struct ResponseSender {
    pub clock: Signal<In, Clock>,
    /// Takes `header` (first byte in the low bits) when high while `idle`.
    pub load: Signal<In, bool>,
    pub header: Signal<In, Bits<FRAME_BITS>>,
    /// Bytes of `header` to send, at least 1.
    pub header_bytes: Signal<In, Bits<8>>,
    /// Follow the header with squares until `square_last`.
    pub with_squares: Signal<In, bool>,
    /// No frame in progress: a new one can be loaded.
    pub idle: Signal<Out, bool>,
    pub square: Signal<In, Bits<8>>,
    pub square_valid: Signal<In, bool>,
    pub square_last: Signal<In, bool>,
    pub square_ready: Signal<Out, bool>,
    /// To the UART transmitter.
    pub tx_data: Signal<Out, Bits<8>>,
    pub tx_send: Signal<Out, bool>,
    pub tx_ready: Signal<In, bool>,
    crc_init: Constant<Bits<16>>,
    crc_step: Crc16Step,
    state: DFF<SendState>,
    shift: DFF<Bits<FRAME_BITS>>,
    bytes_left: DFF<Bits<8>>,
    squares: DFF<bool>,
    crc: DFF<Bits<16>>,
    buffered: DFF<bool>,
    buffer: DFF<Bits<8>>,
    buffer_last: DFF<bool>,
}

impl Default for ResponseSender {
    fn default() -> Self {
        ResponseSender {
            clock: Default::default(),
            load: Default::default(),
            header: Default::default(),
            header_bytes: Default::default(),
            with_squares: Default::default(),
            idle: Default::default(),
            square: Default::default(),
            square_valid: Default::default(),
            square_last: Default::default(),
            square_ready: Default::default(),
            tx_data: Default::default(),
            tx_send: Default::default(),
            tx_ready: Default::default(),
            crc_init: Constant::new(CRC_INIT.into()),
            crc_step: Default::default(),
            state: Default::default(),
            shift: Default::default(),
            bytes_left: Default::default(),
            squares: Default::default(),
            crc: Default::default(),
            buffered: Default::default(),
            buffer: Default::default(),
            buffer_last: Default::default(),
        }
    }
}

impl Logic for ResponseSender {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, shift, bytes_left, squares, crc, buffered, buffer, buffer_last);
        self.idle.next = false;
        self.square_ready.next = false;
        self.tx_send.next = false;
        self.tx_data.next = self.shift.q.val().get_bits::<8>(0);
        if self.state.q.val() == SendState::Squares {
            self.tx_data.next = self.buffer.q.val();
        }
        if self.state.q.val() == SendState::CrcLow {
            self.tx_data.next = self.crc.q.val().get_bits::<8>(0);
        }
        if self.state.q.val() == SendState::CrcHigh {
            self.tx_data.next = self.crc.q.val().get_bits::<8>(8);
        }
        self.crc_step.crc.next = self.crc.q.val();
        self.crc_step.octet.next = self.tx_data.val();
        match self.state.q.val() {
            SendState::Idle => {
                self.idle.next = true;
                // The header is taken every idle clock, load or not: the
                // 232-bit register's enable then waits on the state alone, not
                // on `load`, which comes from across the chip.
                self.shift.d.next = self.header.val();
                self.bytes_left.d.next = self.header_bytes.val();
                self.squares.d.next = self.with_squares.val();
                self.crc.d.next = self.crc_init.val();
                self.buffered.d.next = false;
                if self.load.val() {
                    self.state.d.next = SendState::Header;
                }
            }
            SendState::Header => {
                if self.tx_ready.val() {
                    self.tx_send.next = true;
                    self.crc.d.next = self.crc_step.updated.val();
                    self.shift.d.next = self.shift.q.val() >> 8;
                    self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                    if self.bytes_left.q.val() == 1 {
                        self.state.d.next = SendState::CrcLow;
                        if self.squares.q.val() {
                            self.state.d.next = SendState::Squares;
                        }
                    }
                }
            }
            SendState::Squares => {
                // Take a square while the register is empty; send it from there.
                self.square_ready.next = !self.buffered.q.val();
                if !self.buffered.q.val() & self.square_valid.val() {
                    self.buffer.d.next = self.square.val();
                    self.buffer_last.d.next = self.square_last.val();
                    self.buffered.d.next = true;
                }
                if self.buffered.q.val() & self.tx_ready.val() {
                    self.tx_send.next = true;
                    self.crc.d.next = self.crc_step.updated.val();
                    self.buffered.d.next = false;
                    if self.buffer_last.q.val() {
                        self.state.d.next = SendState::CrcLow;
                    }
                }
            }
            SendState::CrcLow => {
                if self.tx_ready.val() {
                    self.tx_send.next = true;
                    self.state.d.next = SendState::CrcHigh;
                }
            }
            SendState::CrcHigh => {
                if self.tx_ready.val() {
                    self.tx_send.next = true;
                    self.state.d.next = SendState::Idle;
                }
            }
            _ => {
                self.state.d.next = SendState::Idle;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_protocol::codec::{Counters, Response, TOUR_HEADER};
    use knights_protocol::status;
    use std::sync::{Arc, Mutex};

    /// Sends one frame with the UART ready only every third clock and the
    /// squares (if any) offered only every other clock; returns what the
    /// UART took.
    fn send(header: Vec<u8>, squares: Vec<u8>) -> Vec<u8> {
        let mut uut = ResponseSender::default();
        uut.connect_all();
        let sent = Arc::new(Mutex::new(Vec::new()));
        let out = sent.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<ResponseSender>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<ResponseSender>| {
            let mut x = sim.init()?;
            wait_clock_true!(sim, clock, x);
            let mut bits = Bits::<FRAME_BITS>::default();
            for (i, &byte) in header.iter().enumerate() {
                bits = bits | (bit_cast::<FRAME_BITS, 8>(u64::from(byte).into()) << (8 * i as u64));
            }
            sim_assert!(sim, x.idle.val(), x);
            x.header.next = bits;
            x.header_bytes.next = (header.len() as u64).into();
            x.with_squares.next = !squares.is_empty();
            x.load.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.load.next = false;
            let mut next = 0;
            for clock in 0..(header.len() + squares.len() + 2) * 3 + 20 {
                x.tx_ready.next = clock % 3 == 2;
                let offer = next < squares.len() && clock % 2 == 0;
                x.square_valid.next = offer;
                x.square.next = u64::from(if offer { squares[next] } else { 0xEE }).into();
                x.square_last.next = next + 1 == squares.len();
                // Half a clock on, the outputs have settled: what the next edge takes.
                wait_clock_false!(sim, clock, x);
                sim_assert!(sim, !x.tx_send.val() | x.tx_ready.val(), x);
                if x.tx_send.val() {
                    out.lock().unwrap().push(x.tx_data.val().index() as u8);
                }
                if offer && x.square_ready.val() {
                    next += 1;
                }
                wait_clock_true!(sim, clock, x);
            }
            sim_assert!(sim, x.idle.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000_000).unwrap();
        let bytes = std::mem::take(&mut *sent.lock().unwrap());
        bytes
    }

    #[test]
    fn a_header_only_frame_goes_out_byte_for_byte() {
        // DONE: the longest fixed-size response fills the whole header.
        let counters = Counters { tours: 0x0102_0304_0506, nodes: 0xFFFF_FFFF_FFFF, cycles: 7, engine_cycles: 0 };
        let frame = Response::Done { status: status::EXHAUSTED, counters }.encode();
        assert_eq!(frame.len() * 8, FRAME_BITS + 16);
        // The sender is loaded with everything but the CRC, which it adds.
        assert_eq!(send(frame[..frame.len() - 2].to_vec(), vec![]), frame);
        let ack = Response::Ack { command: 2 }.encode();
        assert_eq!(send(ack[..ack.len() - 2].to_vec(), vec![]), ack);
    }

    #[test]
    fn a_tour_goes_out_with_its_streamed_squares() {
        let squares: Vec<u8> = vec![0, 7, 9, 2, 11, 4, 1, 8, 10, 3, 5, 6];
        let frame =
            Response::Tour { sequence: 0x0102_0304, engine: 5, job: 0x0A0B_0C0D, squares: squares.clone() }.encode();
        // Loaded with sync, length, type and the TOUR header; the squares are streamed.
        let header = frame[..4 + TOUR_HEADER].to_vec();
        assert_eq!(send(header, squares), frame);
    }
}
