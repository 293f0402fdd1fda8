//! The top level: a UART link to the host, the command receiver, the engines
//! and the response sender, joined by a small controller.
//!
//! Several engines share a search by jobs: SOLVE names a split level, the
//! nodes at that level are the jobs (numbered in search order). Engine 0, the
//! walker, walks the levels above and puts each job, as the moves that lead
//! to it, in a queue here (block RAM); the other engines take jobs from the
//! queue as they finish theirs, the first asking served first, and replay a
//! job's moves (a clock per level, from the deepest level the job shares
//! with their last one) before searching below it. When the queue
//! is full the walker searches the job itself, and once its walk is done it
//! takes jobs like the others. So work goes to whichever engine is free.
//! Counts are summed from per-engine pulses; tours are streamed one whole
//! tour at a time, tagged with the engine and job; the K-th tour sent stops
//! every engine. Split level 0 runs engine 0 alone on the whole tree.
//!
//! The controller answers every good command at once (IDENTIFY with the
//! build's parameters, STATUS with a progress frame, SOLVE and ABORT with an
//! ACK or an ERROR), streams the engine's tours as TOUR frames, sends a
//! PROGRESS frame every `2^progress_log2` cycles of a search, and ends every
//! accepted search with exactly one DONE. Each kind of answer has one slot,
//! sent in a fixed priority order whenever the sender is idle; see
//! `docs/protocol.md`.

use knights_protocol::{command, error, feature, length, response, status, MAX_SPLIT_LEVEL, SYNC, VERSION};
use rust_hdl::prelude::*;

use crate::command::CommandReceiver;
use crate::engine::{Engine, JobRole, JOB_PATH_BITS};
use crate::response::{ResponseSender, FRAME_BITS};
use crate::sum_tree::{SumTree, TERMS as SUM_TERMS};
use crate::uart::{UartReceiver, UartTransmitter};

/// The search features a build includes. Each costs logic in every engine:
/// a build that leaves one out fits more engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Warnsdorff's move order: about an eighth of an engine's logic. Without
    /// it, IDENTITY says so and a SOLVE that asks for it is a bad argument.
    pub warnsdorff: bool,
}

impl Features {
    /// Every feature (dead-end pruning is always built in).
    pub const ALL: Features = Features { warnsdorff: true };
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
    engines: Vec<Engine<SQ, LB>>,
    // The engines' pulses summed, a clock late: nodes counted, tours
    // counted, and engines running (busy and not waiting on the link).
    node_tree: SumTree,
    tour_tree: SumTree,
    running_tree: SumTree,

    max_width: Constant<Bits<8>>,
    max_height: Constant<Bits<8>>,
    row_stride: Constant<Bits<16>>,
    engine_one_hot: Vec<Constant<Bits<32>>>,
    // The engines numbered below each one (first in the queue's order).
    engines_before: Vec<Constant<Bits<32>>>,
    engine_number: Vec<Constant<Bits<8>>>,
    last_engine: Constant<Bits<32>>,
    engine_count: Constant<Bits<8>>,
    split_limit: Constant<Bits<8>>,
    queue_room: Constant<Bits<16>>,
    has_warnsdorff: Constant<bool>,
    shares_work: Constant<bool>,
    status_found: Constant<Bits<8>>,
    status_exhausted: Constant<Bits<8>>,
    status_aborted: Constant<Bits<8>>,
    progress_mask: Constant<Bits<48>>,
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
    // The search across engines.
    count_run: DFF<bool>,
    limited: DFF<bool>,
    tour_limit: DFF<Bits<32>>,
    serve: DFF<Bits<32>>,
    /// The last engine of the search's turns (the engines it runs on).
    serve_last: DFF<Bits<32>>,
    // The job queue: paths and numbers, filled at `queue_head`, taken at
    // `queue_tail`; the engine granted the job taken in the clock before
    // (one-hot; registered, so that the choice among the engines' requests
    // and its fan-out to the held-job registers are a clock apart).
    queue_paths: RAM<Bits<JOB_PATH_BITS>, QUEUE_BITS>,
    queue_numbers: RAM<Bits<32>, QUEUE_BITS>,
    queue_head: DFF<Bits<QUEUE_BITS>>,
    queue_tail: DFF<Bits<QUEUE_BITS>>,
    queue_count: DFF<Bits<16>>,
    granted: DFF<Bits<32>>,
    // The engines' requests, registered beside the queue (each engine's
    // request logic lies by the engine, across the chip: choosing among them
    // unregistered was a path through every engine), and the grants of the
    // clock before last: an engine's registered request stays up for two
    // clocks after its grant.
    job_requests: DFF<Bits<32>>,
    granted_before: DFF<Bits<32>>,
    // The walker's job, registered on its way to the queue (so that the
    // walker's logic is not drawn across the chip to the queue's RAM).
    push_valid: DFF<bool>,
    push_path: DFF<Bits<JOB_PATH_BITS>>,
    push_number: DFF<Bits<32>>,
    streaming: DFF<bool>,
    stream_owner: DFF<Bits<32>>,
    /// Tours sent (first-K) or counted (count mode).
    tour_total: DFF<Bits<48>>,
    node_total: DFF<Bits<48>>,
    cycle_total: DFF<Bits<48>>,
    engine_cycle_total: DFF<Bits<48>>,

