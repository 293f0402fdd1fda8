//! The backtracking engine: one search node per clock.
//!
//! Same search as the host's reference (`knights::search`), in hardware form:
//!
//! - The current square is one-hot, so its free neighbours are eight masked
//!   constant shifts ANDed with the free-square vector: no muxes.
//! - Each stack level keeps the moves it has not tried yet (8 bits), its
//!   square (for streaming tours out), the visited squares as it was left,
//!   and the next level down that has untried moves (all in RAM).
//! - Backtracking from a dead end pops straight to the deepest level with an
//!   untried move (the *resume level*, cached in registers with its visited
//!   squares) and enters that move in the same clock: the visited squares
//!   become the resume level's, which frees every deeper square at once. So
//!   every clock of a search enters one node.
//! - When the resume level runs out of moves, the next one down is the one
//!   it links to; its entry, read from RAM every clock, serves the next.
//! - Dead-end pruning judges all eight children of the current square in
//!   its clock, from counts over the whole board (the host's
//!   `Searcher::dead_end`, the same rule). In count mode the dead children
//!   are counted without being entered, so a clock can count up to nine
//!   nodes; in first-K mode they are entered (a clock each), which keeps the
//!   node count in the reference's order at every tour.
//!
//! A tour in first-K mode pauses the search and streams its squares with a
//! valid/ready handshake: back-pressure stalls the search, nothing is dropped.

use rust_hdl::prelude::*;

use crate::geometry::Geometry;
use crate::protocol::MAX_SPLIT_LEVEL;

/// Bits of a job's path: the move (its canonical index, 3 bits) that
/// entered each level above the job level, bit-sliced: bit `b` of the move
/// from level `k` is bit `16 * b + k`, so that a level's move is read, and
/// two paths compared, with a few wide gates instead of a mux per level.
pub const JOB_PATH_BITS: usize = 3 * MAX_SPLIT_LEVEL as usize;
// The slices are 16 bits wide in the logic below.
const _: () = assert!(MAX_SPLIT_LEVEL == 16);

/// How a search ended (the accelerator's DONE status): the requested number
/// of tours was found.
pub const STATUS_FOUND: u64 = 1;
/// The whole tree was searched.
pub const STATUS_EXHAUSTED: u64 = 2;
/// The search was cancelled.
pub const STATUS_ABORTED: u64 = 3;

/// An engine's part in sharing a search (see [`Engine::split_level`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum JobRole {
    /// Walks the levels above the jobs and queues them (one engine must): it
    /// counts the nodes up there, searches a job itself when the queue has
    /// no room for it, and takes jobs from the queue once its walk is done.
    Walker,
    /// Takes jobs from the queue; the walking logic is left out.
    Worker,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum EngineState {
    Idle,
    Setup,
    Root,
    Load,
    Next,
    Rejoin,
    Replay,
    Run,
    Emit,
    Done,
}

