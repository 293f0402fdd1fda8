//! The one port bundle every engine kind implements, and its mate on the
//! platform's side.
//!
//! An engine takes a search's arguments and a start pulse, shares the search
//! with the other engines through the platform's job queue, streams each
//! result (a tour's squares, say) with a valid/ready/last handshake, and
//! pulses its counts every clock. The platform knows nothing else about it:
//! what the arguments mean, which of them it refuses and what a result's
//! items are belong to the engine kind.

use rust_hdl::prelude::*;

/// Bits of a job's path: how an engine names a node at the split level to
/// another engine (the knight's-tour engine: three bits a move).
pub const JOB_PATH_BITS: usize = 48;

/// Bits of an engine's node and result counts a clock that the platform
/// sums (the queens solver counts up to 5 nodes in a step).
pub const COUNT_BITS: usize = 4;

/// Bits of the search's arguments: SOLVE's first five payload bytes (board
/// width, height, start file and rank, flags; see `docs/protocol.md`).
pub const ARGUMENT_BITS: usize = 40;

/// An engine's part in sharing a search (see [`EnginePort::split_level`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum JobRole {
    /// Walks the levels above the jobs and queues them (one engine must): it
    /// counts the nodes up there, searches a job itself when the queue has
    /// no room for it, and takes jobs from the queue once its walk is done.
    Walker,
    /// Takes jobs from the queue; the walking logic is left out.
    Worker,
}

impl JobRole {
    /// The role of engine `i` of a bank: engine 0 walks.
    pub fn of_engine(i: usize) -> Self {
        if i == 0 {
            JobRole::Walker
        } else {
            JobRole::Worker
        }
    }
}

/// The engine's side of the bundle.
#[derive(LogicInterface, Default)]
#[join = "EngineSocket"]
pub struct EnginePort {
    /// Starts a search with `arguments` and `split_level` (while idle or
    /// done).
    pub start: Signal<In, bool>,
    /// Stops a running search; held until the engine is no longer `busy`.
    /// A result being streamed is finished first.
    pub cancel: Signal<In, bool>,
    /// SOLVE's arguments, as sent.
    pub arguments: Signal<In, Bits<ARGUMENT_BITS>>,
    /// The level whose nodes are the jobs (0: this engine searches the
    /// whole tree alone).
    pub split_level: Signal<In, Bits<8>>,
    /// The path of moves the search is confined to (a prefix job; bit-sliced
    /// as the queue's jobs), and its length (0: the whole tree). The platform
    /// has checked that the split level, when not 0, lies below its end.
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub path_length: Signal<In, Bits<8>>,
    /// Why the engine cannot run `arguments` at `split_level`: an ERROR
    /// code, 0 when it can (combinational; the platform reads engine 0's).
    pub refusal: Signal<Out, Bits<8>>,

    /// The job queue's side: taking jobs, and the walker's jobs for others.
    pub jobs: JobPort,

    /// A result's items, one per clock taken (valid and ready), the last
    /// one marked.
    pub item: Signal<Out, Bits<8>>,
    pub item_valid: Signal<Out, bool>,
    pub item_last: Signal<Out, bool>,
    pub item_ready: Signal<In, bool>,
    /// Items in a result (valid once the search runs).
    pub result_items: Signal<Out, Bits<16>>,

    /// Nodes and results counted in the clock before (results in count
    /// mode, where they are not streamed), registered; at most
    /// 2^[`COUNT_BITS`] - 1 each a clock.
    pub nodes: Signal<Out, Bits<16>>,
    pub solutions: Signal<Out, Bits<16>>,
    /// A search is in progress.
    pub busy: Signal<Out, bool>,
    /// The search is paused while a result is streamed.
    pub streaming: Signal<Out, bool>,
}

/// The platform's side of the bundle: [`EnginePort`] with every direction
/// turned round.
#[derive(LogicInterface, Default)]
#[join = "EnginePort"]
pub struct EngineSocket {
    pub start: Signal<Out, bool>,
    pub cancel: Signal<Out, bool>,
    pub arguments: Signal<Out, Bits<ARGUMENT_BITS>>,
    pub split_level: Signal<Out, Bits<8>>,
    pub path: Signal<Out, Bits<JOB_PATH_BITS>>,
    pub path_length: Signal<Out, Bits<8>>,
    pub refusal: Signal<In, Bits<8>>,
    pub jobs: JobSocket,
    pub item: Signal<In, Bits<8>>,
    pub item_valid: Signal<In, bool>,
    pub item_last: Signal<In, bool>,
    pub item_ready: Signal<Out, bool>,
    pub result_items: Signal<In, Bits<16>>,
    pub nodes: Signal<In, Bits<16>>,
    pub solutions: Signal<In, Bits<16>>,
    pub busy: Signal<In, bool>,
    pub streaming: Signal<In, bool>,
}

/// An engine's side of the job queue (part of [`EnginePort`]).
#[derive(LogicInterface, Default)]
#[join = "JobSocket"]
pub struct JobPort {
    /// The queue has room for a job from the walker.
    pub space: Signal<In, bool>,
    /// The walker found a job in the clock before: its path and number.
    pub found: Signal<Out, bool>,
    pub found_path: Signal<Out, Bits<JOB_PATH_BITS>>,
    pub found_number: Signal<Out, Bits<32>>,
    /// The walker is still walking: more jobs may come.
    pub walking: Signal<Out, bool>,
    /// Wants a job; takes `path` and `number` while `grant`.
    pub request: Signal<Out, bool>,
    pub grant: Signal<In, bool>,
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub number: Signal<In, Bits<32>>,
    /// No job is left and none can come: a waiting engine stops.
    pub over: Signal<In, bool>,
    /// The job being searched: the tag of the results it streams.
    pub job: Signal<Out, Bits<32>>,
}

/// The queue's side of [`JobPort`], every direction turned round.
#[derive(LogicInterface, Default)]
#[join = "JobPort"]
pub struct JobSocket {
    pub space: Signal<Out, bool>,
    pub found: Signal<In, bool>,
    pub found_path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub found_number: Signal<In, Bits<32>>,
    pub walking: Signal<In, bool>,
    pub request: Signal<In, bool>,
    pub grant: Signal<Out, bool>,
    pub path: Signal<Out, Bits<JOB_PATH_BITS>>,
    pub number: Signal<Out, Bits<32>>,
    pub over: Signal<Out, bool>,
    pub job: Signal<In, Bits<32>>,
}