    width: Signal<Local, Bits<8>>,
    height: Signal<Local, Bits<8>>,
    file: Signal<Local, Bits<8>>,
    rank: Signal<Local, Bits<8>>,
    flags: Signal<Local, Bits<8>>,
    limit: Signal<Local, Bits<32>>,
    split: Signal<Local, Bits<8>>,
    served: Signal<Local, Bits<32>>,
    job_available: Signal<Local, bool>,
    request_chain: Vec<Signal<Local, Bits<32>>>,
    asking: Signal<Local, Bits<32>>,
    job_taken: Signal<Local, bool>,
    use_engines: Signal<Local, Bits<8>>,
    running_sum: Signal<Local, Bits<8>>,
    busy_engines: Vec<Signal<Local, bool>>,
    node_sum: Signal<Local, Bits<16>>,
    tour_sum: Signal<Local, Bits<8>>,
    any_busy: Signal<Local, bool>,
    settled: Signal<Local, bool>,
    offered: Signal<Local, bool>,
    offered_engine: Signal<Local, Bits<8>>,
    offered_job: Signal<Local, Bits<32>>,
    stream_square: Signal<Local, Bits<LB>>,
    stream_valid: Signal<Local, bool>,
    stream_last: Signal<Local, bool>,
    // The streaming engine's outputs, ORed along the engines (only the owner
    // drives them): an OR reduces to a tree, a chain of muxes did not.
    stream_squares: Vec<Signal<Local, Bits<LB>>>,
    stream_valids: Vec<Signal<Local, bool>>,
    stream_lasts: Vec<Signal<Local, bool>>,
    streams: Vec<Signal<Local, bool>>,
    limit_reached: Signal<Local, bool>,
    stopping: Signal<Local, bool>,
    engine_cycles_shown: Signal<Local, Bits<48>>,
    final_status: Signal<Local, Bits<8>>,
    error_slot_free: Signal<Local, bool>,
    rejection: Signal<Local, Bits<8>>,
    counters: Signal<Local, Bits<FRAME_BITS>>,
}

/// The most engines one accelerator drives.
pub const MAX_ENGINES: usize = SUM_TERMS;

/// The job queue holds `2^QUEUE_BITS` jobs: one block RAM deep. (16 places
/// ran twenty 6x6 engines 22% slower: they ran out of jobs while the walker
/// searched one itself.)
pub const QUEUE_BITS: usize = 8;

