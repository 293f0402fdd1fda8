//! The top level: a UART link to the host, the command receiver, the engine
//! and the response sender, joined by a small controller.
//!
//! The controller answers every good command at once (IDENTIFY with the
//! build's parameters, STATUS with a progress frame, SOLVE and ABORT with an
//! ACK or an ERROR), streams the engine's tours as TOUR frames, sends a
//! PROGRESS frame every `2^progress_log2` cycles of a search, and ends every
//! accepted search with exactly one DONE. Each kind of answer has one slot,
//! sent in a fixed priority order whenever the sender is idle; see
//! `docs/protocol.md`.

use rust_hdl::prelude::*;

use crate::command::CommandReceiver;
use crate::engine::Engine;
use crate::protocol::*;
use crate::response::{ResponseSender, FRAME_BITS};
use crate::uart::{UartReceiver, UartTransmitter};

/// The link's build-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkSettings {
    /// The clock the design runs at.
    pub clock_hz: u64,
    /// UART bit rate; the bit time is rounded to whole clocks.
    pub baud: u64,
    /// A frame that stops arriving for this many clocks is dropped.
    pub frame_timeout: u64,
    /// A running search reports progress every `2^progress_log2` cycles.
    pub progress_log2: u32,
}

impl LinkSettings {
    /// Settings for a board clock and baud rate: frames time out after
    /// 10 ms (a host writes a command in one go, so its bytes arrive back to
    /// back), progress comes about every half second.
    pub fn new(clock_hz: u64, baud: u64) -> Self {
        let progress_log2 = (clock_hz / 2).max(2).ilog2();
        LinkSettings { clock_hz, baud, frame_timeout: clock_hz / 100, progress_log2 }
    }

    /// The simulated board: a 12 MHz clock with the UART at 3 Mbaud (four
    /// clocks per bit, as fast as FTDI bridges go).
    pub fn simulation() -> Self {
        LinkSettings::new(12_000_000, 3_000_000)
    }

    /// Clocks per UART bit.
    pub fn clocks_per_bit(&self) -> u64 {
        (self.clock_hz + self.baud / 2) / self.baud
    }

    /// The baud rate the rounded bit time gives.
    pub fn actual_baud(&self) -> u64 {
        self.clock_hz / self.clocks_per_bit()
    }
}

/// The serial-linked accelerator for boards up to `SQ` squares (see
/// [`Engine`] for `SQ` and `LB`).
#[derive(LogicBlock)]
pub struct Accelerator<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// Serial data from the host.
    pub uart_rx: Signal<In, bool>,
    /// Serial data to the host.
    pub uart_tx: Signal<Out, bool>,
    /// A search is running (until its DONE frame is out).
    pub led_busy: Signal<Out, bool>,
    /// The current or last search has found a tour.
    pub led_found: Signal<Out, bool>,

    receiver: UartReceiver,
    transmitter: UartTransmitter,
    commands: CommandReceiver,
    responses: ResponseSender,
    engine: Engine<SQ, LB>,

    max_width: Constant<Bits<8>>,
    max_height: Constant<Bits<8>>,
    row_stride: Constant<Bits<16>>,
    progress_mask: Constant<Bits<48>>,
    unlimited: Constant<Bits<48>>,
    cmd_identify: Constant<Bits<8>>,
    cmd_solve: Constant<Bits<8>>,
    cmd_abort: Constant<Bits<8>>,
    cmd_status: Constant<Bits<8>>,
    err_busy: Constant<Bits<8>>,
    err_board_too_large: Constant<Bits<8>>,
    err_start_off_board: Constant<Bits<8>>,
    err_bad_argument: Constant<Bits<8>>,
    // Frame headers: sync, length and type (and all of IDENTITY).
    identity_frame: Constant<Bits<FRAME_BITS>>,
    ack_frame: Constant<Bits<FRAME_BITS>>,
    error_frame: Constant<Bits<FRAME_BITS>>,
    progress_frame: Constant<Bits<FRAME_BITS>>,
    done_frame: Constant<Bits<FRAME_BITS>>,
    tour_frame: Constant<Bits<FRAME_BITS>>,
    identity_bytes: Constant<Bits<8>>,
    ack_bytes: Constant<Bits<8>>,
    error_bytes: Constant<Bits<8>>,
    counters_bytes: Constant<Bits<8>>,
    tour_bytes: Constant<Bits<8>>,

    searching: DFF<bool>,
    abort_requested: DFF<bool>,
    ack_pending: DFF<bool>,
    ack_command: DFF<Bits<8>>,
    identify_pending: DFF<bool>,
    status_pending: DFF<bool>,
    progress_due: DFF<bool>,
    error_pending: DFF<bool>,
    error_code: DFF<Bits<8>>,
    error_command: DFF<Bits<8>>,

    width: Signal<Local, Bits<8>>,
    height: Signal<Local, Bits<8>>,
    file: Signal<Local, Bits<8>>,
    rank: Signal<Local, Bits<8>>,
    flags: Signal<Local, Bits<8>>,
    limit: Signal<Local, Bits<32>>,
    error_slot_free: Signal<Local, bool>,
    rejection: Signal<Local, Bits<8>>,
    counters: Signal<Local, Bits<FRAME_BITS>>,
}

