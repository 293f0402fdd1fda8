//! The command receiver: turns received bytes into checked commands.
//!
//! Hunts for the sync byte (anything else between frames is ignored), reads
//! the length, type and payload, and checks the CRC. A good frame gives a
//! one-clock `command_valid`; a bad one gives `error_valid` with the code
//! the protocol prescribes (`docs/protocol.md`), and hunting resumes with the
//! next byte. A frame that stops arriving for `timeout` clocks is dropped as
//! truncated, so a lost byte never leaves the receiver stuck mid-frame.

use rust_hdl::prelude::*;

use super::crc::{Crc16Step, CRC_INIT};
use knights_protocol::{command, error, length, SYNC};

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum ReceiveState {
    Hunt,
    LengthLow,
    LengthHigh,
    Kind,
    Payload,
    CrcLow,
    CrcHigh,
}

/// Payload bits kept: the longest command payload (SOLVE).
pub const PAYLOAD_BITS: usize = 8 * length::SOLVE as usize;
// Each byte goes in at the top (bit 136, in the logic below).
const _: () = assert!(PAYLOAD_BITS == 144);

/// Bits of the quiet-clock counter: a frame timeout (10 ms) under 2^24
/// clocks, a clock up to 1.6 GHz.
const QUIET_BITS: usize = 24;

#[derive(LogicBlock)]
pub struct CommandReceiver {
    pub clock: Signal<In, Clock>,
    pub octet: Signal<In, Bits<8>>,
    pub octet_valid: Signal<In, bool>,
    /// The command type of the last good frame.
    pub command: Signal<Out, Bits<8>>,
    /// Its payload, first byte in the low bits (for SOLVE's 18 bytes).
    pub payload: Signal<Out, Bits<PAYLOAD_BITS>>,
    /// High for one clock per good frame.
    pub command_valid: Signal<Out, bool>,
    pub error_code: Signal<Out, Bits<8>>,
    /// The command type the error concerns, 0 when not yet known.
    pub error_command: Signal<Out, Bits<8>>,
    /// High for one clock per bad frame.
    pub error_valid: Signal<Out, bool>,
    timeout: Constant<Bits<QUIET_BITS>>,
    sync: Constant<Bits<8>>,
    crc_init: Constant<Bits<16>>,
    cmd_identify: Constant<Bits<8>>,
    cmd_solve: Constant<Bits<8>>,
    cmd_queens: Constant<Bits<8>>,
    cmd_abort: Constant<Bits<8>>,
    cmd_status: Constant<Bits<8>>,
    solve_length: Constant<Bits<16>>,
    err_bad_crc: Constant<Bits<8>>,
    err_bad_length: Constant<Bits<8>>,
    err_unknown_command: Constant<Bits<8>>,
    err_truncated: Constant<Bits<8>>,
    crc_step: Crc16Step,
    state: DFF<ReceiveState>,
    length: DFF<Bits<16>>,
    remaining: DFF<Bits<16>>,
    kind: DFF<Bits<8>>,
    payload_bits: DFF<Bits<PAYLOAD_BITS>>,
    crc: DFF<Bits<16>>,
    crc_low: DFF<Bits<8>>,
    quiet: DFF<Bits<QUIET_BITS>>,
    good: DFF<bool>,
    bad: DFF<bool>,
    code: DFF<Bits<8>>,
    received_crc: Signal<Local, Bits<16>>,
    length_expected: Signal<Local, Bits<16>>,
    known: Signal<Local, bool>,
}

impl CommandReceiver {
    /// A receiver that drops a frame after `timeout` quiet clocks.
    pub fn new(timeout: u64) -> Self {
        assert!(timeout > 0 && timeout < 1 << QUIET_BITS);
        CommandReceiver {
            clock: Default::default(),
            octet: Default::default(),
            octet_valid: Default::default(),
            command: Default::default(),
            payload: Default::default(),
            command_valid: Default::default(),
            error_code: Default::default(),
            error_command: Default::default(),
            error_valid: Default::default(),
            timeout: Constant::new(timeout.into()),
            sync: Constant::new(u64::from(SYNC).into()),
            crc_init: Constant::new(CRC_INIT.into()),
            cmd_identify: Constant::new(u64::from(command::IDENTIFY).into()),
            cmd_solve: Constant::new(u64::from(command::SOLVE).into()),
            cmd_queens: Constant::new(u64::from(command::QUEENS).into()),
            cmd_abort: Constant::new(u64::from(command::ABORT).into()),
            cmd_status: Constant::new(u64::from(command::STATUS).into()),
            solve_length: Constant::new(u64::from(length::SOLVE).into()),
            err_bad_crc: Constant::new(u64::from(error::BAD_CRC).into()),
            err_bad_length: Constant::new(u64::from(error::BAD_LENGTH).into()),
            err_unknown_command: Constant::new(u64::from(error::UNKNOWN_COMMAND).into()),
            err_truncated: Constant::new(u64::from(error::TRUNCATED).into()),
            crc_step: Default::default(),
            state: Default::default(),
            length: Default::default(),
            remaining: Default::default(),
            kind: Default::default(),
            payload_bits: Default::default(),
            crc: Default::default(),
            crc_low: Default::default(),
            quiet: Default::default(),
            good: Default::default(),
            bad: Default::default(),
            code: Default::default(),
            received_crc: Default::default(),
            length_expected: Default::default(),
            known: Default::default(),
        }
    }
}