/// A search engine for boards up to `SQ` squares; `LB` bits number a square
/// or a level (`2^LB >= SQ`).
#[derive(LogicBlock)]
pub struct Engine<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// Starts a search with the inputs below (while idle or done).
    pub start: Signal<In, bool>,
    /// Aborts a running search. Hold it until the engine is no longer
    /// `busy`: a tour being streamed is finished first.
    pub cancel: Signal<In, bool>,
    /// Board files, 1 to the build's maximum width.
    pub width: Signal<In, Bits<8>>,
    /// Board ranks, 1 to the build's maximum height.
    pub height: Signal<In, Bits<8>>,
    /// Start square as `rank * max_width + file`.
    pub start_square: Signal<In, Bits<LB>>,
    /// Count only closed tours.
    pub closed: Signal<In, bool>,
    /// Warnsdorff move order (fewest onward moves first, ties by canonical
    /// index) instead of the canonical order.
    pub warnsdorff: Signal<In, bool>,
    /// Dead-end pruning: a node whose path can no longer become a tour is
    /// not expanded (the host's `Searcher::dead_end`, the same rule).
    pub prune: Signal<In, bool>,
    /// Count every tour (no streaming) instead of streaming the first `limit`.
    pub count_all: Signal<In, bool>,
    /// Tours to stream before stopping, in first-K mode (0: every tour);
    /// read as tours are found, so hold it while the search runs. (Ignored
    /// by [`Engine::for_accelerator`]: the accelerator counts tours itself.)
    pub limit: Signal<In, Bits<48>>,
    /// Squares of a fixed starting path after the start square (a prefix
    /// job); 0 searches from the start square alone. The search then covers
    /// only the paths that begin with this prefix.
    pub prefix_length: Signal<In, Bits<LB>>,
    /// The next prefix square, taken when both valid and ready are high.
    pub prefix_square: Signal<In, Bits<LB>>,
    pub prefix_valid: Signal<In, bool>,
    pub prefix_ready: Signal<Out, bool>,
    /// Work splitting among engines; 0 turns it off (this engine searches
    /// the whole tree). The nodes at this level are *jobs*, numbered in search
    /// order. One engine, the *walker*, walks the levels above it and hands
    /// out each job as the path of moves that leads to it; the others replay
    /// such a path and search the job's subtree. (Not combined with a prefix.)
    pub split_level: Signal<In, Bits<LB>>,
    /// The queue takes a job from the walker (registered here first: the
    /// queue lies across the chip, so the walker reads it a clock late).
    pub job_space: Signal<In, bool>,
    /// The walker found a job in the clock before: its path and number.
    pub job_found: Signal<Out, bool>,
    pub found_path: Signal<Out, Bits<JOB_PATH_BITS>>,
    pub found_number: Signal<Out, Bits<32>>,
    /// The walker is still walking: more jobs may come.
    pub walking: Signal<Out, bool>,
    /// Wants a job; takes `job_path` and `job_number` while `job_grant`
    /// (which comes a clock or more after the request).
    pub job_request: Signal<Out, bool>,
    pub job_grant: Signal<In, bool>,
    pub job_path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub job_number: Signal<In, Bits<32>>,
    /// No job is left in the queue and none can come: a waiting engine stops.
    pub jobs_over: Signal<In, bool>,
    /// The job being searched: the tag of the tours it streams.
    pub job: Signal<Out, Bits<32>>,
    /// Nodes counted in the clock before (up to nine: the node entered and,
    /// in count mode, the dead children judged without entering them), and
    /// a tour counted in count mode: several engines' totals are summed from
    /// these. (Registered, so that no output depends on an input in the same
    /// clock.)
    pub node_counted: Signal<Out, Bits<16>>,
    pub tour_counted: Signal<Out, bool>,
    /// Square of the tour being streamed, from the start square on.
    pub tour_square: Signal<Out, Bits<LB>>,
    pub tour_valid: Signal<Out, bool>,
    /// Marks the tour's last square.
    pub tour_last: Signal<Out, bool>,
    pub tour_ready: Signal<In, bool>,
    /// A search is in progress.
    pub busy: Signal<Out, bool>,
    /// The search is paused while a tour is streamed out.
    pub streaming: Signal<Out, bool>,
    /// Squares on the board: the length of a tour (valid once running).
    pub board_squares: Signal<Out, Bits<16>>,

    // Build-time constants (see `Geometry`).
    legal: [Constant<Bits<SQ>>; 8],
    shift_up: [Constant<Bits<16>>; 8],
    shift_down: [Constant<Bits<16>>; 8],
    delta: [Constant<Bits<LB>>; 8],
    degree_shift: [Constant<Bits<8>>; 8],
    move_index: [Constant<Bits<32>>; 8],
    smear_shift: [Constant<Bits<16>>; LB],
    row_stride: Constant<Bits<16>>,
    // A standalone engine takes prefix jobs and stops itself at `limit`
    // tours. The accelerator's engines share work by a job queue and the
    // accelerator counts tours, so this constant drops that logic (an engine
    // synthesised as its own module keeps logic its tied-off inputs would
    // otherwise fold away).
    standalone: Constant<bool>,
    // Warnsdorff's order is built in. A build can leave it out (about an
    // eighth of an engine's logic) to fit more engines.
    has_warnsdorff: Constant<bool>,
    // The squares of rank 0.
    first_rank: Constant<Bits<SQ>>,
    walker: Constant<bool>,
    // The moves whose index has bit b set.
    code_bit_moves: [Constant<Bits<8>>; 3],
    // The path slots (levels) whose number has bit b set.
    slot_bit: [Constant<Bits<16>>; 4],

    // The request, latched at start.
    state: DFF<EngineState>,
    board_width: DFF<Bits<8>>,
    board_height: DFF<Bits<8>>,
    start_index: DFF<Bits<LB>>,
    want_closed: DFF<bool>,
    use_warnsdorff: DFF<bool>,
    use_prune: DFF<bool>,
    count_mode: DFF<bool>,
    prefix_left: DFF<Bits<LB>>,
    // Work splitting: the job level; whether this engine walks the levels
    // above it; the job it searches and the one it holds next.
    split_depth: DFF<Bits<LB>>,
    splitting: DFF<bool>,
    walking_top: DFF<bool>,
    jobs_found: DFF<Bits<32>>,
    found_pulse: DFF<bool>,
    job_entered: DFF<bool>,
    queue_room: DFF<bool>,
    // The walker's path of moves, or a worker's job's path (the next job's
    // from its grant on: it is read only to replay a job); whether the next
    // job is held, its number, and the level where its path departs from the
    // last one's (found as it is granted); whether this engine's stack holds
    // its job's path (then the next job starts from that level).
    path: DFF<Bits<JOB_PATH_BITS>>,
    job_held: DFF<bool>,
    held_number: DFF<Bits<32>>,
    rejoin_at: DFF<Bits<LB>>,
    rejoin_ok: DFF<bool>,
    owns_job: DFF<bool>,
    current_job: DFF<Bits<32>>,
    // The held job's rejoin level is cached as the resume level (the job
    // being searched has none left), so the step that ends this job pops
    // into the next one as a backtrack does; and the clock after that pop.
    rejoin_pending: DFF<bool>,
    rejoin_started: DFF<bool>,
    node_pulse: DFF<Bits<4>>,
    tour_pulse: DFF<bool>,
    // Setup: the runtime board as a square mask, one rank per clock.
    board: DFF<Bits<SQ>>,
    setup_rank: DFF<Bits<8>>,
    area: DFF<Bits<16>>,
    last_level: DFF<Bits<LB>>,
    closing_squares: DFF<Bits<SQ>>,
    // The search.
    current: DFF<Bits<SQ>>,
    current_index: DFF<Bits<LB>>,
    // The current node is a dead end (judged when it was chosen).
    entered_dead: DFF<bool>,
    depth: DFF<Bits<LB>>,
    visited: DFF<Bits<SQ>>,
    // The resume level's stack entry, cached: its visited squares, the next
    // level down with untried moves (if any), its moves left, and so on.
    resume_visited: DFF<Bits<SQ>>,
    resume_below: DFF<Bits<LB>>,
    resume_below_valid: DFF<bool>,
    resume_valid: DFF<bool>,
    resume_level: DFF<Bits<LB>>,
    resume_moves: DFF<Bits<8>>,
    resume_index: DFF<Bits<LB>>,
    resume_degrees: DFF<Bits<32>>,
    resume_doomed: DFF<Bits<8>>,
    refill: DFF<bool>,
    reported: DFF<bool>,
    emit_level: DFF<Bits<LB>>,
    emit_wait: DFF<bool>,
    tour_count: DFF<Bits<48>>,
    moves_ram: RAM<Bits<8>, LB>,
    squares_ram: RAM<Bits<LB>, LB>,
    degrees_ram: RAM<Bits<32>, LB>,
    doomed_ram: RAM<Bits<8>, LB>,
    visited_ram: RAM<Bits<SQ>, LB>,
    // The link and whether there is one, apart (a `Bits<{ LB + 1 }>` word
    // would need generic const arithmetic).
    below_ram: RAM<Bits<LB>, LB>,
    below_valid_ram: RAM<Bits<1>, LB>,

    // Combinational values.
    start_one_hot: Signal<Local, Bits<SQ>>,
    prefix_one_hot: Signal<Local, Bits<SQ>>,
    start_reach: [Signal<Local, Bits<SQ>>; 8],
    free: Signal<Local, Bits<SQ>>,
    targets: [Signal<Local, Bits<SQ>>; 8],
    moves_chain: [Signal<Local, Bits<8>>; 8],
    moves: Signal<Local, Bits<8>>,
    offered: Signal<Local, Bits<8>>,
    onward: [Signal<Local, Bits<SQ>>; 8],
    pair_sum: [Signal<Local, Bits<SQ>>; 4],
    pair_carry: [Signal<Local, Bits<SQ>>; 4],
    quad_carry0: [Signal<Local, Bits<SQ>>; 2],
    quad_sum0: [Signal<Local, Bits<SQ>>; 2],
    quad_sum1: [Signal<Local, Bits<SQ>>; 2],
    quad_sum2: [Signal<Local, Bits<SQ>>; 2],
    total_carry0: Signal<Local, Bits<SQ>>,
    total_carry1: Signal<Local, Bits<SQ>>,
    onward_count: [Signal<Local, Bits<SQ>>; 4],
    target_ways: [Signal<Local, Bits<32>>; 8],
    degree: [Signal<Local, Bits<32>>; 8],
    packed_chain: [Signal<Local, Bits<32>>; 8],
    front_key: [Signal<Local, Bits<32>>; 8],
    front_ranks_before: [Signal<Local, Bits<8>>; 8],
    front_beaten: Signal<Local, Bits<8>>,
    first: Signal<Local, Bits<8>>,
    rest: Signal<Local, Bits<8>>,
    child: Signal<Local, Bits<SQ>>,
    child_index: Signal<Local, Bits<LB>>,
    at_tour: Signal<Local, bool>,
    half_none: [Signal<Local, Bits<SQ>>; 2],
    half_one: [Signal<Local, Bits<SQ>>; 2],
    no_onward: Signal<Local, Bits<SQ>>,
    one_onward: Signal<Local, Bits<SQ>>,
    blocked: Signal<Local, Bits<SQ>>,
    ends: Signal<Local, Bits<SQ>>,
    blocked_any: [Signal<Local, Bits<SQ>>; LB],
    blocked_two: [Signal<Local, Bits<SQ>>; LB],
    ends_low: [Signal<Local, Bits<SQ>>; LB],
    ends_high: [Signal<Local, Bits<SQ>>; LB],
    some_blocked: Signal<Local, bool>,
    two_blocked: Signal<Local, bool>,
    some_ends: Signal<Local, bool>,
    two_ends: Signal<Local, bool>,
    three_ends: Signal<Local, bool>,
    free_two: Signal<Local, bool>,
    probe: Signal<Local, Bits<SQ>>,
    lane_bit_blocked: [Signal<Local, bool>; 8],
    lane_bit_ends: [Signal<Local, bool>; 8],
    lane_blocked_chain: [Signal<Local, Bits<16>>; 8],
    lane_ends_chain: [Signal<Local, Bits<16>>; 8],
    lane_blocked: Signal<Local, Bits<16>>,
    lane_ends: Signal<Local, Bits<16>>,
    lane_dead_blocked: Signal<Local, Bits<16>>,
    lane_dead_ends: Signal<Local, Bits<16>>,
    lane_dead: Signal<Local, Bits<16>>,
    doomed: Signal<Local, Bits<8>>,
    probe_dead: Signal<Local, bool>,
    tried: Signal<Local, Bits<8>>,
    dead: Signal<Local, bool>,
    expand: Signal<Local, bool>,
    back_moves: Signal<Local, Bits<8>>,
    back_index: Signal<Local, Bits<LB>>,
    back_degrees: Signal<Local, Bits<32>>,
    back_doomed: Signal<Local, Bits<8>>,
    back_key: [Signal<Local, Bits<32>>; 8],
    back_ranks_before: [Signal<Local, Bits<8>>; 8],
    back_beaten: Signal<Local, Bits<8>>,
    back_square: Signal<Local, Bits<SQ>>,
    back_first: Signal<Local, Bits<8>>,
    back_rest: Signal<Local, Bits<8>>,
    back_child: Signal<Local, Bits<SQ>>,
    back_child_index: Signal<Local, Bits<LB>>,
    back_visited: Signal<Local, Bits<SQ>>,
    back_below: Signal<Local, Bits<LB>>,
    back_below_valid: Signal<Local, bool>,
    entering: Signal<Local, bool>,
    entered_vs_split: Signal<Local, Bits<2>>,
    push_vs_split: Signal<Local, Bits<2>>,
    back_vs_split: Signal<Local, Bits<2>>,
    skip_job: Signal<Local, bool>,
    entering_job: Signal<Local, bool>,
    replay_level: Signal<Local, Bits<LB>>,
    replay_slice: [Signal<Local, Bits<16>>; 3],
    replay_code: Signal<Local, Bits<3>>,
    replay_move: Signal<Local, Bits<8>>,
    path_diff: Signal<Local, Bits<JOB_PATH_BITS>>,
    slots_same: Signal<Local, Bits<16>>,
    first_differing: Signal<Local, Bits<16>>,
    rejoin_level: Signal<Local, Bits<LB>>,
    entered_move: Signal<Local, Bits<8>>,
    entered_slot: Signal<Local, Bits<16>>,
    slot_mask: Signal<Local, Bits<JOB_PATH_BITS>>,
    code_slice: [Signal<Local, Bits<16>>; 3],
    entered_code: Signal<Local, Bits<JOB_PATH_BITS>>,
    rejoin_job: Signal<Local, bool>,
    fresh_job: Signal<Local, bool>,
    to_start: Signal<Local, bool>,
    descending: Signal<Local, bool>,
    popping: Signal<Local, bool>,
    counted: Signal<Local, bool>,
    children_judged: Signal<Local, bool>,
    doomed_tally: [Signal<Local, Bits<4>>; 8],
    judged: Signal<Local, Bits<4>>,
    node_step: Signal<Local, Bits<4>>,
}

impl<const SQ: usize, const LB: usize> Engine<SQ, LB> {
    /// An engine for boards up to `max_width` × `max_height`, with its
    /// prefix port. (Given a split level with `job_space` low, it searches
    /// every job itself.)
    pub fn new(max_width: usize, max_height: usize) -> Self {
        Self::build(max_width, max_height, true, true, JobRole::Walker)
    }