impl<const SQ: usize, const LB: usize> Accelerator<SQ, LB> {
    pub fn new(max_width: usize, max_height: usize, engines: usize, features: Features, link: LinkSettings) -> Self {
        assert!(SQ <= 256, "tour squares are sent as one byte each: at most 256 squares");
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
        let mut identity = vec![VERSION, max_width as u8, max_height as u8, engines as u8];
        identity.extend_from_slice(&(link.clock_hz as u32).to_le_bytes());
        identity.extend_from_slice(&(link.actual_baud() as u32).to_le_bytes());
        let warnsdorff_bit = if features.warnsdorff { feature::WARNSDORFF } else { 0 };
        identity.push(warnsdorff_bit | feature::PRUNE);
        assert_eq!(identity.len(), usize::from(length::IDENTITY));
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
            engines: (0..engines)
                .map(|i| {
                    let role = if i == 0 { JobRole::Walker } else { JobRole::Worker };
                    Engine::for_accelerator(max_width, max_height, features.warnsdorff, role)
                })
                .collect(),
            node_tree: Default::default(),
            tour_tree: Default::default(),
            running_tree: Default::default(),
            engine_one_hot: (0..engines).map(|i| constant(1u64 << i)).collect(),
            engines_before: (0..engines).map(|i| constant((1u64 << i) - 1)).collect(),
            engine_number: (0..engines).map(|i| constant(i as u64)).collect(),
            last_engine: constant(1u64 << (engines - 1)),
            engine_count: Constant::new((engines as u64).into()),
            // A job level must lie above the last level of the largest board,
            // and its path fit the queue.
            split_limit: constant((SQ as u64 - 1).min(u64::from(MAX_SPLIT_LEVEL) + 1)),
            // The walker hands a job to the queue only with room for it. It
            // sees the room a clock late, and up to three jobs are on their
            // way (its found pulse, the push register, the count), so it is
            // told the queue is full four places early.
            queue_room: constant((1u64 << QUEUE_BITS) - 4),
            has_warnsdorff: Constant::new(features.warnsdorff),
            // One engine never splits: its job logic then synthesises away.
            shares_work: Constant::new(engines > 1),
            status_found: constant(status::FOUND),
            status_exhausted: constant(status::EXHAUSTED),
            status_aborted: constant(status::ABORTED),
            max_width: constant(max_width as u64),
            max_height: constant(max_height as u64),
            row_stride: Constant::new((max_width as u64).into()),
            progress_mask: Constant::new(((1u64 << link.progress_log2) - 1).into()),
            cmd_identify: constant(command::IDENTIFY),
            cmd_solve: constant(command::SOLVE),
            cmd_abort: constant(command::ABORT),
            cmd_status: constant(command::STATUS),
            err_busy: constant(error::BUSY),
            err_board_too_large: constant(error::BOARD_TOO_LARGE),
            err_start_off_board: constant(error::START_OFF_BOARD),
            err_bad_argument: constant(error::BAD_ARGUMENT),
            identity_frame: header(length::IDENTITY, response::IDENTITY, &identity),
            ack_frame: header(length::ACK, response::ACK, &[]),
            error_frame: header(length::ERROR, response::ERROR, &[]),
            progress_frame: header(length::COUNTERS, response::PROGRESS, &[]),
            done_frame: header(length::COUNTERS, response::DONE, &[]),
            tour_frame: header(0, response::TOUR, &[]),
            identity_bytes: constant(4 + length::IDENTITY),
            ack_bytes: constant(4 + length::ACK),
            error_bytes: constant(4 + length::ERROR),
            counters_bytes: constant(4 + length::COUNTERS),
            tour_bytes: constant(4 + length::TOUR_HEADER),
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
            tour_limit: Default::default(),
            serve: Default::default(),
            serve_last: Default::default(),
            queue_paths: Default::default(),
            queue_numbers: Default::default(),
            queue_head: Default::default(),
            queue_tail: Default::default(),
            queue_count: Default::default(),
            granted: Default::default(),
            job_requests: Default::default(),
            granted_before: Default::default(),
            push_valid: Default::default(),
            push_path: Default::default(),
            push_number: Default::default(),
            streaming: Default::default(),
            stream_owner: Default::default(),
            tour_total: Default::default(),
            node_total: Default::default(),
            cycle_total: Default::default(),
            engine_cycle_total: Default::default(),
            width: Default::default(),
            height: Default::default(),
            file: Default::default(),
            rank: Default::default(),
            flags: Default::default(),
            limit: Default::default(),
            split: Default::default(),
            served: Default::default(),
            job_available: Default::default(),
            request_chain: (0..engines).map(|_| Default::default()).collect(),
            asking: Default::default(),
            job_taken: Default::default(),
            use_engines: Default::default(),
            running_sum: Default::default(),
            busy_engines: (0..engines).map(|_| Default::default()).collect(),
            node_sum: Default::default(),
            tour_sum: Default::default(),
            any_busy: Default::default(),
            settled: Default::default(),
            offered: Default::default(),
            offered_engine: Default::default(),
            offered_job: Default::default(),
            stream_square: Default::default(),
            stream_valid: Default::default(),
            stream_last: Default::default(),
            stream_squares: (0..engines).map(|_| Default::default()).collect(),
            stream_valids: (0..engines).map(|_| Default::default()).collect(),
            stream_lasts: (0..engines).map(|_| Default::default()).collect(),
            streams: (0..engines).map(|_| Default::default()).collect(),
            limit_reached: Default::default(),
            stopping: Default::default(),
            engine_cycles_shown: Default::default(),
            final_status: Default::default(),
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
            error_command,
            count_run,
            limited,
            tour_limit,
            serve,
            serve_last,
            queue_head,
            queue_tail,
            queue_count,
            granted,
            job_requests,
            granted_before,
            push_valid,
            push_path,
            push_number,
            streaming,
            stream_owner,
            tour_total,
            node_total,
            cycle_total,
            engine_cycle_total
        );
        clock!(self, clock, receiver, transmitter, commands, responses);