impl Logic for CommandReceiver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, length, remaining, kind, payload_bits, crc, crc_low, quiet, good, bad, code);
        self.command.next = self.kind.q.val();
        self.payload.next = self.payload_bits.q.val();
        self.command_valid.next = self.good.q.val();
        self.error_code.next = self.code.q.val();
        self.error_command.next = self.kind.q.val();
        self.error_valid.next = self.bad.q.val();
        self.good.d.next = false;
        self.bad.d.next = false;
        // Every frame's CRC starts over at its sync byte.
        self.crc_step.crc.next = self.crc.q.val();
        if self.state.q.val() == ReceiveState::Hunt {
            self.crc_step.crc.next = self.crc_init.val();
        }
        self.crc_step.octet.next = self.octet.val();
        self.received_crc.next = (bit_cast::<16, 8>(self.octet.val()) << 8) | bit_cast::<16, 8>(self.crc_low.q.val());

        // Which commands exist, and the payload length each must have.
        self.known.next = false;
        self.length_expected.next = 0.into();
        if (self.kind.q.val() == self.cmd_identify.val())
            | (self.kind.q.val() == self.cmd_abort.val())
            | (self.kind.q.val() == self.cmd_status.val())
        {
            self.known.next = true;
        }
        if (self.kind.q.val() == self.cmd_solve.val()) | (self.kind.q.val() == self.cmd_queens.val()) {
            self.known.next = true;
            self.length_expected.next = self.solve_length.val();
        }

        self.quiet.d.next = 0.into();
        if self.state.q.val() != ReceiveState::Hunt {
            self.quiet.d.next = self.quiet.q.val() + 1;
        }
        if self.octet_valid.val() {
            self.quiet.d.next = 0.into();
            self.crc.d.next = self.crc_step.updated.val();
            match self.state.q.val() {
                ReceiveState::Hunt => {
                    if self.octet.val() == self.sync.val() {
                        self.kind.d.next = 0.into();
                        self.state.d.next = ReceiveState::LengthLow;
                    }
                }
                ReceiveState::LengthLow => {
                    self.length.d.next = bit_cast::<16, 8>(self.octet.val());
                    self.state.d.next = ReceiveState::LengthHigh;
                }
                ReceiveState::LengthHigh => {
                    self.length.d.next = self.length.q.val() | (bit_cast::<16, 8>(self.octet.val()) << 8);
                    self.state.d.next = ReceiveState::Kind;
                    if (self.octet.val() != 0) | (self.length.q.val() > self.solve_length.val()) {
                        // Longer than any command: drop it without waiting.
                        self.code.d.next = self.err_bad_length.val();
                        self.bad.d.next = true;
                        self.state.d.next = ReceiveState::Hunt;
                    }
                }
                ReceiveState::Kind => {
                    self.kind.d.next = self.octet.val();
                    self.remaining.d.next = self.length.q.val();
                    self.state.d.next = ReceiveState::Payload;
                    if self.length.q.val() == 0 {
                        self.state.d.next = ReceiveState::CrcLow;
                    }
                }
                ReceiveState::Payload => {
                    self.payload_bits.d.next =
                        (self.payload_bits.q.val() >> 8) | (bit_cast::<PAYLOAD_BITS, 8>(self.octet.val()) << 136);
                    self.remaining.d.next = self.remaining.q.val() - 1;
                    if self.remaining.q.val() == 1 {
                        self.state.d.next = ReceiveState::CrcLow;
                    }
                }
                ReceiveState::CrcLow => {
                    self.crc.d.next = self.crc.q.val();
                    self.crc_low.d.next = self.octet.val();
                    self.state.d.next = ReceiveState::CrcHigh;
                }
                ReceiveState::CrcHigh => {
                    self.crc.d.next = self.crc.q.val();
                    self.state.d.next = ReceiveState::Hunt;
                    self.bad.d.next = true;
                    if self.received_crc.val() != self.crc.q.val() {
                        self.code.d.next = self.err_bad_crc.val();
                    } else if !self.known.val() {
                        self.code.d.next = self.err_unknown_command.val();
                    } else if self.length.q.val() != self.length_expected.val() {
                        self.code.d.next = self.err_bad_length.val();
                    } else {
                        self.bad.d.next = false;
                        self.good.d.next = true;
                    }
                }
                _ => {
                    self.state.d.next = ReceiveState::Hunt;
                }
            }
        } else if self.quiet.q.val() == self.timeout.val() {
            self.code.d.next = self.err_truncated.val();
            self.bad.d.next = true;
            self.state.d.next = ReceiveState::Hunt;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_protocol::codec::frame;
    use std::sync::{Arc, Mutex};

    const TIMEOUT: u64 = 40;

    /// What the receiver reported, in order.
    #[derive(Debug, PartialEq)]
    enum Event {
        Command { command: u8, payload: Vec<u8> },
        Error { code: u8, command: u8 },
    }

    /// What the line delivers.
    #[derive(Clone)]
    enum Input {
        Bytes(Vec<u8>),
        Quiet(u64),
    }

    /// Feeds the input a byte every third clock, as a fast UART would.
    fn receive(input: Vec<Input>) -> Vec<Event> {
        let mut uut = CommandReceiver::new(TIMEOUT);
        uut.connect_all();
        let events = Arc::new(Mutex::new(Vec::new()));
        let out = events.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<CommandReceiver>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<CommandReceiver>| {
            let mut x = sim.init()?;
            let clocks = input.iter().flat_map(|part| match part {
                Input::Bytes(bytes) => bytes.iter().flat_map(|&b| [Some(b), None, None]).collect::<Vec<_>>(),
                Input::Quiet(clocks) => vec![None; *clocks as usize],
            });
            // Some quiet after, for the last frame to be judged.
            for octet in clocks.chain([None; 8]) {
                x.octet_valid.next = octet.is_some();
                x.octet.next = u64::from(octet.unwrap_or(0)).into();
                wait_clock_cycle!(sim, clock, x);
                if x.command_valid.val() {
                    let payload = x.payload.val();
                    let payload = (0..PAYLOAD_BITS / 8).map(|i| payload.get_bits::<8>(8 * i).index() as u8).collect();
                    out.lock().unwrap().push(Event::Command { command: x.command.val().index() as u8, payload });
                }
                if x.error_valid.val() {
                    let (code, command) = (x.error_code.val().index() as u8, x.error_command.val().index() as u8);
                    out.lock().unwrap().push(Event::Error { code, command });
                }
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000_000).unwrap();
        let events = std::mem::take(&mut *events.lock().unwrap());
        events
    }

    const SOLVE: [u8; 18] = [8, 6, 1, 2, 0x0B, 0x78, 0x56, 0x34, 0x12, 3, 0xFF, 2, 0x01, 0x00, 0x02, 0x00, 0x01, 0x80];

    fn solve() -> Event {
        Event::Command { command: command::SOLVE, payload: SOLVE.to_vec() }
    }

    #[test]
    fn a_good_frame_gives_its_command_and_payload() {
        let events =
            receive(vec![Input::Bytes(frame(command::SOLVE, &SOLVE)), Input::Bytes(frame(command::STATUS, &[]))]);
        // STATUS has no payload: the receiver keeps the last one, so only its type counts.
        assert!(matches!(events[1], Event::Command { command: command::STATUS, .. }), "{events:?}");
        assert_eq!(events[..1], [solve()]);
        assert_eq!(events.len(), 2);
    }

    #[test]
    fn a_bad_crc_gives_bad_crc_with_the_type() {
        let mut bad = frame(command::SOLVE, &SOLVE);
        bad[6] ^= 0x10;
        let events = receive(vec![Input::Bytes(bad), Input::Bytes(frame(command::SOLVE, &SOLVE))]);
        assert_eq!(events, [Event::Error { code: error::BAD_CRC, command: command::SOLVE }, solve()]);
    }

    #[test]
    fn a_frame_that_stops_arriving_is_dropped_after_the_timeout() {
        let good = frame(command::SOLVE, &SOLVE);
        let (head, tail) = (Input::Bytes(good[..7].to_vec()), Input::Bytes(good[7..].to_vec()));
        let events = receive(vec![head.clone(), Input::Quiet(TIMEOUT + 5), Input::Bytes(good)]);
        assert_eq!(events, [Event::Error { code: error::TRUNCATED, command: command::SOLVE }, solve()]);
        // A pause a little shorter than the timeout: the frame is still whole.
        assert_eq!(receive(vec![head, Input::Quiet(TIMEOUT - 5), tail]), [solve()]);
    }

    #[test]
    fn noise_before_sync_is_skipped() {
        let noise = vec![0x00, 0xFF, 0x5A, 0x13, 0x02];
        let events = receive(vec![Input::Bytes(noise), Input::Bytes(frame(command::SOLVE, &SOLVE))]);
        assert_eq!(events, [solve()]);
    }
}