    /// As [`Engine::new`], with the prefix port and `limit` ignored: the
    /// logic the accelerator's engines need (they take jobs from a queue, and
    /// the accelerator counts the tours sent). Without `warnsdorff` the
    /// engine searches in the fixed order whatever its `warnsdorff` input.
    /// The role is built in, as the accelerator's engines are synthesised
    /// one module at a time, where a tied-off input would not fold away.
    pub fn for_accelerator(max_width: usize, max_height: usize, warnsdorff: bool, role: JobRole) -> Self {
        Self::build(max_width, max_height, false, warnsdorff, role)
    }

    fn build(max_width: usize, max_height: usize, standalone: bool, warnsdorff: bool, role: JobRole) -> Self {
        let geometry = Geometry::new(max_width, max_height);
        assert_eq!(geometry.squares(), SQ, "SQ must be max_width * max_height");
        assert!(LB >= 2 && SQ <= 1 << LB, "LB bits must number SQ squares (and at least 2)");
        assert!(max_width <= 255 && max_height <= 255 && SQ <= 4096);
        let mask = |bits: Vec<bool>| {
            let mut value = Bits::<SQ>::default();
            for (i, bit) in bits.into_iter().enumerate() {
                value = value.replace_bit(i, bit);
            }
            Constant::new(value)
        };
        let shift = |amount: i64| Constant::new((amount.unsigned_abs()).into());
        Engine {
            clock: Default::default(),
            start: Default::default(),
            cancel: Default::default(),
            width: Default::default(),
            height: Default::default(),
            start_square: Default::default(),
            closed: Default::default(),
            warnsdorff: Default::default(),
            prune: Default::default(),
            count_all: Default::default(),
            limit: Default::default(),
            prefix_length: Default::default(),
            prefix_square: Default::default(),
            prefix_valid: Default::default(),
            prefix_ready: Default::default(),
            split_level: Default::default(),
            job_space: Default::default(),
            job_found: Default::default(),
            found_path: Default::default(),
            found_number: Default::default(),
            walking: Default::default(),
            job_request: Default::default(),
            job_grant: Default::default(),
            job_path: Default::default(),
            job_number: Default::default(),
            jobs_over: Default::default(),
            job: Default::default(),
            node_counted: Default::default(),
            tour_counted: Default::default(),
            tour_square: Default::default(),
            tour_valid: Default::default(),
            tour_last: Default::default(),
            tour_ready: Default::default(),
            busy: Default::default(),
            streaming: Default::default(),
            board_squares: Default::default(),
            legal: std::array::from_fn(|m| mask(geometry.legal_sources(m))),
            shift_up: std::array::from_fn(|m| shift(geometry.offset(m).max(0))),
            shift_down: std::array::from_fn(|m| shift(geometry.offset(m).min(0))),
            delta: std::array::from_fn(|m| Constant::new(geometry.offset_modulo(m, LB).into())),
            degree_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            move_index: std::array::from_fn(|m| Constant::new((m as u64).into())),
            smear_shift: std::array::from_fn(|k| Constant::new((1u64 << k).into())),
            standalone: Constant::new(standalone),
            has_warnsdorff: Constant::new(warnsdorff),
            row_stride: Constant::new((max_width as u64).into()),
            first_rank: mask((0..SQ).map(|i| i < max_width).collect()),
            walker: Constant::new(role == JobRole::Walker),
            code_bit_moves: std::array::from_fn(|b| {
                Constant::new(((0..8u64).filter(|m| m >> b & 1 == 1).map(|m| 1 << m).sum::<u64>()).into())
            }),
            slot_bit: std::array::from_fn(|b| {
                Constant::new(((0..16u64).filter(|k| k >> b & 1 == 1).map(|k| 1 << k).sum::<u64>()).into())
            }),
            state: Default::default(),
            board_width: Default::default(),
            board_height: Default::default(),
            start_index: Default::default(),
            want_closed: Default::default(),
            use_warnsdorff: Default::default(),
            use_prune: Default::default(),
            count_mode: Default::default(),
            prefix_left: Default::default(),
            split_depth: Default::default(),
            splitting: Default::default(),
            walking_top: Default::default(),
            jobs_found: Default::default(),
            found_pulse: Default::default(),
            job_entered: Default::default(),
            queue_room: Default::default(),
            path: Default::default(),
            job_held: Default::default(),
            held_number: Default::default(),
            rejoin_at: Default::default(),
            rejoin_ok: Default::default(),
            owns_job: Default::default(),
            current_job: Default::default(),
            rejoin_pending: Default::default(),
            rejoin_started: Default::default(),
            node_pulse: Default::default(),
            tour_pulse: Default::default(),
            board: Default::default(),
            setup_rank: Default::default(),
            area: Default::default(),
            last_level: Default::default(),
            closing_squares: Default::default(),
            current: Default::default(),
            current_index: Default::default(),
            entered_dead: Default::default(),
            depth: Default::default(),
            visited: Default::default(),
            resume_visited: Default::default(),
            resume_below: Default::default(),
            resume_below_valid: Default::default(),
            resume_valid: Default::default(),
            resume_level: Default::default(),
            resume_moves: Default::default(),
            resume_index: Default::default(),
            resume_degrees: Default::default(),
            resume_doomed: Default::default(),
            refill: Default::default(),
            reported: Default::default(),
            emit_level: Default::default(),
            emit_wait: Default::default(),
            tour_count: Default::default(),
            moves_ram: Default::default(),
            squares_ram: Default::default(),
            degrees_ram: Default::default(),
            doomed_ram: Default::default(),
            visited_ram: Default::default(),
            below_ram: Default::default(),
            below_valid_ram: Default::default(),
            start_one_hot: Default::default(),
            prefix_one_hot: Default::default(),
            start_reach: Default::default(),
            free: Default::default(),
            targets: Default::default(),
            moves_chain: Default::default(),
            moves: Default::default(),
            offered: Default::default(),
            onward: Default::default(),
            pair_sum: Default::default(),
            pair_carry: Default::default(),
            quad_carry0: Default::default(),
            quad_sum0: Default::default(),
            quad_sum1: Default::default(),
            quad_sum2: Default::default(),
            total_carry0: Default::default(),
            total_carry1: Default::default(),
            onward_count: Default::default(),
            target_ways: Default::default(),
            degree: Default::default(),
            packed_chain: Default::default(),
            front_key: Default::default(),
            front_ranks_before: Default::default(),
            front_beaten: Default::default(),
            first: Default::default(),
            rest: Default::default(),
            child: Default::default(),
            child_index: Default::default(),
            at_tour: Default::default(),
            half_none: Default::default(),
            half_one: Default::default(),
            no_onward: Default::default(),
            one_onward: Default::default(),
            blocked: Default::default(),
            ends: Default::default(),
            blocked_any: std::array::from_fn(|_| Default::default()),
            blocked_two: std::array::from_fn(|_| Default::default()),
            ends_low: std::array::from_fn(|_| Default::default()),
            ends_high: std::array::from_fn(|_| Default::default()),
            some_blocked: Default::default(),
            two_blocked: Default::default(),
            some_ends: Default::default(),
            two_ends: Default::default(),
            three_ends: Default::default(),
            free_two: Default::default(),
            probe: Default::default(),
            lane_bit_blocked: Default::default(),
            lane_bit_ends: Default::default(),
            lane_blocked_chain: Default::default(),
            lane_ends_chain: Default::default(),
            lane_blocked: Default::default(),
            lane_ends: Default::default(),
            lane_dead_blocked: Default::default(),
            lane_dead_ends: Default::default(),
            lane_dead: Default::default(),
            doomed: Default::default(),
            probe_dead: Default::default(),
            tried: Default::default(),
            dead: Default::default(),
            expand: Default::default(),
            back_moves: Default::default(),
            back_index: Default::default(),
            back_degrees: Default::default(),
            back_doomed: Default::default(),
            back_key: Default::default(),
            back_ranks_before: Default::default(),
            back_beaten: Default::default(),
            back_square: Default::default(),
            back_first: Default::default(),
            back_rest: Default::default(),
            back_child: Default::default(),
            back_child_index: Default::default(),
            back_visited: Default::default(),
            back_below: Default::default(),
            back_below_valid: Default::default(),
            entering: Default::default(),
            entered_vs_split: Default::default(),
            push_vs_split: Default::default(),
            back_vs_split: Default::default(),
            skip_job: Default::default(),
            entering_job: Default::default(),
            replay_level: Default::default(),
            replay_slice: Default::default(),
            replay_code: Default::default(),
            replay_move: Default::default(),
            path_diff: Default::default(),
            slots_same: Default::default(),
            first_differing: Default::default(),
            rejoin_level: Default::default(),
            entered_move: Default::default(),
            entered_slot: Default::default(),
            slot_mask: Default::default(),
            code_slice: Default::default(),
            entered_code: Default::default(),
            rejoin_job: Default::default(),
            fresh_job: Default::default(),
            to_start: Default::default(),
            descending: Default::default(),
            popping: Default::default(),
            counted: Default::default(),
            children_judged: Default::default(),
            doomed_tally: Default::default(),
            judged: Default::default(),
            node_step: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Engine<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            board_width,
            board_height,
            start_index,
            want_closed,
            use_warnsdorff,
            use_prune,
            count_mode,
            prefix_left,
            split_depth,
            splitting,
            walking_top,
            jobs_found,
            found_pulse,
            job_entered,
            queue_room,
            path,
            job_held,
            held_number,
            rejoin_at,
            rejoin_ok,
            owns_job,
            current_job,
            rejoin_pending,
            rejoin_started,
            node_pulse,
            tour_pulse,
            board,
            setup_rank,
            area,
            last_level,
            closing_squares,
            current,
            current_index,
            entered_dead,
            depth,
            visited,
            resume_valid,
            resume_level,
            resume_moves,
            resume_index,
            resume_degrees,
            resume_doomed,
            resume_visited,
            resume_below,
            resume_below_valid,
            refill,
            reported,
            emit_level,
            emit_wait,
            tour_count
        );
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

        self.start_one_hot.next = bits::<SQ>(1) << self.start_index.q.val();
        self.prefix_one_hot.next = 0.into();
        if self.standalone.val() {
            self.prefix_one_hot.next = bits::<SQ>(1) << self.prefix_square.val();
        }

        // The free neighbours of the current square, in canonical move order.
        self.free.next = self.board.q.val() & !self.visited.q.val();
        for m in 0..8 {
            self.targets[m].next =
                ((self.current.q.val() & self.legal[m].val()) << self.shift_up[m].val()) >> self.shift_down[m].val();
        }
        self.moves_chain[0].next = bits::<8>(0).replace_bit(0, (self.targets[0].val() & self.free.val()).any());
        for m in 1..8 {
            self.moves_chain[m].next =
                self.moves_chain[m - 1].val().replace_bit(m, (self.targets[m].val() & self.free.val()).any());
        }
        self.moves.next = self.moves_chain[7].val();

        // Onward moves of every square at once (Warnsdorff's degree): the
        // free squares one knight move away, summed bit-sliced over the
        // eight moves into four bit-planes.
        for k in 0..8 {
            self.onward[k].next =
                ((self.free.val() >> self.shift_up[k].val()) << self.shift_down[k].val()) & self.legal[k].val();
        }
        // Summed as a tree (pairs, quads, all eight) so the count is three
        // adder stages deep, not seven.
        for p in 0..4 {
            self.pair_sum[p].next = self.onward[2 * p].val() ^ self.onward[2 * p + 1].val();
            self.pair_carry[p].next = self.onward[2 * p].val() & self.onward[2 * p + 1].val();
        }
        for q in 0..2 {
            self.quad_sum0[q].next = self.pair_sum[2 * q].val() ^ self.pair_sum[2 * q + 1].val();
            self.quad_carry0[q].next = self.pair_sum[2 * q].val() & self.pair_sum[2 * q + 1].val();
            self.quad_sum1[q].next =
                self.pair_carry[2 * q].val() ^ self.pair_carry[2 * q + 1].val() ^ self.quad_carry0[q].val();
            self.quad_sum2[q].next = (self.pair_carry[2 * q].val() & self.pair_carry[2 * q + 1].val())
                | (self.quad_carry0[q].val() & (self.pair_carry[2 * q].val() | self.pair_carry[2 * q + 1].val()));
        }
        self.onward_count[0].next = self.quad_sum0[0].val() ^ self.quad_sum0[1].val();
        self.total_carry0.next = self.quad_sum0[0].val() & self.quad_sum0[1].val();
        self.onward_count[1].next = self.quad_sum1[0].val() ^ self.quad_sum1[1].val() ^ self.total_carry0.val();
        self.total_carry1.next = (self.quad_sum1[0].val() & self.quad_sum1[1].val())
            | (self.total_carry0.val() & (self.quad_sum1[0].val() | self.quad_sum1[1].val()));
        self.onward_count[2].next = self.quad_sum2[0].val() ^ self.quad_sum2[1].val() ^ self.total_carry1.val();
        self.onward_count[3].next = (self.quad_sum2[0].val() & self.quad_sum2[1].val())
            | (self.total_carry1.val() & (self.quad_sum2[0].val() | self.quad_sum2[1].val()));
        // Each move's target square's onward count: its Warnsdorff degree,
        // and what pruning needs to know of it.
        for m in 0..8 {
            self.target_ways[m].next = bits::<32>(0)
                .replace_bit(0, (self.targets[m].val() & self.onward_count[0].val()).any())
                .replace_bit(1, (self.targets[m].val() & self.onward_count[1].val()).any())
                .replace_bit(2, (self.targets[m].val() & self.onward_count[2].val()).any())
                .replace_bit(3, (self.targets[m].val() & self.onward_count[3].val()).any());
            self.degree[m].next = 0.into();
            if self.has_warnsdorff.val() & self.use_warnsdorff.q.val() {
                self.degree[m].next = self.target_ways[m].val();
            }
        }
        // Packed four bits per move, as the stack RAM keeps them. Degrees are
        // kept 32 bits wide (four used) so that packing needs no casts.
        self.packed_chain[0].next = self.degree[0].val();
        for m in 1..8 {
            self.packed_chain[m].next =
                self.packed_chain[m - 1].val() | (self.degree[m].val() << self.degree_shift[m].val());
        }

        // Dead-end pruning of all eight children at once, before any is
        // entered (the host's `Searcher::dead_end`, the same rule). Entering
        // a child c, a free square's ways in become its onward count here: it
        // loses c as a free neighbour and gains c as the current square. So:
        //  - open: c is dead when a free square other than c has no way in,
        //    or two have one (both would have to be last);
        //  - closed (a knight move to the start is one more way): when a free
        //    square other than c has at most one way, or no free square but c
        //    closes the tour, with any square left after c.
        // `blocked` holds the free squares of the first rule, `ends` those of
        // the second (open: one way in; closed: closing).
        // No onward move, or one. Builds with Warnsdorff's order read it off
        // the count they make anyway; the others take it from the eight
        // moves directly, as two halves of four (a LUT each): two LUT levels
        // instead of the count's adder tree, on the step's longest path.
        for h in 0..2 {
            self.half_none[h].next = !(self.onward[4 * h].val()
                | self.onward[4 * h + 1].val()
                | self.onward[4 * h + 2].val()
                | self.onward[4 * h + 3].val());
            self.half_one[h].next = ((self.onward[4 * h].val() ^ self.onward[4 * h + 1].val())
                & !(self.onward[4 * h + 2].val() | self.onward[4 * h + 3].val()))
                | ((self.onward[4 * h + 2].val() ^ self.onward[4 * h + 3].val())
                    & !(self.onward[4 * h].val() | self.onward[4 * h + 1].val()));
        }
        if self.has_warnsdorff.val() {
            self.no_onward.next = !(self.onward_count[0].val()
                | self.onward_count[1].val()
                | self.onward_count[2].val()
                | self.onward_count[3].val());
            self.one_onward.next = self.onward_count[0].val()
                & !(self.onward_count[1].val() | self.onward_count[2].val() | self.onward_count[3].val());
        } else {
            self.no_onward.next = self.half_none[0].val() & self.half_none[1].val();
            self.one_onward.next =
                (self.half_one[0].val() & self.half_none[1].val()) | (self.half_none[0].val() & self.half_one[1].val());
        }
        if self.want_closed.q.val() {
            self.blocked.next =
                self.free.val() & (self.no_onward.val() | (self.one_onward.val() & !self.closing_squares.q.val()));
            self.ends.next = self.free.val() & self.closing_squares.q.val();
        } else {
            self.blocked.next = self.free.val() & self.no_onward.val();
            self.ends.next = self.free.val() & self.one_onward.val();
        }
        // How many of each (up to two blocked, three ends), by trees: after
        // step k, bit i counts squares i .. i + 2^(k+1). Blocked squares as
        // any / two; ends as a 2-bit count that stops at three (each step's
        // bit is a function of four bits: one LUT level).
        self.blocked_any[0].next = self.blocked.val() | (self.blocked.val() >> self.smear_shift[0].val());
        self.blocked_two[0].next = self.blocked.val() & (self.blocked.val() >> self.smear_shift[0].val());
        self.ends_low[0].next = self.ends.val() ^ (self.ends.val() >> self.smear_shift[0].val());
        self.ends_high[0].next = self.ends.val() & (self.ends.val() >> self.smear_shift[0].val());
        for k in 1..LB {
            self.blocked_any[k].next =
                self.blocked_any[k - 1].val() | (self.blocked_any[k - 1].val() >> self.smear_shift[k].val());
            self.blocked_two[k].next = self.blocked_two[k - 1].val()
                | (self.blocked_two[k - 1].val() >> self.smear_shift[k].val())
                | (self.blocked_any[k - 1].val() & (self.blocked_any[k - 1].val() >> self.smear_shift[k].val()));
            // (low, high) + (low', high'), stopping at 3.
            self.ends_low[k].next = (self.ends_low[k - 1].val()
                ^ (self.ends_low[k - 1].val() >> self.smear_shift[k].val()))
                | (self.ends_high[k - 1].val()
                    & ((self.ends_low[k - 1].val() | self.ends_high[k - 1].val()) >> self.smear_shift[k].val()))
                | (self.ends_low[k - 1].val() & (self.ends_high[k - 1].val() >> self.smear_shift[k].val()));
            self.ends_high[k].next = self.ends_high[k - 1].val()
                | (self.ends_high[k - 1].val() >> self.smear_shift[k].val())
                | (self.ends_low[k - 1].val() & (self.ends_low[k - 1].val() >> self.smear_shift[k].val()));
            self.some_blocked.next = self.blocked_any[k].val().get_bit(0);
            self.two_blocked.next = self.blocked_two[k].val().get_bit(0);
            self.some_ends.next = self.ends_low[k].val().get_bit(0) | self.ends_high[k].val().get_bit(0);
            self.two_ends.next = self.ends_high[k].val().get_bit(0);
            self.three_ends.next = self.ends_low[k].val().get_bit(0) & self.ends_high[k].val().get_bit(0);
        }
        // Squares free besides c: the visited ones are the levels 0..=depth
        // (while probing, depth is one below the probed square's level).
        self.free_two.next = (bit_cast::<16, LB>(self.depth.q.val() + 1) + 2) <= self.area.q.val();
        // The candidates, as lanes: the eight moves' targets (read off their
        // onward counts), and lane 8, the *probe*: the start square or a
        // prefix square, judged as it is entered.
        self.probe.next = self.prefix_one_hot.val();
        if self.state.q.val() == EngineState::Root {
            self.probe.next = self.start_one_hot.val();
        }
        // A free target is blocked (or an end) as the square it is: its bit
        // of `blocked` (`ends`). Builds with Warnsdorff's order read it off
        // the target's onward count, which they select anyway; the others
        // select these two bits instead of the count's four.
        for m in 0..8 {
            if self.has_warnsdorff.val() {
                self.lane_bit_blocked[m].next = !self.target_ways[m].val().any()
                    | (self.want_closed.q.val()
                        & (self.target_ways[m].val() == 1)
                        & !(self.targets[m].val() & self.closing_squares.q.val()).any());
                self.lane_bit_ends[m].next = (self.want_closed.q.val()
                    & (self.targets[m].val() & self.closing_squares.q.val()).any())
                    | (!self.want_closed.q.val() & (self.target_ways[m].val() == 1));
            } else {
                self.lane_bit_blocked[m].next = (self.targets[m].val() & self.blocked.val()).any();
                self.lane_bit_ends[m].next = (self.targets[m].val() & self.ends.val()).any();
            }
        }
        self.lane_blocked_chain[0].next = bits::<16>(0).replace_bit(0, self.lane_bit_blocked[0].val());
        self.lane_ends_chain[0].next = bits::<16>(0).replace_bit(0, self.lane_bit_ends[0].val());
        for m in 1..8 {
            self.lane_blocked_chain[m].next =
                self.lane_blocked_chain[m - 1].val().replace_bit(m, self.lane_bit_blocked[m].val());
            self.lane_ends_chain[m].next =
                self.lane_ends_chain[m - 1].val().replace_bit(m, self.lane_bit_ends[m].val());
        }
        self.lane_blocked.next =
            self.lane_blocked_chain[7].val().replace_bit(8, (self.probe.val() & self.blocked.val()).any());
        self.lane_ends.next = self.lane_ends_chain[7].val().replace_bit(8, (self.probe.val() & self.ends.val()).any());
        // Each rule, for every lane at once.
        self.lane_dead_blocked.next = 0.into();
        if self.two_blocked.val() {
            self.lane_dead_blocked.next = !bits::<16>(0);
        } else if self.some_blocked.val() {
            self.lane_dead_blocked.next = !self.lane_blocked.val();
        }
        self.lane_dead_ends.next = 0.into();
        if self.want_closed.q.val() {
            if self.free_two.val() & !self.some_ends.val() {
                self.lane_dead_ends.next = !bits::<16>(0);
            } else if self.free_two.val() & !self.two_ends.val() {
                self.lane_dead_ends.next = self.lane_ends.val();
            }
        } else if self.three_ends.val() {
            self.lane_dead_ends.next = !bits::<16>(0);
        } else if self.two_ends.val() {
            self.lane_dead_ends.next = !self.lane_ends.val();
        }
        self.lane_dead.next = 0.into();
        if self.use_prune.q.val() {
            self.lane_dead.next = self.lane_dead_blocked.val() | self.lane_dead_ends.val();
        }
        // (Of every free move, also when replaying: the stack keeps them for
        // a later job that rejoins at this level with another move.)
        self.doomed.next = self.moves.val() & bit_cast::<8, 16>(self.lane_dead.val());
        self.probe_dead.next = self.lane_dead.val().get_bit(8);
        // Replaying a job's path: the move it takes at this level (in Rejoin,
        // at the level popped to), the only one offered, so none is left to
        // try. Forced here, where the moves come in early, and not on the
        // chosen move, which is on the step's longest path.
        self.replay_level.next = self.depth.q.val();
        if (self.state.q.val() == EngineState::Rejoin) | self.rejoin_pending.q.val() {
            self.replay_level.next = self.resume_level.q.val();
        }
        self.replay_slice[0].next = self.path.q.val().get_bits::<16>(0) >> self.replay_level.val();
        self.replay_slice[1].next = self.path.q.val().get_bits::<16>(16) >> self.replay_level.val();
        self.replay_slice[2].next = self.path.q.val().get_bits::<16>(32) >> self.replay_level.val();
        self.replay_code.next = bits::<3>(0)
            .replace_bit(0, self.replay_slice[0].val().get_bit(0))
            .replace_bit(1, self.replay_slice[1].val().get_bit(0))
            .replace_bit(2, self.replay_slice[2].val().get_bit(0));
        self.replay_move.next = bits::<8>(1) << self.replay_code.val();
        self.offered.next = self.moves.val();
        if self.state.q.val() == EngineState::Replay {
            self.offered.next = self.replay_move.val();
        }
        // Count mode skips the dead children: they are counted, not entered.
        // First-K mode enters them, so that nodes are counted in the
        // reference's order; a child entered dead has no moves. (A replayed
        // move is never dead in count mode: the walker entered it.)
        self.tried.next = self.offered.val();
        if self.count_mode.q.val() {
            self.tried.next = self.offered.val() & !self.doomed.val();
        }
        self.dead.next = self.entered_dead.q.val();
        // The first move to try: the free move of least (degree, index). Each
        // move gets the key `degree * 8 + index` (all eight differ); every pair
        // of keys is compared at once and the free move that no other free move
        // ranks before wins. With the fixed order every degree is 0, so the
        // lowest free index wins. (A serial minimum over the eight moves was the
        // critical path: seven compares deep instead of one.)
        for m in 0..8 {
            self.front_key[m].next = (self.degree[m].val() << 3) | self.move_index[m].val();
        }
        for j in 0..8 {
            self.front_ranks_before[j].next = 0.into();
            if self.tried.val().get_bit(j) {
                self.front_ranks_before[j].next = bits::<8>(0)
                    .replace_bit(0, self.front_key[j].val() < self.front_key[0].val())
                    .replace_bit(1, self.front_key[j].val() < self.front_key[1].val())
                    .replace_bit(2, self.front_key[j].val() < self.front_key[2].val())
                    .replace_bit(3, self.front_key[j].val() < self.front_key[3].val())
                    .replace_bit(4, self.front_key[j].val() < self.front_key[4].val())
                    .replace_bit(5, self.front_key[j].val() < self.front_key[5].val())
                    .replace_bit(6, self.front_key[j].val() < self.front_key[6].val())
                    .replace_bit(7, self.front_key[j].val() < self.front_key[7].val());
            }
        }
        self.front_beaten.next = self.front_ranks_before[0].val()
            | self.front_ranks_before[1].val()
            | self.front_ranks_before[2].val()
            | self.front_ranks_before[3].val()
            | self.front_ranks_before[4].val()
            | self.front_ranks_before[5].val()
            | self.front_ranks_before[6].val()
            | self.front_ranks_before[7].val();
        self.first.next = self.tried.val() & !self.front_beaten.val();
        self.rest.next = self.tried.val() & !self.first.val();
        self.child.next = 0.into();
        self.child_index.next = self.current_index.q.val();
        for m in 0..8 {
            if self.first.val().get_bit(m) {
                self.child.next = self.targets[m].val();
                self.child_index.next = self.current_index.q.val() + self.delta[m].val();
            }
        }
        self.at_tour.next = (self.depth.q.val() == self.last_level.q.val())
            & (!self.want_closed.q.val() | (self.current.q.val() & self.closing_squares.q.val()).any());

        // A job handed to the queue is skipped like a dead end.
        self.skip_job.next =
            self.splitting.q.val() & (self.depth.q.val() == self.split_depth.q.val()) & !self.owns_job.q.val();
        self.expand.next = self.tried.val().any() & !self.dead.val() & !self.skip_job.val();
        // Ask for the next job once no level keeps an untried move (the job
        // is on its last branch), or while waiting for one. The current node
        // may still branch anew, so a job can arrive a little before this one
        // ends; it is held until then.
        self.job_request.next = self.splitting.q.val()
            & !self.job_held.q.val()
            & !self.walking_top.q.val()
            & ((self.state.q.val() == EngineState::Next)
                | ((self.state.q.val() == EngineState::Run)
                    & !self.resume_valid.q.val()
                    & (self.depth.q.val() != self.split_depth.q.val())));
        if self.job_grant.val() {
            self.path.d.next = self.job_path.val();
            self.held_number.d.next = self.job_number.val();
            self.job_held.d.next = true;
            // The job in hand never returns to the job level (its last branch
            // lies below it), so the next job's node there is this engine's.
            self.owns_job.d.next = true;
        }

        // The next move of the resume level (from RAM right after a refill).
        self.back_moves.next = self.resume_moves.q.val();
        self.back_index.next = self.resume_index.q.val();
        self.back_degrees.next = self.resume_degrees.q.val();
        self.back_doomed.next = self.resume_doomed.q.val();
        self.back_visited.next = self.resume_visited.q.val();
        self.back_below.next = self.resume_below.q.val();
        self.back_below_valid.next = self.resume_below_valid.q.val();
        if self.refill.q.val() {
            self.back_moves.next = self.moves_ram.read_data.val();
            self.back_index.next = self.squares_ram.read_data.val();
            self.back_degrees.next = self.degrees_ram.read_data.val();
            self.back_doomed.next = self.doomed_ram.read_data.val();
            self.back_visited.next = self.visited_ram.read_data.val();
            self.back_below.next = self.below_ram.read_data.val();
            self.back_below_valid.next = self.below_valid_ram.read_data.val().any();
        }
        if !self.has_warnsdorff.val() {
            self.back_degrees.next = 0.into();
        }
        // Rejoining: the new job's move at the level the paths share.
        if (self.state.q.val() == EngineState::Rejoin) | self.rejoin_pending.q.val() {
            self.back_moves.next = self.replay_move.val();
        }
        self.back_square.next = bits::<SQ>(1) << self.back_index.val();
        // The same choice among the resume level's untried moves.
        for m in 0..8 {
            self.back_key[m].next =
                (((self.back_degrees.val() >> self.degree_shift[m].val()) & 15) << 3) | self.move_index[m].val();
        }
        for j in 0..8 {
            self.back_ranks_before[j].next = 0.into();
            if self.back_moves.val().get_bit(j) {
                self.back_ranks_before[j].next = bits::<8>(0)
                    .replace_bit(0, self.back_key[j].val() < self.back_key[0].val())
                    .replace_bit(1, self.back_key[j].val() < self.back_key[1].val())
                    .replace_bit(2, self.back_key[j].val() < self.back_key[2].val())
                    .replace_bit(3, self.back_key[j].val() < self.back_key[3].val())
                    .replace_bit(4, self.back_key[j].val() < self.back_key[4].val())
                    .replace_bit(5, self.back_key[j].val() < self.back_key[5].val())
                    .replace_bit(6, self.back_key[j].val() < self.back_key[6].val())
                    .replace_bit(7, self.back_key[j].val() < self.back_key[7].val());
            }
        }
        self.back_beaten.next = self.back_ranks_before[0].val()
            | self.back_ranks_before[1].val()
            | self.back_ranks_before[2].val()
            | self.back_ranks_before[3].val()
            | self.back_ranks_before[4].val()
            | self.back_ranks_before[5].val()
            | self.back_ranks_before[6].val()
            | self.back_ranks_before[7].val();
        self.back_first.next = self.back_moves.val() & !self.back_beaten.val();
        self.back_rest.next = self.back_moves.val() & !self.back_first.val();
        self.back_child.next = 0.into();
        self.back_child_index.next = self.back_index.val();
        for m in 0..8 {
            if self.back_first.val().get_bit(m) {
                self.back_child.next = ((self.back_square.val() & self.legal[m].val()) << self.shift_up[m].val())
                    >> self.shift_down[m].val();
                self.back_child_index.next = self.back_index.val() + self.delta[m].val();
            }
        }
        self.resume_moves.d.next = self.back_moves.val();
        self.resume_index.d.next = self.back_index.val();
        self.resume_degrees.d.next = self.back_degrees.val();
        self.resume_doomed.d.next = self.back_doomed.val();
        self.resume_visited.d.next = self.back_visited.val();
        self.resume_below.d.next = self.back_below.val();
        self.resume_below_valid.d.next = self.back_below_valid.val();
        self.refill.d.next = false;
        self.rejoin_started.d.next = false;

        // The next resume level down (each level that has untried moves
        // links to the one below it): its entry is read from the stack every
        // clock, for a refill in the next.
        self.moves_ram.read_address.next = self.back_below.val();
        self.squares_ram.read_address.next = self.back_below.val();
        self.degrees_ram.read_address.next = self.back_below.val();
        self.doomed_ram.read_address.next = self.back_below.val();
        self.visited_ram.read_address.next = self.back_below.val();
        self.below_ram.read_address.next = self.back_below.val();
        self.below_valid_ram.read_address.next = self.back_below.val();

        // The start square's knight neighbours: where a closed tour may end.
        self.start_reach[0].next =
            ((self.start_one_hot.val() & self.legal[0].val()) << self.shift_up[0].val()) >> self.shift_down[0].val();
        for m in 1..8 {
            self.start_reach[m].next = self.start_reach[m - 1].val()
                | (((self.start_one_hot.val() & self.legal[m].val()) << self.shift_up[m].val())
                    >> self.shift_down[m].val());
        }

        self.entering.next = false;
        self.moves_ram.write_enable.next = false;
        self.squares_ram.write_enable.next = false;
        self.degrees_ram.write_enable.next = false;
        self.doomed_ram.write_enable.next = false;
        self.visited_ram.write_enable.next = false;
        self.below_ram.write_enable.next = false;
        self.below_valid_ram.write_enable.next = false;
        self.moves_ram.write_address.next = self.depth.q.val();
        self.squares_ram.write_address.next = self.depth.q.val();
        self.degrees_ram.write_address.next = self.depth.q.val();
        self.doomed_ram.write_address.next = self.depth.q.val();
        self.visited_ram.write_address.next = self.depth.q.val();
        self.below_ram.write_address.next = self.depth.q.val();
        self.below_valid_ram.write_address.next = self.depth.q.val();
        self.moves_ram.write_data.next = self.rest.val();
        self.squares_ram.write_data.next = self.current_index.q.val();
        self.degrees_ram.write_data.next = self.packed_chain[7].val();
        self.doomed_ram.write_data.next = self.doomed.val();
        self.visited_ram.write_data.next = self.visited.q.val();
        self.below_ram.write_data.next = self.resume_level.q.val();
        self.below_valid_ram.write_data.next = bits::<1>(0).replace_bit(0, self.resume_valid.q.val());
        // Where the entered level lies against the split level (0 above, 1 at,
        // 2 below), compared for both possible steps before `expand` picks
        // one: a compare after that choice was the longest path.
        self.push_vs_split.next = 0.into();
        if (self.depth.q.val() + 1) == self.split_depth.q.val() {
            self.push_vs_split.next = 1.into();
        } else if (self.depth.q.val() + 1) > self.split_depth.q.val() {
            self.push_vs_split.next = 2.into();
        }
        self.back_vs_split.next = 0.into();
        if (self.resume_level.q.val() + 1) == self.split_depth.q.val() {
            self.back_vs_split.next = 1.into();
        } else if (self.resume_level.q.val() + 1) > self.split_depth.q.val() {
            self.back_vs_split.next = 2.into();
        }
        self.entered_vs_split.next = self.push_vs_split.val();

        self.prefix_ready.next = false;
        self.tour_square.next = self.squares_ram.read_data.val();
        self.tour_valid.next = false;
        self.tour_last.next = false;
        self.busy.next = false;
        self.streaming.next = self.state.q.val() == EngineState::Emit;
        self.board_squares.next = self.area.q.val();
        self.job.next = self.current_job.q.val();
        self.node_counted.next = bit_cast::<16, 4>(self.node_pulse.q.val());
        self.tour_counted.next = self.tour_pulse.q.val();
        self.tour_pulse.d.next = false;
        self.children_judged.next = false;
        self.job_found.next = self.found_pulse.q.val();
        self.found_path.next = self.path.q.val();
        self.found_number.next = self.jobs_found.q.val();
        self.walking.next = self.walking_top.q.val();
        self.found_pulse.d.next = false;
        self.job_entered.d.next = false;
        self.queue_room.d.next = self.job_space.val();
        self.rejoin_job.next = false;
        self.fresh_job.next = false;
        self.to_start.next = false;
        self.descending.next = false;
        self.popping.next = false;
        self.entered_move.next = self.first.val();

        // Arm the held job's rejoin while this job has no resume level: its
        // level's stack entry is read now and cached as the resume level from
        // the next clock on, with the new path's move as the one untried move
        // (a descent that leaves untried moves takes the resume level back).
        // A job that ends before this is armed starts from Next instead.
        if (self.state.q.val() == EngineState::Run)
            & self.job_held.q.val()
            & self.rejoin_ok.q.val()
            & !self.resume_valid.q.val()
            & !self.rejoin_pending.q.val()
            & !self.rejoin_started.q.val()
        {
            self.resume_level.d.next = self.rejoin_at.q.val();
            self.refill.d.next = true;
            self.rejoin_pending.d.next = true;
            self.moves_ram.read_address.next = self.rejoin_at.q.val();
            self.squares_ram.read_address.next = self.rejoin_at.q.val();
            self.degrees_ram.read_address.next = self.rejoin_at.q.val();
            self.doomed_ram.read_address.next = self.rejoin_at.q.val();
            self.visited_ram.read_address.next = self.rejoin_at.q.val();
            self.below_ram.read_address.next = self.rejoin_at.q.val();
            self.below_valid_ram.read_address.next = self.rejoin_at.q.val();
        }
        // The clock after popping into the held job: it is the current one.
        if self.rejoin_started.q.val() {
            self.job_held.d.next = false;
            self.current_job.d.next = self.held_number.q.val();
        }

        match self.state.q.val() {
            EngineState::Idle => {}
            EngineState::Setup => {
                // The runtime board as a square mask, one rank per clock:
                // the ranks so far move up one and rank 0 comes in. (A
                // shift by a constant is wiring; shifting each new rank into
                // place by a variable amount was a barrel shifter.)
                self.busy.next = true;
                self.board.d.next = (self.board.q.val() << self.row_stride.val())
                    | (((bits::<SQ>(1) << self.board_width.q.val()) - 1) & self.first_rank.val());
                self.area.d.next = self.area.q.val() + bit_cast::<16, 8>(self.board_width.q.val());
                self.setup_rank.d.next = self.setup_rank.q.val() + 1;
                // The board's own ranks, not the build's: a search's clocks
                // do not depend on the bitstream it runs on.
                if (self.setup_rank.q.val() + 1) == self.board_height.q.val() {
                    // Nothing is visited while the start square is judged,
                    // one level below level 0.
                    self.current.d.next = 0.into();
                    self.visited.d.next = 0.into();
                    self.depth.d.next = !bits::<LB>(0);
                    self.resume_valid.d.next = false;
                    self.reported.d.next = false;
                    self.closing_squares.d.next = self.start_reach[7].val();
                    self.state.d.next = EngineState::Root;
                }
            }
            EngineState::Root => {
                // Enter the start square, judged like a child.
                self.busy.next = true;
                self.last_level.d.next = bit_cast::<LB, 16>(self.area.q.val() - 1);
                // Split only above the last level (a job must not be a whole
                // tour); a board too small for the requested level is
                // searched whole by the walker, and the others stop. The
                // others wait for jobs.
                self.splitting.d.next = self.split_depth.q.val().any()
                    & (self.split_depth.q.val() < bit_cast::<LB, 16>(self.area.q.val() - 1));
                if !(self.start_one_hot.val() & self.board.q.val()).any()
                    | (self.split_depth.q.val().any()
                        & !self.walking_top.q.val()
                        & (self.split_depth.q.val() >= bit_cast::<LB, 16>(self.area.q.val() - 1)))
                {
                    self.state.d.next = EngineState::Done;
                } else if self.split_depth.q.val().any() & !self.walking_top.q.val() {
                    self.state.d.next = EngineState::Next;
                } else {
                    self.entering.next = true;
                    self.entered_dead.d.next = self.probe_dead.val();
                    self.to_start.next = true;
                    self.state.d.next = EngineState::Run;
                    if self.standalone.val() & self.prefix_left.q.val().any() {
                        self.state.d.next = EngineState::Load;
                    }
                }
            }
            EngineState::Load => {
                // Enter the prefix squares one per clock. Their levels get no
                // untried moves, so the search never backtracks into them.
                self.busy.next = true;
                self.prefix_ready.next = true;
                if self.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.standalone.val() & self.prefix_valid.val() {
                    self.entering.next = true;
                    self.entered_dead.d.next = self.probe_dead.val();
                    self.moves_ram.write_enable.next = true;
                    self.squares_ram.write_enable.next = true;
                    self.degrees_ram.write_enable.next = true;
                    self.moves_ram.write_data.next = 0.into();
                    self.degrees_ram.write_data.next = 0.into();
                    self.visited.d.next = self.visited.q.val() | self.prefix_one_hot.val();
                    self.current.d.next = self.prefix_one_hot.val();
                    self.current_index.d.next = self.prefix_square.val();
                    self.depth.d.next = self.depth.q.val() + 1;
                    self.prefix_left.d.next = self.prefix_left.q.val() - 1;
                    if self.prefix_left.q.val() == 1 {
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Run => {
                self.busy.next = true;
                if self.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.at_tour.val() & !self.reported.q.val() & !self.count_mode.q.val() {
                    self.tour_count.d.next = self.tour_count.q.val() + 1;
                    self.reported.d.next = true;
                    self.emit_level.d.next = 0.into();
                    self.emit_wait.d.next = true;
                    self.state.d.next = EngineState::Emit;
                } else {
                    if self.at_tour.val() & self.count_mode.q.val() {
                        self.tour_count.d.next = self.tour_count.q.val() + 1;
                        self.tour_pulse.d.next = true;
                    }
                    self.reported.d.next = false;
                    self.children_judged.next = true;
                    if self.expand.val() {
                        // Descend: push this level, enter its first free move.
                        self.descending.next = true;
                    } else if self.resume_valid.q.val() {
                        // Dead end: pop to the resume level, enter its next move.
                        self.popping.next = true;
                    } else if self.rejoin_pending.q.val() {
                        // The job is over and the next one's rejoin level is
                        // the resume level: pop into it, then replay the rest.
                        self.popping.next = true;
                        self.rejoin_started.d.next = true;
                        if self.back_vs_split.val() != 1 {
                            self.state.d.next = EngineState::Replay;
                        }
                    } else if self.splitting.q.val() {
                        // The job, or the walk, is over: on to the next job.
                        // (Started from Next, a clock later: deciding it here
                        // put the job's registers on the step's longest path.)
                        self.walking_top.d.next = false;
                        self.state.d.next = EngineState::Next;
                    } else {
                        self.state.d.next = EngineState::Done;
                    }
                }
            }
            EngineState::Next => {
                // Waiting for a job (the walker too, once its walk is done).
                self.busy.next = true;
                if self.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.job_held.q.val() {
                    // (A job granted in this clock starts in the next.)
                    if self.rejoin_ok.q.val() {
                        self.rejoin_job.next = true;
                    } else {
                        self.fresh_job.next = true;
                    }
                } else if !self.job_held.q.val() & !self.job_grant.val() & self.jobs_over.val() {
                    self.state.d.next = EngineState::Done;
                }
            }
            EngineState::Replay => {
                // Enter the job's path, a move per clock, as a descent with
                // the move forced (`first`); its levels keep no untried moves,
                // so the search never backtracks into them.
                self.busy.next = true;
                if self.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else {
                    self.descending.next = true;
                    if self.push_vs_split.val() == 1 {
                        self.current_job.d.next = self.held_number.q.val();
                        self.rejoin_ok.d.next = true;
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Rejoin => {
                // Pop to the deepest level the old and new jobs' paths share
                // (its square read from the stack) and enter the new path's
                // move there, as a backtrack does; replay the rest.
                self.busy.next = true;
                if self.cancel.val() {
                    self.state.d.next = EngineState::Done;
                } else {
                    self.popping.next = true;
                    self.state.d.next = EngineState::Replay;
                    if self.back_vs_split.val() == 1 {
                        self.current_job.d.next = self.held_number.q.val();
                        self.state.d.next = EngineState::Run;
                    }
                }
            }
            EngineState::Emit => {
                self.busy.next = true;
                self.moves_ram.read_address.next = self.emit_level.q.val();
                self.squares_ram.read_address.next = self.emit_level.q.val();
                self.degrees_ram.read_address.next = self.emit_level.q.val();
                if self.emit_level.q.val() == self.depth.q.val() {
                    self.tour_square.next = self.current_index.q.val();
                }
                // A tour being streamed is never cut short: cancel takes
                // effect here only before its first square is taken, else
                // back in Run.
                self.tour_valid.next = !self.emit_wait.q.val();
                self.tour_last.next = self.emit_level.q.val() == self.depth.q.val();
                if self.cancel.val() & !self.emit_level.q.val().any() & !self.tour_ready.val() {
                    self.state.d.next = EngineState::Done;
                } else if self.emit_wait.q.val() {
                    self.emit_wait.d.next = false;
                } else if self.tour_ready.val() {
                    if self.emit_level.q.val() == self.depth.q.val() {
                        if self.standalone.val()
                            & self.limit.val().any()
                            & (self.tour_count.q.val() == self.limit.val())
                        {
                            self.state.d.next = EngineState::Done;
                        } else {
                            self.state.d.next = EngineState::Run;
                        }
                    } else {
                        self.emit_level.d.next = self.emit_level.q.val() + 1;
                        self.emit_wait.d.next = true;
                    }
                }
            }
            EngineState::Done => {}
            _ => {
                self.state.d.next = EngineState::Idle;
            }
        }

        // A descent (a search step, or a replayed move: `first` and `rest`
        // are forced then) and a pop (a backtrack, or a rejoin: `back_moves`
        // is forced then), each with one set of inputs on the registers.
        if self.descending.val() {
            self.entering.next = true;
            self.entered_dead.d.next = (self.first.val() & self.doomed.val()).any();
            self.moves_ram.write_enable.next = true;
            self.squares_ram.write_enable.next = true;
            self.degrees_ram.write_enable.next = true;
            self.doomed_ram.write_enable.next = true;
            self.visited_ram.write_enable.next = true;
            self.below_ram.write_enable.next = true;
            self.below_valid_ram.write_enable.next = true;
            if self.rest.val().any() {
                self.refill.d.next = false;
                self.rejoin_pending.d.next = false;
                self.resume_below.d.next = self.resume_level.q.val();
                self.resume_below_valid.d.next = self.resume_valid.q.val();
                self.resume_valid.d.next = true;
                self.resume_level.d.next = self.depth.q.val();
                self.resume_moves.d.next = self.rest.val();
                self.resume_index.d.next = self.current_index.q.val();
                self.resume_degrees.d.next = self.packed_chain[7].val();
                self.resume_doomed.d.next = self.doomed.val();
                self.resume_visited.d.next = self.visited.q.val();
            }
            self.visited.d.next = self.visited.q.val() | self.child.val();
            self.current.d.next = self.child.val();
            self.current_index.d.next = self.child_index.val();
            self.depth.d.next = self.depth.q.val() + 1;
        }
        if self.popping.val() {
            self.rejoin_pending.d.next = false;
            self.entering.next = true;
            self.entered_vs_split.next = self.back_vs_split.val();
            self.entered_move.next = self.back_first.val();
            self.entered_dead.d.next = (self.back_first.val() & self.back_doomed.val()).any();
            self.moves_ram.write_enable.next = true;
            self.squares_ram.write_enable.next = true;
            self.degrees_ram.write_enable.next = true;
            self.moves_ram.write_address.next = self.resume_level.q.val();
            self.squares_ram.write_address.next = self.resume_level.q.val();
            self.degrees_ram.write_address.next = self.resume_level.q.val();
            self.moves_ram.write_data.next = self.back_rest.val();
            self.squares_ram.write_data.next = self.back_index.val();
            self.degrees_ram.write_data.next = self.back_degrees.val();
            if self.back_rest.val().any() {
                self.resume_moves.d.next = self.back_rest.val();
            } else {
                self.resume_valid.d.next = self.back_below_valid.val();
                self.resume_level.d.next = self.back_below.val();
                self.refill.d.next = true;
            }
            self.visited.d.next = self.back_visited.val() | self.back_child.val();
            self.current.d.next = self.back_child.val();
            self.current_index.d.next = self.back_child_index.val();
            self.depth.d.next = self.resume_level.q.val() + 1;
        }

        // Start a job held or granted: from the deepest level its path
        // shares with the last job's (the first moves of two jobs handed out
        // near each other mostly agree), else from the start square; then
        // replay the rest of the path.
        self.path_diff.next = self.path.q.val() ^ self.job_path.val();
        self.slots_same.next = !(self.path_diff.val().get_bits::<16>(0)
            | self.path_diff.val().get_bits::<16>(16)
            | self.path_diff.val().get_bits::<16>(32));
        self.first_differing.next = (self.slots_same.val() + 1) & !self.slots_same.val();
        self.rejoin_level.next = bits::<LB>(0)
            .replace_bit(0, (self.first_differing.val() & self.slot_bit[0].val()).any())
            .replace_bit(1, (self.first_differing.val() & self.slot_bit[1].val()).any())
            .replace_bit(2, (self.first_differing.val() & self.slot_bit[2].val()).any())
            .replace_bit(3, (self.first_differing.val() & self.slot_bit[3].val()).any());
        if self.job_grant.val() {
            self.rejoin_at.d.next = self.rejoin_level.val();
        }
        if self.rejoin_job.val() | self.fresh_job.val() {
            self.job_held.d.next = false;
            self.owns_job.d.next = true;
            self.reported.d.next = false;
        }
        // Rejoin pops to `resume_level` (its entry read from the stack now).
        if self.rejoin_job.val() {
            self.resume_level.d.next = self.rejoin_at.q.val();
            self.refill.d.next = true;
            self.moves_ram.read_address.next = self.rejoin_at.q.val();
            self.squares_ram.read_address.next = self.rejoin_at.q.val();
            self.degrees_ram.read_address.next = self.rejoin_at.q.val();
            self.doomed_ram.read_address.next = self.rejoin_at.q.val();
            self.visited_ram.read_address.next = self.rejoin_at.q.val();
            self.below_ram.read_address.next = self.rejoin_at.q.val();
            self.below_valid_ram.read_address.next = self.rejoin_at.q.val();
            self.state.d.next = EngineState::Rejoin;
        }
        if self.fresh_job.val() {
            self.to_start.next = true;
            self.state.d.next = EngineState::Replay;
        }
        // At the start square, nothing else visited (one set of inputs on
        // these registers for the search's start and a job's).
        if self.to_start.val() {
            self.current.d.next = self.start_one_hot.val();
            self.current_index.d.next = self.start_index.q.val();
            self.visited.d.next = self.start_one_hot.val();
            self.depth.d.next = 0.into();
        }

        if self.start.val() & ((self.state.q.val() == EngineState::Idle) | (self.state.q.val() == EngineState::Done)) {
            self.board_width.d.next = self.width.val();
            self.board_height.d.next = self.height.val();
            self.start_index.d.next = self.start_square.val();
            self.want_closed.d.next = self.closed.val();
            self.use_warnsdorff.d.next = self.warnsdorff.val();
            self.use_prune.d.next = self.prune.val();
            self.count_mode.d.next = self.count_all.val();
            self.prefix_left.d.next = self.prefix_length.val();
            self.split_depth.d.next = self.split_level.val();
            self.walking_top.d.next = self.walker.val() & self.split_level.val().any();
            self.splitting.d.next = false;
            self.jobs_found.d.next = 0.into();
            self.job_held.d.next = false;
            self.rejoin_ok.d.next = false;
            self.rejoin_pending.d.next = false;
            self.owns_job.d.next = false;
            self.current_job.d.next = 0.into();
            self.board.d.next = 0.into();
            self.setup_rank.d.next = 0.into();
            self.area.d.next = 0.into();
            self.tour_count.d.next = 0.into();
            self.state.d.next = EngineState::Setup;
        }

        // Count the square entered this clock (when splitting, in one engine
        // only: above the job level, the walker; at it, whoever searches the
        // job; below, the only one).
        self.entering_job.next = self.splitting.q.val() & (self.entered_vs_split.val() == 1);
        self.counted.next = !self.splitting.q.val()
            | (self.entered_vs_split.val() == 2)
            | (self.entering_job.val() & (!self.walking_top.q.val() | !self.queue_room.q.val()))
            | ((self.entered_vs_split.val() == 0) & self.walking_top.q.val());
        // The walker numbers each job it enters, and hands it to the queue
        // or, when the queue is full, searches it itself.
        if self.entering.val() & self.entering_job.val() & self.walking_top.q.val() {
            self.owns_job.d.next = !self.queue_room.q.val();
            self.found_pulse.d.next = self.queue_room.q.val();
            self.job_entered.d.next = true;
        }
        // Numbered a clock later, off the step's longest path: until then
        // `jobs_found` is the entered job's number (what the queue takes).
        if self.job_entered.q.val() {
            self.jobs_found.d.next = self.jobs_found.q.val() + 1;
            self.current_job.d.next = self.jobs_found.q.val();
        }
        if self.state.q.val() == EngineState::Root {
            self.counted.next = !self.split_depth.q.val().any() | self.walking_top.q.val();
        }
        // The walker keeps the move that entered each level above the jobs.
        // (Each bit of the move's index fills its slice; the slot mask
        // picks the slot.)
        for b in 0..3 {
            self.code_slice[b].next = 0.into();
            if (self.entered_move.val() & self.code_bit_moves[b].val()).any() {
                self.code_slice[b].next = !bits::<16>(0);
            }
        }
        self.entered_code.next = bit_cast::<JOB_PATH_BITS, 16>(self.code_slice[0].val())
            | (bit_cast::<JOB_PATH_BITS, 16>(self.code_slice[1].val()) << 16)
            | (bit_cast::<JOB_PATH_BITS, 16>(self.code_slice[2].val()) << 32);
        // Its slot is the level stepped from (a descent's depth, a pop's
        // resume level), decoded before the step picks one; levels 16 and up
        // decode to none.
        self.entered_slot.next = bits::<16>(1) << self.depth.q.val();
        if self.popping.val() {
            self.entered_slot.next = bits::<16>(1) << self.resume_level.q.val();
        }
        self.slot_mask.next = bit_cast::<JOB_PATH_BITS, 16>(self.entered_slot.val())
            | (bit_cast::<JOB_PATH_BITS, 16>(self.entered_slot.val()) << 16)
            | (bit_cast::<JOB_PATH_BITS, 16>(self.entered_slot.val()) << 32);
        if self.entering.val() & self.walking_top.q.val() {
            self.path.d.next =
                (self.path.q.val() & !self.slot_mask.val()) | (self.entered_code.val() & self.slot_mask.val());
        }
        // Dead children judged without being entered (count mode), counted by
        // the engine that counts their level (as `counted` above).
        self.doomed_tally[0].next = 0.into();
        if self.doomed.val().get_bit(0) {
            self.doomed_tally[0].next = 1.into();
        }
        for m in 1..8 {
            self.doomed_tally[m].next = self.doomed_tally[m - 1].val();
            if self.doomed.val().get_bit(m) {
                self.doomed_tally[m].next = self.doomed_tally[m - 1].val() + 1;
            }
        }
        self.judged.next = 0.into();
        if self.children_judged.val()
            & self.count_mode.q.val()
            & !self.dead.val()
            & !self.skip_job.val()
            & (!self.splitting.q.val() | (self.depth.q.val() >= self.split_depth.q.val()) | self.walking_top.q.val())
        {
            self.judged.next = self.doomed_tally[7].val();
        }
        self.node_step.next = self.judged.val();
        if self.entering.val() & self.counted.val() {
            self.node_step.next = self.judged.val() + 1;
        }
        self.node_pulse.d.next = self.node_step.val();
    }
}
