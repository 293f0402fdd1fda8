//! The platform: everything of an accelerator but its engines, written once
//! for every engine kind against [`EnginePort`].
//!
//! The link to the host: the [`uart`], the [`command_receiver`] (frames
//! in, checked with the [`crc`]) and the [`response_sender`] (frames out);
//! the [`job_queue`] through which several engines share a search (SOLVE
//! names a split level, the nodes at that level are the jobs, numbered in
//! search order; engine 0, the walker, walks the levels above and queues
//! each job as its path, the others take jobs as they finish theirs, and the
//! walker searches a job itself when the queue is full); the [`totals`]
//! summed from the engines' pulses (a [`sum_tree`]); the [`result_arbiter`] that streams one
//! engine's result at a time; and the controller here, which answers every
//! good command at once (IDENTIFY with the build's parameters, STATUS with a
//! progress frame, SOLVE and ABORT with an ACK or an ERROR), sends a
//! PROGRESS frame every `2^progress_log2` cycles of a search, stops every
//! engine at the K-th result sent, and ends every accepted search with
//! exactly one DONE. Each kind of answer has one slot, sent in a fixed
//! priority order whenever the sender is idle; see `docs/protocol.md`.
//!
//! An engine kind provides a bank of engines ([`EngineBank`]: an
//! [`EnginePort`] each, and what IDENTITY says about them,
//! [`BuildIdentity`]); the [`Accelerator`] joins it to the platform.

mod accelerator;
pub mod command_receiver;
pub mod crc;
mod engine_flags;
pub mod engine_port;
pub mod job_queue;
pub mod response_sender;
pub mod result_arbiter;
pub mod sum_tree;
pub mod totals;
pub mod uart;

use knights_protocol::{command, error, feature, length, response, status, SYNC, VERSION};
use rust_hdl::prelude::*;

pub use accelerator::{Accelerator, EngineBank};
use command_receiver::CommandReceiver;
use engine_flags::EngineFlags;
pub use engine_port::{
    EnginePort, EngineSocket, JobPort, JobRole, JobSocket, ARGUMENT_BITS, COUNT_BITS, JOB_PATH_BITS,
};
use job_queue::JobQueue;
use response_sender::{ResponseSender, FRAME_BITS};
use result_arbiter::ResultArbiter;
use totals::Totals;
pub use totals::MAX_ENGINES;
use uart::{UartReceiver, UartTransmitter};

/// One default value per engine (a port or signal each).
fn per_engine<T: Default>(engines: usize) -> Vec<T> {
    (0..engines).map(|_| T::default()).collect()
}

/// Engine `i`'s bit in a vector with a bit an engine.
pub fn engine_bit(i: usize) -> Bits<MAX_ENGINES> {
    Bits::<MAX_ENGINES>::default().replace_bit(i, true)
}

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
    /// IDENTITY's build id (see `crate::verilog::accelerator_verilog`).
    pub build_id: u32,
}

impl LinkSettings {
    /// Settings for a board clock and baud rate: frames time out after
    /// 10 ms (a host writes a command in one go, so its bytes arrive back to
    /// back), progress comes about every half second.
    pub fn new(clock_hz: u64, baud: u64) -> Self {
        let progress_log2 = (clock_hz / 2).max(2).ilog2();
        LinkSettings { clock_hz, baud, frame_timeout: clock_hz / 100, progress_log2, build_id: 0 }
    }

    /// The simulated board: a 12 MHz clock with the UART at 3 Mbaud (four
    /// clocks per bit, as fast as FTDI bridges go).
    pub fn simulation() -> Self {
        LinkSettings::new(12_000_000, 3_000_000)
    }

    /// Clocks per UART bit.
    pub fn clocks_per_bit(&self) -> u64 {
        knights_protocol::design::clocks_per_bit(self.clock_hz, self.baud)
    }

    /// The baud rate the rounded bit time gives.
    pub fn actual_baud(&self) -> u64 {
        self.clock_hz / self.clocks_per_bit()
    }
}