        // The byte path: line, UART, receiver; sender, UART, line.
        self.receiver.line.next = self.uart_rx.val();
        self.commands.octet.next = self.receiver.data.val();
        self.commands.octet_valid.next = self.receiver.valid.val();
        self.transmitter.data.next = self.responses.tx_data.val();
        self.transmitter.send.next = self.responses.tx_send.val();
        self.responses.tx_ready.next = self.transmitter.ready.val();
        self.uart_tx.next = self.transmitter.line.val();
        self.led_busy.next = self.searching.q.val();
        self.led_found.next = self.tour_total.q.val().any();

        // SOLVE's payload goes to the engines' inputs; `start` decides.
        self.width.next = self.commands.payload.val().get_bits::<8>(0);
        self.height.next = self.commands.payload.val().get_bits::<8>(8);
        self.file.next = self.commands.payload.val().get_bits::<8>(16);
        self.rank.next = self.commands.payload.val().get_bits::<8>(24);
        self.flags.next = self.commands.payload.val().get_bits::<8>(32);
        self.limit.next = self.commands.payload.val().get_bits::<32>(40);
        self.split.next = self.commands.payload.val().get_bits::<8>(72);
        self.use_engines.next = self.commands.payload.val().get_bits::<8>(80);

        // One engine is served per clock, in turn among the search's engines
        // (so a run on N of them takes the clocks an N-engine build would): it
        // may start streaming a tour.
        self.serve.d.next = self.serve.q.val() << 1;
        if (self.serve.q.val() == self.serve_last.q.val()) | !self.serve.q.val().any() {
            self.serve.d.next = 1.into();
        }
        // One engine is always the one served (the register synthesises away).
        self.served.next = 1.into();
        if self.shares_work.val() {
            self.served.next = self.serve.q.val();
        }
        self.limit_reached.next = !self.count_run.q.val()
            & self.limited.q.val()
            & (self.tour_total.q.val().get_bits::<32>(0) == self.tour_limit.q.val());
        self.stopping.next = self.abort_requested.q.val() | self.limit_reached.val();
        self.offered.next = false;
        self.offered_engine.next = 0.into();
        self.offered_job.next = 0.into();