impl<const SQ: usize, const LB: usize> Accelerator<SQ, LB> {
    pub fn new(max_width: usize, max_height: usize, link: LinkSettings) -> Self {
        assert!(SQ <= 256, "tour squares are sent as one byte each: at most 256 squares");
        assert!(link.clock_hz < 1 << 32 && link.baud < 1 << 32);
        // A frame's first bytes: sync, length (little-endian), type, payload.
        let header = |length: u64, kind: u64, payload: &[u8]| {
            let mut bytes = vec![SYNC as u8, length as u8, (length >> 8) as u8, kind as u8];
            bytes.extend_from_slice(payload);
            let mut bits = Bits::<FRAME_BITS>::default();
            for (i, byte) in bytes.iter().enumerate() {
                for b in 0..8 {
                    bits = bits.replace_bit(8 * i + b, byte >> b & 1 == 1);
                }
            }
            Constant::new(bits)
        };
        let constant = |value: u64| Constant::new(value.into());
        let mut identity = vec![VERSION as u8, max_width as u8, max_height as u8, 1];
        identity.extend_from_slice(&(link.clock_hz as u32).to_le_bytes());
        identity.extend_from_slice(&(link.actual_baud() as u32).to_le_bytes());
        identity.push((FEATURE_WARNSDORFF | FEATURE_PRUNE) as u8);
        assert_eq!(identity.len() as u64, IDENTITY_LENGTH);
        Accelerator {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            receiver: UartReceiver::new(link.clocks_per_bit()),
            transmitter: UartTransmitter::new(link.clocks_per_bit()),
            commands: CommandReceiver::new(link.frame_timeout),
            responses: Default::default(),
            engine: Engine::new(max_width, max_height),
            max_width: constant(max_width as u64),
            max_height: constant(max_height as u64),
            row_stride: Constant::new((max_width as u64).into()),
            progress_mask: Constant::new(((1u64 << link.progress_log2) - 1).into()),
            unlimited: Constant::new(((1u64 << 48) - 1).into()),
            cmd_identify: constant(CMD_IDENTIFY),
            cmd_solve: constant(CMD_SOLVE),
            cmd_abort: constant(CMD_ABORT),
            cmd_status: constant(CMD_STATUS),
            err_busy: constant(ERR_BUSY),
            err_board_too_large: constant(ERR_BOARD_TOO_LARGE),
            err_start_off_board: constant(ERR_START_OFF_BOARD),
            err_bad_argument: constant(ERR_BAD_ARGUMENT),
            identity_frame: header(IDENTITY_LENGTH, RSP_IDENTITY, &identity),
            ack_frame: header(ACK_LENGTH, RSP_ACK, &[]),
            error_frame: header(ERROR_LENGTH, RSP_ERROR, &[]),
            progress_frame: header(PROGRESS_LENGTH, RSP_PROGRESS, &[]),
            done_frame: header(DONE_LENGTH, RSP_DONE, &[]),
            tour_frame: header(0, RSP_TOUR, &[]),
            identity_bytes: constant(4 + IDENTITY_LENGTH),
            ack_bytes: constant(4 + ACK_LENGTH),
            error_bytes: constant(4 + ERROR_LENGTH),
            counters_bytes: constant(4 + PROGRESS_LENGTH),
            tour_bytes: constant(8),
            searching: Default::default(),
            abort_requested: Default::default(),
            ack_pending: Default::default(),
            ack_command: Default::default(),
            identify_pending: Default::default(),
            status_pending: Default::default(),
            progress_due: Default::default(),
            error_pending: Default::default(),
            error_code: Default::default(),
            error_command: Default::default(),
            width: Default::default(),
            height: Default::default(),
            file: Default::default(),
            rank: Default::default(),
            flags: Default::default(),
            limit: Default::default(),
            error_slot_free: Default::default(),
            rejection: Default::default(),
            counters: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Accelerator<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            searching,
            abort_requested,
            ack_pending,
            ack_command,
            identify_pending,
            status_pending,
            progress_due,
            error_pending,
            error_code,
            error_command
        );
        clock!(self, clock, receiver, transmitter, commands, responses, engine);

        // The byte path: line, UART, receiver; sender, UART, line.
        self.receiver.line.next = self.uart_rx.val();
        self.commands.octet.next = self.receiver.data.val();
        self.commands.octet_valid.next = self.receiver.valid.val();
        self.transmitter.data.next = self.responses.tx_data.val();
        self.transmitter.send.next = self.responses.tx_send.val();
        self.responses.tx_ready.next = self.transmitter.ready.val();
        self.uart_tx.next = self.transmitter.line.val();
        self.responses.square.next = bit_cast::<8, LB>(self.engine.tour_square.val());
        self.responses.square_valid.next = self.engine.tour_valid.val();
        self.responses.square_last.next = self.engine.tour_last.val();
        self.engine.tour_ready.next = self.responses.square_ready.val();
        self.led_busy.next = self.searching.q.val();
        self.led_found.next = self.engine.tours.val().any();

        // SOLVE's payload goes to the engine's inputs; `start` decides.
        self.width.next = self.commands.payload.val().get_bits::<8>(0);
        self.height.next = self.commands.payload.val().get_bits::<8>(8);
        self.file.next = self.commands.payload.val().get_bits::<8>(16);
        self.rank.next = self.commands.payload.val().get_bits::<8>(24);
        self.flags.next = self.commands.payload.val().get_bits::<8>(32);
        self.limit.next = self.commands.payload.val().get_bits::<32>(40);
        self.engine.start.next = false;
        self.engine.cancel.next = self.abort_requested.q.val() & self.searching.q.val();
        self.engine.width.next = self.width.val();
        self.engine.height.next = self.height.val();
        self.engine.start_square.next = bit_cast::<LB, 32>(bit_cast::<16, 8>(self.rank.val()) * self.row_stride.val())
            + bit_cast::<LB, 8>(self.file.val());
        self.engine.closed.next = self.flags.val().get_bit(0);
        self.engine.warnsdorff.next = self.flags.val().get_bit(1);
        self.engine.count_all.next = self.flags.val().get_bit(2);
        self.engine.prune.next = self.flags.val().get_bit(3);
        self.engine.limit.next = bit_cast::<48, 32>(self.limit.val());
        if !self.limit.val().any() {
            self.engine.limit.next = self.unlimited.val();
        }
        self.engine.prefix_length.next = 0.into();
        self.engine.prefix_square.next = 0.into();
        self.engine.prefix_valid.next = false;

        // Send the most urgent pending answer whenever the sender is free.
        self.counters.next = (bit_cast::<FRAME_BITS, 48>(self.engine.tours.val()) << 40)
            | (bit_cast::<FRAME_BITS, 48>(self.engine.nodes.val()) << 88)
            | (bit_cast::<FRAME_BITS, 48>(self.engine.cycles.val()) << 136);
        self.responses.load.next = false;
        self.responses.header.next = self.counters.val();
        self.responses.header_bytes.next = self.counters_bytes.val();
        self.responses.with_squares.next = false;
        self.error_slot_free.next = !self.error_pending.q.val();
        if self.responses.idle.val() {
            self.responses.load.next = true;
            if self.error_pending.q.val() {
                self.responses.header.next = self.error_frame.val()
                    | (bit_cast::<FRAME_BITS, 8>(self.error_code.q.val()) << 32)
                    | (bit_cast::<FRAME_BITS, 8>(self.error_command.q.val()) << 40);
                self.responses.header_bytes.next = self.error_bytes.val();
                self.error_pending.d.next = false;
                self.error_slot_free.next = true;
            } else if self.ack_pending.q.val() {
                self.responses.header.next =
                    self.ack_frame.val() | (bit_cast::<FRAME_BITS, 8>(self.ack_command.q.val()) << 32);
                self.responses.header_bytes.next = self.ack_bytes.val();
                self.ack_pending.d.next = false;
            } else if self.identify_pending.q.val() {
                self.responses.header.next = self.identity_frame.val();
                self.responses.header_bytes.next = self.identity_bytes.val();
                self.identify_pending.d.next = false;
            } else if self.status_pending.q.val() {
                self.responses.header.next =
                    (self.progress_frame.val() | self.counters.val()).replace_bit(32, self.searching.q.val());
                self.status_pending.d.next = false;
            } else if self.searching.q.val() & self.engine.tour_valid.val() {
                self.responses.header.next = self.tour_frame.val()
                    | (bit_cast::<FRAME_BITS, 16>(self.engine.board_squares.val() + 4) << 8)
                    | (bit_cast::<FRAME_BITS, 32>(self.engine.tours.val().get_bits::<32>(0)) << 32);
                self.responses.header_bytes.next = self.tour_bytes.val();
                self.responses.with_squares.next = true;
            } else if self.progress_due.q.val() {
                self.responses.header.next = (self.progress_frame.val() | self.counters.val()).replace_bit(32, true);
                self.progress_due.d.next = false;
            } else if self.searching.q.val() & self.engine.done.val() {
                self.responses.header.next = self.done_frame.val()
                    | self.counters.val()
                    | (bit_cast::<FRAME_BITS, 2>(self.engine.status.val()) << 32);
                self.searching.d.next = false;
                self.abort_requested.d.next = false;
                self.progress_due.d.next = false;
            } else {
                self.responses.load.next = false;
            }
        }

        if self.searching.q.val()
            & self.engine.busy.val()
            & !(self.engine.cycles.val() & self.progress_mask.val()).any()
            & self.engine.cycles.val().any()
        {
            self.progress_due.d.next = true;
        }

        // Why SOLVE's payload cannot start a search (0: it can).
        self.rejection.next = 0.into();
        if (self.file.val() >= self.width.val()) | (self.rank.val() >= self.height.val()) {
            self.rejection.next = self.err_start_off_board.val();
        }
        if (self.width.val() > self.max_width.val()) | (self.height.val() > self.max_height.val()) {
            self.rejection.next = self.err_board_too_large.val();
        }
        if (self.width.val() == 0) | (self.height.val() == 0) | (self.flags.val() > 15) {
            self.rejection.next = self.err_bad_argument.val();
        }
        if self.searching.q.val() {
            self.rejection.next = self.err_busy.val();
        }

        // Commands: each good frame gets its answer queued here.
        if self.commands.command_valid.val() {
            if self.commands.command.val() == self.cmd_identify.val() {
                self.identify_pending.d.next = true;
            }
            if self.commands.command.val() == self.cmd_status.val() {
                self.status_pending.d.next = true;
            }
            if self.commands.command.val() == self.cmd_abort.val() {
                self.ack_pending.d.next = true;
                self.ack_command.d.next = self.cmd_abort.val();
                if self.searching.q.val() {
                    self.abort_requested.d.next = true;
                }
            }
            if self.commands.command.val() == self.cmd_solve.val() {
                if !self.rejection.val().any() {
                    self.engine.start.next = true;
                    self.searching.d.next = true;
                    self.abort_requested.d.next = false;
                    self.ack_pending.d.next = true;
                    self.ack_command.d.next = self.cmd_solve.val();
                } else if self.error_slot_free.val() {
                    self.error_pending.d.next = true;
                    self.error_code.d.next = self.rejection.val();
                    self.error_command.d.next = self.cmd_solve.val();
                }
            }
        }
        if self.commands.error_valid.val() & self.error_slot_free.val() {
            self.error_pending.d.next = true;
            self.error_code.d.next = self.commands.error_code.val();
            self.error_command.d.next = self.commands.error_command.val();
        }
    }
}