/// What IDENTITY says about a build's engines (the platform adds the
/// version, the engine count, the clock and the baud rate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildIdentity {
    /// The largest board the engines take.
    pub max_width: u8,
    pub max_height: u8,
    /// IDENTITY's feature bits (`knights_protocol::feature`); with
    /// `feature::QUEENS` the build takes QUEENS, not SOLVE.
    pub features: u8,
    /// A SOLVE's split level must lie below this (the engines' jobs have
    /// room for paths that deep); a deeper one is a bad argument.
    pub split_limit: u8,
    /// A SOLVE's path must be shorter than this (0: the engines take no
    /// path); a longer one is a bad argument.
    pub path_limit: u8,
}

#[derive(LogicBlock)]
pub struct Platform {
    pub clock: Signal<In, Clock>,
    /// Serial data from the host.
    pub uart_rx: Signal<In, bool>,
    /// Serial data to the host.
    pub uart_tx: Signal<Out, bool>,
    /// A search is running (until its DONE frame is out).
    pub led_busy: Signal<Out, bool>,
    /// The current or last search has found a result.
    pub led_found: Signal<Out, bool>,
    /// One socket per engine (engine 0 the walker).
    pub engines: Vec<EngineSocket>,

    receiver: UartReceiver,
    transmitter: UartTransmitter,
    commands: CommandReceiver,
    responses: ResponseSender,
    queue: JobQueue,
    // The engines' job requests, as the queue takes them.
    requests: EngineFlags,
    totals: Totals,
    arbiter: ResultArbiter,

    engine_one_hot: Vec<Constant<Bits<MAX_ENGINES>>>,
    engine_number: Vec<Constant<Bits<8>>>,
    // One search never splits: its job logic then synthesises away. (An
    // interleaved engine alone runs five searches, so it splits.)
    sharing: Constant<bool>,
    status_found: Constant<Bits<8>>,
    status_exhausted: Constant<Bits<8>>,
    status_aborted: Constant<Bits<8>>,
    progress_mask: Constant<Bits<48>>,
    count_mask: Constant<Bits<16>>,
    cmd_identify: Constant<Bits<8>>,
    // The search command this build runs, and the other problem's.
    cmd_solve: Constant<Bits<8>>,
    cmd_other_solve: Constant<Bits<8>>,
    cmd_abort: Constant<Bits<8>>,
    cmd_status: Constant<Bits<8>>,
    err_busy: Constant<Bits<8>>,
    err_bad_argument: Constant<Bits<8>>,
    err_wrong_problem: Constant<Bits<8>>,
    split_limit: Constant<Bits<8>>,
    path_limit: Constant<Bits<8>>,
    // Frame headers: sync, length and type (and all of IDENTITY).
    identity_frame: Constant<Bits<FRAME_BITS>>,
    ack_frame: Constant<Bits<FRAME_BITS>>,
    error_frame: Constant<Bits<FRAME_BITS>>,
    progress_frame: Constant<Bits<FRAME_BITS>>,
    done_frame: Constant<Bits<FRAME_BITS>>,
    result_frame: Constant<Bits<FRAME_BITS>>,
    identity_bytes: Constant<Bits<8>>,
    ack_bytes: Constant<Bits<8>>,
    error_bytes: Constant<Bits<8>>,
    counters_bytes: Constant<Bits<8>>,
    result_bytes: Constant<Bits<8>>,

    // The answer slots, and the search.
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
    count_run: DFF<bool>,
    limited: DFF<bool>,
    result_limit: DFF<Bits<32>>,
    // Registered so the arguments' judgement and the engines' start (each
    // a long way across the chip) take a clock each: the payload stands
    // still for the frame's CRC bytes before a SOLVE is taken.
    argument_refusal: DFF<Bits<8>>,
    // The K-th result is out (taken a clock before): registered, as the
    // engines' cancel, which it drives, ends deep in their logic.
    limit_reached: DFF<bool>,
    start_engines: Vec<DFF<bool>>,
    // The two clocks after a SOLVE is taken, before the totals can see the
    // engines it started (`quiet` is of the clock before).
    starting: DFF<bool>,
    started: DFF<bool>,