        // The job queue. The walker's job goes in at the head. A job comes
        // out at the tail to the first engine asking (not counting one whose
        // grant is on its way); the RAM's read is registered, so the engine
        // takes it a clock later, with its grant.
        self.queue_paths.write_clock.next = self.clock.val();
        self.queue_paths.read_clock.next = self.clock.val();
        self.queue_numbers.write_clock.next = self.clock.val();
        self.queue_numbers.read_clock.next = self.clock.val();
        self.queue_paths.write_address.next = self.queue_head.q.val();
        self.queue_numbers.write_address.next = self.queue_head.q.val();
        self.push_valid.d.next = self.engines[0].job_found.val();
        self.push_path.d.next = self.engines[0].found_path.val();
        self.push_number.d.next = self.engines[0].found_number.val();
        self.queue_paths.write_data.next = self.push_path.q.val();
        self.queue_numbers.write_data.next = self.push_number.q.val();
        self.queue_paths.write_enable.next = self.push_valid.q.val();
        self.queue_numbers.write_enable.next = self.push_valid.q.val();
        self.job_available.next = self.queue_count.q.val().any() & self.shares_work.val();
        self.request_chain[0].next = 0.into();
        if self.engines[0].job_request.val() {
            self.request_chain[0].next = self.engine_one_hot[0].val();
        }
        self.job_requests.d.next = self.request_chain[0].val();
        for i in 1..self.engines.len() {
            self.request_chain[i].next = self.request_chain[i - 1].val();
            if self.engines[i].job_request.val() {
                self.request_chain[i].next = self.request_chain[i - 1].val() | self.engine_one_hot[i].val();
            }
            self.job_requests.d.next = self.request_chain[i].val();
        }
        self.granted_before.d.next = self.granted.q.val();
        self.asking.next = self.job_requests.q.val() & !(self.granted.q.val() | self.granted_before.q.val());
        self.job_taken.next = self.job_available.val() & self.asking.val().any();
        self.granted.d.next = 0.into();
        for i in 0..self.engines.len() {
            if self.job_available.val()
                & (self.asking.val() & self.engine_one_hot[i].val()).any()
                & !(self.asking.val() & self.engines_before[i].val()).any()
            {
                self.granted.d.next = self.engine_one_hot[i].val();
            }
        }
        self.queue_paths.read_address.next = self.queue_tail.q.val();
        self.queue_numbers.read_address.next = self.queue_tail.q.val();
        if self.job_taken.val() {
            self.queue_tail.d.next = self.queue_tail.q.val() + 1;
        }
        if self.push_valid.q.val() {
            self.queue_head.d.next = self.queue_head.q.val() + 1;
            if !self.job_taken.val() {
                self.queue_count.d.next = self.queue_count.q.val() + 1;
            }
        } else if self.job_taken.val() {
            self.queue_count.d.next = self.queue_count.q.val() - 1;
        }

        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            self.engines[i].start.next = false;
            self.engines[i].width.next = self.width.val();
            self.engines[i].height.next = self.height.val();
            self.engines[i].start_square.next =
                bit_cast::<LB, 32>(bit_cast::<16, 8>(self.rank.val()) * self.row_stride.val())
                    + bit_cast::<LB, 8>(self.file.val());
            self.engines[i].closed.next = self.flags.val().get_bit(0);
            self.engines[i].warnsdorff.next = self.flags.val().get_bit(1);
            self.engines[i].count_all.next = self.flags.val().get_bit(2);
            self.engines[i].prune.next = self.flags.val().get_bit(3);
            self.engines[i].limit.next = 0.into();
            self.engines[i].split_level.next = 0.into();
            if self.shares_work.val() {
                self.engines[i].split_level.next = bit_cast::<LB, 8>(self.split.val());
            }
            self.engines[i].prefix_length.next = 0.into();
            self.engines[i].prefix_square.next = 0.into();
            self.engines[i].prefix_valid.next = false;
            self.engines[i].job_space.next = self.queue_count.q.val() < self.queue_room.val();
            self.engines[i].job_path.next = self.queue_paths.read_data.val();
            self.engines[i].job_number.next = self.queue_numbers.read_data.val();
            self.engines[i].jobs_over.next = !self.engines[0].walking.val()
                & !self.engines[0].job_found.val()
                & !self.push_valid.q.val()
                & !self.queue_count.q.val().any();
            // Stop every engine but the one streaming (a frame is never cut).
            self.engines[i].cancel.next = self.searching.q.val()
                & self.stopping.val()
                & !(self.streaming.q.val() & (self.stream_owner.q.val() & self.engine_one_hot[i].val()).any());
            if (self.served.val() & self.engine_one_hot[i].val()).any() & self.engines[i].tour_valid.val() {
                self.offered.next = true;
                self.offered_engine.next = self.engine_number[i].val();
                self.offered_job.next = self.engines[i].job.val();
            }
            self.streams[i].next =
                self.streaming.q.val() & (self.stream_owner.q.val() & self.engine_one_hot[i].val()).any();
            self.engines[i].tour_ready.next = self.streams[i].val() & self.responses.square_ready.val();
        }
        self.stream_squares[0].next = 0.into();
        if self.streams[0].val() {
            self.stream_squares[0].next = self.engines[0].tour_square.val();
        }
        self.stream_valids[0].next = self.streams[0].val() & self.engines[0].tour_valid.val();
        self.stream_lasts[0].next = self.streams[0].val() & self.engines[0].tour_last.val();
        self.stream_square.next = self.stream_squares[0].val();
        self.stream_valid.next = self.stream_valids[0].val();
        self.stream_last.next = self.stream_lasts[0].val();
        for i in 1..self.engines.len() {
            self.stream_squares[i].next = self.stream_squares[i - 1].val();
            if self.streams[i].val() {
                self.stream_squares[i].next = self.stream_squares[i - 1].val() | self.engines[i].tour_square.val();
            }
            self.stream_valids[i].next =
                self.stream_valids[i - 1].val() | (self.streams[i].val() & self.engines[i].tour_valid.val());
            self.stream_lasts[i].next =
                self.stream_lasts[i - 1].val() | (self.streams[i].val() & self.engines[i].tour_last.val());
            self.stream_square.next = self.stream_squares[i].val();
            self.stream_valid.next = self.stream_valids[i].val();
            self.stream_last.next = self.stream_lasts[i].val();
        }
        for i in 0..self.engines.len() {
            self.engines[i].job_grant.next = (self.granted.q.val() & self.engine_one_hot[i].val()).any();
        }
        self.responses.square.next = bit_cast::<8, LB>(self.stream_square.val());
        self.responses.square_valid.next = self.stream_valid.val();
        self.responses.square_last.next = self.stream_last.val();
        if self.stream_valid.val() & self.stream_last.val() & self.responses.square_ready.val() {
            self.streaming.d.next = false;
        }

        // Totals, summed from the engines' pulses by adder trees (registered,
        // so a clock late); whether any engine is busy, by an OR along them.
        self.node_tree.clock.next = self.clock.val();
        self.tour_tree.clock.next = self.clock.val();
        self.running_tree.clock.next = self.clock.val();
        for i in 0..SUM_TERMS {
            self.node_tree.terms[i].next = 0.into();
            self.tour_tree.terms[i].next = 0.into();
            self.running_tree.terms[i].next = 0.into();
        }
        self.busy_engines[0].next = self.engines[0].busy.val();
        for i in 0..self.engines.len() {
            self.node_tree.terms[i].next = self.engines[i].node_counted.val();
            if self.engines[i].tour_counted.val() {
                self.tour_tree.terms[i].next = 1.into();
            }
            if self.engines[i].busy.val() & !self.engines[i].streaming.val() {
                self.running_tree.terms[i].next = 1.into();
            }
        }
        self.any_busy.next = self.busy_engines[0].val();
        for i in 1..self.engines.len() {
            self.busy_engines[i].next = self.busy_engines[i - 1].val() | self.engines[i].busy.val();
            self.any_busy.next = self.busy_engines[i].val();
        }
        self.node_sum.next = self.node_tree.sum.val();
        self.tour_sum.next = bit_cast::<8, 16>(self.tour_tree.sum.val());
        self.running_sum.next = bit_cast::<8, 16>(self.running_tree.sum.val());
        // Every engine has stopped and its last counts are in the totals
        // (the sums in the trees' registers too).
        self.settled.next = !self.any_busy.val()
            & !self.streaming.q.val()
            & !self.node_tree.any_now.val()
            & !self.tour_tree.any_now.val()
            & !self.running_tree.any_now.val()
            & !self.node_sum.val().any()
            & !self.tour_sum.val().any()
            & !self.running_sum.val().any();
        if self.searching.q.val() {
            self.node_total.d.next = self.node_total.q.val() + bit_cast::<48, 16>(self.node_sum.val());
            if self.count_run.q.val() {
                self.tour_total.d.next = self.tour_total.q.val() + bit_cast::<48, 8>(self.tour_sum.val());
            }
            // Search time: clocks an engine spent waiting for the link to take
            // a tour are not counted.
            self.engine_cycle_total.d.next =
                self.engine_cycle_total.q.val() + bit_cast::<48, 8>(self.running_sum.val());
            if self.running_sum.val().any() {
                self.cycle_total.d.next = self.cycle_total.q.val() + 1;
            }
        }
        // One engine: its search cycles are the device's (and its own
        // counter synthesises away).
        self.engine_cycles_shown.next = self.cycle_total.q.val();
        if self.shares_work.val() {
            self.engine_cycles_shown.next = self.engine_cycle_total.q.val();
        }
        self.final_status.next = self.status_exhausted.val();
        if self.abort_requested.q.val() {
            self.final_status.next = self.status_aborted.val();
        }
        if self.limit_reached.val() {
            self.final_status.next = self.status_found.val();
        }

        // Send the most urgent pending answer whenever the sender is free.
        self.counters.next = (bit_cast::<FRAME_BITS, 48>(self.tour_total.q.val()) << 40)
            | (bit_cast::<FRAME_BITS, 48>(self.node_total.q.val()) << 88)
            | (bit_cast::<FRAME_BITS, 48>(self.cycle_total.q.val()) << 136)
            | (bit_cast::<FRAME_BITS, 48>(self.engine_cycles_shown.val()) << 184);
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
            } else if self.searching.q.val() & !self.streaming.q.val() & !self.stopping.val() & self.offered.val() {
                self.responses.header.next = self.tour_frame.val()
                    | (bit_cast::<FRAME_BITS, 16>(self.engines[0].board_squares.val() + 9) << 8)
                    | (bit_cast::<FRAME_BITS, 32>(self.tour_total.q.val().get_bits::<32>(0) + 1) << 32)
                    | (bit_cast::<FRAME_BITS, 8>(self.offered_engine.val()) << 64)
                    | (bit_cast::<FRAME_BITS, 32>(self.offered_job.val()) << 72);
                self.responses.header_bytes.next = self.tour_bytes.val();
                self.responses.with_squares.next = true;
                self.streaming.d.next = true;
                self.stream_owner.d.next = self.served.val();
                self.tour_total.d.next = self.tour_total.q.val() + 1;
            } else if self.progress_due.q.val() {
                self.responses.header.next = (self.progress_frame.val() | self.counters.val()).replace_bit(32, true);
                self.progress_due.d.next = false;
            } else if self.searching.q.val() & self.settled.val() {
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

        if self.searching.q.val()
            & self.running_sum.val().any()
            & !(self.cycle_total.q.val() & self.progress_mask.val()).any()
            & self.cycle_total.q.val().any()
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
        if (self.width.val() == 0)
            | (self.height.val() == 0)
            | (self.flags.val() > 15)
            | (self.flags.val().get_bit(1) & !self.has_warnsdorff.val())
            | (self.split.val() >= self.split_limit.val())
        {
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
                    // Split level 0: engine 0 alone searches the whole tree;
                    // otherwise the first `use_engines` (0: all) share it.
                    for i in 0..self.engines.len() {
                        self.engines[i].start.next = self.engine_one_hot[i].val().get_bit(0)
                            | (self.split.val().any()
                                & (!self.use_engines.val().any()
                                    | (self.engine_number[i].val() < self.use_engines.val())));
                    }
                    self.searching.d.next = true;
                    self.abort_requested.d.next = false;
                    self.count_run.d.next = self.flags.val().get_bit(2);
                    self.limited.d.next = self.limit.val().any();
                    self.tour_limit.d.next = self.limit.val();
                    self.queue_head.d.next = 0.into();
                    self.queue_tail.d.next = 0.into();
                    self.queue_count.d.next = 0.into();
                    self.granted.d.next = 0.into();
                    self.granted_before.d.next = 0.into();
                    self.push_valid.d.next = false;
                    self.serve.d.next = 1.into();
                    self.serve_last.d.next = self.last_engine.val();
                    if self.use_engines.val().any() & (self.use_engines.val() < self.engine_count.val()) {
                        self.serve_last.d.next = bits::<32>(1) << (self.use_engines.val() - 1);
                    }
                    self.streaming.d.next = false;
                    self.tour_total.d.next = 0.into();
                    self.node_total.d.next = 0.into();
                    self.cycle_total.d.next = 0.into();
                    self.engine_cycle_total.d.next = 0.into();
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
