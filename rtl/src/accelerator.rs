//! The knight's-tour accelerator: the [`Platform`] (UART link, commands,
//! job queue, totals, result arbiter, answers) with knight's-tour engines in
//! its sockets.
//!
//! Several engines share a search by jobs (see [`crate::platform`]); the
//! engine kind decides what a job, a result and the arguments are: here a
//! job is a path of moves, a result is a tour streamed square by square, and
//! the arguments are a board, a start square and the flags. A board's build
//! names the kind and how many engines it has.

use knights_protocol::{feature, MAX_PATH_MOVES, MAX_SPLIT_LEVEL};
use rust_hdl::prelude::*;

use crate::engine::{Engine, EnginePort, JobRole};
use crate::platform::{BuildIdentity, Platform};
pub use crate::platform::{LinkSettings, MAX_ENGINES};

/// The search features a build includes. Each costs logic in every engine:
/// a build that leaves one out fits more engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Warnsdorff's move order: about an eighth of an engine's logic. Without
    /// it, IDENTITY says so and a SOLVE that asks for it is a bad argument.
    pub warnsdorff: bool,
    /// N-Queens builds: the generator of constellation jobs (counts from
    /// constellations; see `queens::constellations`). Tour builds ignore it.
    pub constellations: bool,
}

impl Features {
    /// Every feature (dead-end pruning is always built in).
    pub const ALL: Features = Features { warnsdorff: true, constellations: true };
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
    platform: Platform,
    engines: Vec<Engine<SQ, LB>>,
}

impl<const SQ: usize, const LB: usize> Accelerator<SQ, LB> {
    pub fn new(max_width: usize, max_height: usize, engines: usize, features: Features, link: LinkSettings) -> Self {
        assert!(SQ <= 256, "tour squares are sent as one byte each: at most 256 squares");
        let warnsdorff_bit = if features.warnsdorff { feature::WARNSDORFF } else { 0 };
        let build = BuildIdentity {
            max_width: max_width as u8,
            max_height: max_height as u8,
            features: warnsdorff_bit | feature::PRUNE,
            // A job level must lie above the last level of the largest
            // board, and its path fit the queue.
            split_limit: (SQ - 1).min(usize::from(MAX_SPLIT_LEVEL) + 1) as u8,
            // So must a path's end (a path is a job's, the same bits).
            path_limit: (SQ - 1).min(usize::from(MAX_PATH_MOVES) + 1) as u8,
        };
        Accelerator {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            platform: Platform::new(engines, build, link),
            engines: (0..engines)
                .map(|i| {
                    let role = if i == 0 { JobRole::Walker } else { JobRole::Worker };
                    Engine::for_accelerator(max_width, max_height, features.warnsdorff, role)
                })
                .collect(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Accelerator<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, platform);
        self.platform.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.platform.uart_tx.val();
        self.led_busy.next = self.platform.led_busy.val();
        self.led_found.next = self.platform.led_found.val();
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            EnginePort::join(&mut self.engines[i].port, &mut self.platform.engines[i]);
            // (The accelerator counts the tours it sends itself.)
            self.engines[i].limit.next = 0.into();
        }
    }
}