    count_flag: Signal<Local, bool>,
    limit: Signal<Local, Bits<32>>,
    split: Signal<Local, Bits<8>>,
    path_length: Signal<Local, Bits<8>>,
    use_engines: Signal<Local, Bits<8>>,
    accepted: Signal<Local, bool>,
    stopping: Signal<Local, bool>,
    sending_result: Signal<Local, bool>,
    final_status: Signal<Local, Bits<8>>,
    error_slot_free: Signal<Local, bool>,
    rejection: Signal<Local, Bits<8>>,
    counters: Signal<Local, Bits<FRAME_BITS>>,
}

impl Platform {
    pub fn new(engines: usize, build: BuildIdentity, link: LinkSettings) -> Self {
        assert!((1..=MAX_ENGINES).contains(&engines), "1 to {} engines", MAX_ENGINES);
        assert!(link.clock_hz < 1 << 32 && link.baud < 1 << 32);
        // A frame's first bytes: sync, length (little-endian), type, payload.
        let header = |length: u16, kind: u8, payload: &[u8]| {
            let mut bytes = vec![SYNC, length as u8, (length >> 8) as u8, kind];
            bytes.extend_from_slice(payload);
            let mut bits = Bits::<FRAME_BITS>::default();
            for (i, byte) in bytes.iter().enumerate() {
                for b in 0..8 {
                    bits = bits.replace_bit(8 * i + b, byte >> b & 1 == 1);
                }
            }
            Constant::new(bits)
        };
        fn constant<const N: usize>(value: impl Into<u64>) -> Constant<Bits<N>> {
            Constant::new(value.into().into())
        }
        let queens = build.features & feature::QUEENS != 0;
        // (An interleaved engine alone runs five searches.)
        let sharing = engines > 1 || build.features & feature::INTERLEAVED != 0;
        let mut identity = vec![VERSION, build.max_width, build.max_height, engines as u8];
        identity.extend_from_slice(&(link.clock_hz as u32).to_le_bytes());
        identity.extend_from_slice(&(link.actual_baud() as u32).to_le_bytes());
        identity.push(build.features);
        identity.extend_from_slice(&link.build_id.to_le_bytes());
        assert_eq!(identity.len(), usize::from(length::IDENTITY));
        Platform {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            engines: per_engine(engines),
            receiver: UartReceiver::new(link.clocks_per_bit()),
            transmitter: UartTransmitter::new(link.clocks_per_bit()),
            commands: CommandReceiver::new(link.frame_timeout),
            responses: Default::default(),
            queue: JobQueue::new(engines, sharing),
            requests: EngineFlags::new(engines),
            totals: Totals::new(engines),
            arbiter: ResultArbiter::new(engines),
            engine_one_hot: (0..engines).map(|i| Constant::new(engine_bit(i))).collect(),
            engine_number: (0..engines).map(|i| constant(i as u64)).collect(),
            sharing: Constant::new(sharing),
            status_found: constant(status::FOUND),
            status_exhausted: constant(status::EXHAUSTED),
            status_aborted: constant(status::ABORTED),
            progress_mask: Constant::new(((1u64 << link.progress_log2) - 1).into()),
            count_mask: Constant::new(((1u64 << COUNT_BITS) - 1).into()),
            cmd_identify: constant(command::IDENTIFY),
            cmd_solve: constant(if queens { command::QUEENS } else { command::SOLVE }),
            cmd_other_solve: constant(if queens { command::SOLVE } else { command::QUEENS }),
            cmd_abort: constant(command::ABORT),
            cmd_status: constant(command::STATUS),
            err_busy: constant(error::BUSY),
            err_bad_argument: constant(error::BAD_ARGUMENT),
            err_wrong_problem: constant(error::WRONG_PROBLEM),
            split_limit: constant(build.split_limit),
            path_limit: constant(build.path_limit),
            identity_frame: header(length::IDENTITY, response::IDENTITY, &identity),
            ack_frame: header(length::ACK, response::ACK, &[]),
            error_frame: header(length::ERROR, response::ERROR, &[]),
            progress_frame: header(length::COUNTERS, response::PROGRESS, &[]),
            done_frame: header(length::COUNTERS, response::DONE, &[]),
            result_frame: header(0, response::TOUR, &[]),
            identity_bytes: constant(4 + length::IDENTITY),
            ack_bytes: constant(4 + length::ACK),
            error_bytes: constant(4 + length::ERROR),
            counters_bytes: constant(4 + length::COUNTERS),
            result_bytes: constant(4 + length::TOUR_HEADER),
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
            count_run: Default::default(),
            limited: Default::default(),
            result_limit: Default::default(),
            argument_refusal: Default::default(),
            limit_reached: Default::default(),
            start_engines: (0..engines).map(|_| Default::default()).collect(),
            starting: Default::default(),
            started: Default::default(),
            count_flag: Default::default(),
            limit: Default::default(),
            split: Default::default(),
            path_length: Default::default(),
            use_engines: Default::default(),
            accepted: Default::default(),
            stopping: Default::default(),
            sending_result: Default::default(),
            final_status: Default::default(),
            error_slot_free: Default::default(),
            rejection: Default::default(),
            counters: Default::default(),
        }
    }
}

