//! The N-Queens accelerator: the [`Platform`] with N-Queens solvers in its
//! sockets. A job is the files of the first ranks' queens, a result is a
//! solution streamed a file per rank, and the arguments are N, the first
//! rank's files and the flags (the QUEENS command).

use knights_protocol::feature;
use rust_hdl::prelude::*;

use super::arguments::QueensArguments;
use super::{QueensEngine, MAX_JOB_RANKS};
use crate::engine::JobRole;
use crate::platform::{BuildIdentity, EnginePort, LinkSettings, Platform};

/// The serial-linked accelerator for boards up to `NB` queens (`EW`, `SB`:
/// a solver's stack entry and address bits).
#[derive(LogicBlock)]
pub struct QueensAccelerator<const NB: usize, const EW: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    /// Serial data from the host.
    pub uart_rx: Signal<In, bool>,
    /// Serial data to the host.
    pub uart_tx: Signal<Out, bool>,
    /// A search is running (until its DONE frame is out).
    pub led_busy: Signal<Out, bool>,
    /// The current or last search has found a solution.
    pub led_found: Signal<Out, bool>,
    platform: Platform,
    // SOLVE's arguments, read once for every solver.
    request: QueensArguments<NB>,
    engines: Vec<QueensEngine<NB, EW, SB>>,
}

impl<const NB: usize, const EW: usize, const SB: usize> QueensAccelerator<NB, EW, SB> {
    pub fn new(solvers: usize, link: LinkSettings) -> Self {
        let build = BuildIdentity {
            max_width: NB as u8,
            max_height: NB as u8,
            features: feature::QUEENS,
            // A job's queens must fit its path.
            split_limit: (MAX_JOB_RANKS + 1) as u8,
            // QUEENS carries no path (its path bytes must be 0).
            path_limit: 1,
        };
        QueensAccelerator {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            platform: Platform::new(solvers, build, link),
            request: Default::default(),
            engines: (0..solvers)
                .map(|i| QueensEngine::new(if i == 0 { JobRole::Walker } else { JobRole::Worker }))
                .collect(),
        }
    }
}

impl<const NB: usize, const EW: usize, const SB: usize> Logic for QueensAccelerator<NB, EW, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, platform, request);
        // Every solver gets the same arguments, and engine 0 starts with
        // every search.
        self.request.arguments.next = self.platform.engines[0].arguments.val();
        self.request.latch.next = self.platform.engines[0].start.val();
        self.platform.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.platform.uart_tx.val();
        self.led_busy.next = self.platform.led_busy.val();
        self.led_found.next = self.platform.led_found.val();
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            EnginePort::join(&mut self.engines[i].port, &mut self.platform.engines[i]);
            self.engines[i].n.next = self.request.n.val();
            self.engines[i].full.next = self.request.full.val();
            self.engines[i].first_files.next = self.request.first_files.val();
            self.engines[i].last_slot.next = self.request.last_slot.val();
            self.engines[i].count_all.next = self.request.count_all.val();
            self.engines[i].refusal.next = self.request.refusal.val();
        }
    }
}