impl Logic for Platform {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, searching, abort_requested, ack_pending, ack_command, identify_pending, status_pending);
        dff_setup!(self, clock, progress_due, error_pending, error_code, error_command, count_run, limited);
        dff_setup!(self, clock, result_limit, argument_refusal, limit_reached, starting, started);
        clock!(self, clock, receiver, transmitter, commands, responses, queue, totals, arbiter);

        // The byte path: line, UART, receiver; sender, UART, line.
        self.receiver.line.next = self.uart_rx.val();
        self.commands.octet.next = self.receiver.data.val();
        self.commands.octet_valid.next = self.receiver.valid.val();
        self.transmitter.data.next = self.responses.tx_data.val();
        self.transmitter.send.next = self.responses.tx_send.val();
        self.responses.tx_ready.next = self.transmitter.ready.val();
        self.uart_tx.next = self.transmitter.line.val();
        self.led_busy.next = self.searching.q.val();
        self.led_found.next = self.totals.results.val().any();

        // SOLVE's payload: the engine kind's arguments, then what the
        // platform runs by (see docs/protocol.md).
        // (The flags are byte 4; COUNT is their bit 2.)
        self.count_flag.next = self.commands.payload.val().get_bit(34);
        self.limit.next = self.commands.payload.val().get_bits::<32>(40);
        self.split.next = self.commands.payload.val().get_bits::<8>(72);
        self.use_engines.next = self.commands.payload.val().get_bits::<8>(80);
        self.path_length.next = self.commands.payload.val().get_bits::<8>(88);
        self.limit_reached.d.next = !self.count_run.q.val()
            & self.limited.q.val()
            & (self.totals.results.val().get_bits::<32>(0) == self.result_limit.q.val());
        self.stopping.next = self.abort_requested.q.val() | self.limit_reached.q.val();

        // Every engine sees the arguments; a new search starts those it runs
        // on (set below).
        self.starting.d.next = false;
        self.started.d.next = self.starting.q.val();
        for i in 0..self.engines.len() {
            self.start_engines[i].clock.next = self.clock.val();
            self.start_engines[i].d.next = false;
            self.engines[i].start.next = self.start_engines[i].q.val();
            self.engines[i].arguments.next = self.commands.payload.val().get_bits::<ARGUMENT_BITS>(0);
            self.engines[i].path_length.next = self.path_length.val();
            self.engines[i].path.next = self.commands.payload.val().get_bits::<JOB_PATH_BITS>(96);
            self.engines[i].split_level.next = 0.into();
            if self.sharing.val() {
                self.engines[i].split_level.next = self.split.val();
            }
        }

        // Jobs: the walker's into the queue, the queue's to whoever asks.
        self.queue.found.next = self.engines[0].jobs.found.val();
        self.queue.found_path.next = self.engines[0].jobs.found_path.val();
        self.queue.found_number.next = self.engines[0].jobs.found_number.val();
        self.queue.walking.next = self.engines[0].jobs.walking.val();
        self.queue.requests.next = self.requests.vector.val();
        for i in 0..self.engines.len() {
            self.requests.flags[i].next = self.engines[i].jobs.request.val();
            self.engines[i].jobs.space.next = self.queue.space.val();
            self.engines[i].jobs.grant.next = (self.queue.grants.val() & self.engine_one_hot[i].val()).any();
            self.engines[i].jobs.path.next = self.queue.path.val();
            self.engines[i].jobs.number.next = self.queue.number.val();
            self.engines[i].jobs.over.next = self.queue.over.val();
        }

        // Results: one engine's at a time, to the response sender.
        self.arbiter.ready.next = self.responses.square_ready.val();
        self.arbiter.stop.next = self.searching.q.val() & self.stopping.val();
        for i in 0..self.engines.len() {
            self.arbiter.items[i].next = self.engines[i].item.val();
            self.arbiter.item_valids[i].next = self.engines[i].item_valid.val();
            self.arbiter.item_lasts[i].next = self.engines[i].item_last.val();
            self.arbiter.jobs[i].next = self.engines[i].jobs.job.val();
            self.engines[i].item_ready.next = self.arbiter.item_readies[i].val();
            self.engines[i].cancel.next = self.arbiter.cancels[i].val();
        }
        self.responses.square.next = self.arbiter.item.val();
        self.responses.square_valid.next = self.arbiter.item_valid.val();
        self.responses.square_last.next = self.arbiter.item_last.val();

        // Totals.
        self.totals.searching.next = self.searching.q.val();
        self.totals.counting.next = self.count_run.q.val();
        for i in 0..self.engines.len() {
            // (Masked here, so that the sums start COUNT_BITS wide where each
            // engine is a module of its own, as in the ECP5 flow: its
            // outputs' constant high bits do not reach the trees.)
            self.totals.nodes[i].next = self.engines[i].nodes.val() & self.count_mask.val();
            self.totals.solutions[i].next = self.engines[i].solutions.val() & self.count_mask.val();
            self.totals.running[i].next = self.engines[i].busy.val() & !self.engines[i].streaming.val();
            self.totals.busy[i].next = self.engines[i].busy.val();
        }
        self.final_status.next = self.status_exhausted.val();
        if self.abort_requested.q.val() {
            self.final_status.next = self.status_aborted.val();
        }
        if self.limit_reached.q.val() {
            self.final_status.next = self.status_found.val();
        }

        // Send the most urgent pending answer whenever the sender is free.
        self.counters.next = (bit_cast::<FRAME_BITS, 48>(self.totals.results.val()) << 40)
            | (bit_cast::<FRAME_BITS, 48>(self.totals.node_total.val()) << 88)
            | (bit_cast::<FRAME_BITS, 48>(self.totals.cycles.val()) << 136)
            | (bit_cast::<FRAME_BITS, 48>(self.totals.engine_cycles.val()) << 184);
        self.responses.load.next = false;
        self.responses.header.next = self.counters.val();
        self.responses.header_bytes.next = self.counters_bytes.val();
        self.responses.with_squares.next = false;
        self.error_slot_free.next = !self.error_pending.q.val();
        self.sending_result.next = false;
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
            } else if self.searching.q.val()
                & !self.arbiter.streaming.val()
                & !self.stopping.val()
                & self.arbiter.offered.val()
            {
                self.responses.header.next = self.result_frame.val()
                    | (bit_cast::<FRAME_BITS, 16>(self.engines[0].result_items.val() + 9) << 8)
                    | (bit_cast::<FRAME_BITS, 32>(self.totals.results.val().get_bits::<32>(0) + 1) << 32)
                    | (bit_cast::<FRAME_BITS, 8>(self.arbiter.offered_engine.val()) << 64)
                    | (bit_cast::<FRAME_BITS, 32>(self.arbiter.offered_job.val()) << 72);
                self.responses.header_bytes.next = self.result_bytes.val();
                self.responses.with_squares.next = true;
                self.sending_result.next = true;
            } else if self.progress_due.q.val() {
                self.responses.header.next = (self.progress_frame.val() | self.counters.val()).replace_bit(32, true);
                self.progress_due.d.next = false;
            } else if self.searching.q.val()
                & self.totals.quiet.val()
                & !self.arbiter.streaming.val()
                & !self.starting.q.val()
                & !self.started.q.val()
            {
                self.responses.header.next = self.done_frame.val()
                    | self.counters.val()
                    | (bit_cast::<FRAME_BITS, 8>(self.final_status.val()) << 32);
                self.searching.d.next = false;
                self.abort_requested.d.next = false;
                self.progress_due.d.next = false;
            } else {
                self.responses.load.next = false;
            }
        }
        self.arbiter.take.next = self.sending_result.val();
        self.totals.sent.next = self.sending_result.val();

        if self.searching.q.val()
            & self.totals.ran.val()
            & !(self.totals.cycles.val() & self.progress_mask.val()).any()
            & self.totals.cycles.val().any()
        {
            self.progress_due.d.next = true;
        }

        // Why SOLVE cannot start a search (0: it can): the engines' say,
        // and the platform's on the split level and on running searches.
        self.argument_refusal.d.next = self.engines[0].refusal.val();
        // A path must leave the split level below its end (that is where
        // its jobs lie); a build of one search ignores the split level.
        if (self.split.val() >= self.split_limit.val())
            | (self.path_length.val() >= self.path_limit.val())
            | (self.sharing.val() & self.split.val().any() & (self.split.val() <= self.path_length.val()))
        {
            self.argument_refusal.d.next = self.err_bad_argument.val();
        }
        self.rejection.next = self.argument_refusal.q.val();
        if self.searching.q.val() {
            self.rejection.next = self.err_busy.val();
        }

        // Commands: each good frame gets its answer queued here.
        self.accepted.next = false;
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
            if (self.commands.command.val() == self.cmd_other_solve.val()) & self.error_slot_free.val() {
                self.error_pending.d.next = true;
                self.error_code.d.next = self.err_wrong_problem.val();
                self.error_command.d.next = self.cmd_other_solve.val();
            }
            if self.commands.command.val() == self.cmd_solve.val() {
                if !self.rejection.val().any() {
                    self.accepted.next = true;
                } else if self.error_slot_free.val() {
                    self.error_pending.d.next = true;
                    self.error_code.d.next = self.rejection.val();
                    self.error_command.d.next = self.cmd_solve.val();
                }
            }
        }
        if self.accepted.val() {
            // Split level 0: engine 0 alone searches the whole tree;
            // otherwise the first `use_engines` (0: all) share it. (They
            // start a clock later, from the registers.)
            for i in 0..self.engines.len() {
                self.start_engines[i].d.next = !self.engine_number[i].val().any()
                    | (self.split.val().any()
                        & (!self.use_engines.val().any() | (self.engine_number[i].val() < self.use_engines.val())));
            }
            self.starting.d.next = true;
            // (Not the last search's, while the totals clear.)
            self.limit_reached.d.next = false;
            self.searching.d.next = true;
            self.abort_requested.d.next = false;
            self.count_run.d.next = self.count_flag.val();
            self.limited.d.next = self.limit.val().any();
            self.result_limit.d.next = self.limit.val();
            self.ack_pending.d.next = true;
            self.ack_command.d.next = self.cmd_solve.val();
        }
        self.queue.clear.next = self.accepted.val();
        self.totals.clear.next = self.accepted.val();
        self.arbiter.clear.next = self.accepted.val();
        self.arbiter.use_engines.next = self.use_engines.val();
        if self.commands.error_valid.val() & self.error_slot_free.val() {
            self.error_pending.d.next = true;
            self.error_code.d.next = self.commands.error_code.val();
            self.error_command.d.next = self.commands.error_command.val();
        }
    }
}
