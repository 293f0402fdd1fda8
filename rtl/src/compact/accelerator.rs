//! The compact accelerator: the [`Platform`] with compact engines in its
//! sockets. It speaks the same SOLVE as the wide builds (a board, a start
//! square, the flags, a path, a split level), so the host tells the two
//! apart only by IDENTITY's largest board, engine count and speed.

use knights_protocol::{feature, MAX_PATH_MOVES, MAX_SPLIT_LEVEL};
use rust_hdl::prelude::*;

use super::CompactEngine;
use crate::engine::JobRole;
use crate::platform::{BuildIdentity, EnginePort, LinkSettings, Platform};

/// The serial-linked accelerator for boards up to `max_width` ×
/// `max_height` (see [`CompactEngine`] for the widths).
#[derive(LogicBlock)]
pub struct CompactAccelerator<const AB: usize, const CB: usize, const LB: usize, const TB: usize> {
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
    engines: Vec<CompactEngine<AB, CB, LB, TB>>,
}

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> CompactAccelerator<AB, CB, LB, TB> {
    pub fn new(max_width: usize, max_height: usize, engines: usize, link: LinkSettings) -> Self {
        let squares = max_width * max_height;
        let build = BuildIdentity {
            max_width: max_width as u8,
            max_height: max_height as u8,
            features: feature::WARNSDORFF | feature::PRUNE,
            // A job level must lie above the last level of the largest
            // board, and its path fit the queue; so must a path's end.
            split_limit: (squares - 1).min(usize::from(MAX_SPLIT_LEVEL) + 1) as u8,
            path_limit: (squares - 1).min(usize::from(MAX_PATH_MOVES) + 1) as u8,
        };
        CompactAccelerator {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            platform: Platform::new(engines, build, link),
            engines: (0..engines)
                .map(|i| {
                    let role = if i == 0 { JobRole::Walker } else { JobRole::Worker };
                    CompactEngine::new(max_width, max_height, role)
                })
                .collect(),
        }
    }
}

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> Logic for CompactAccelerator<AB, CB, LB, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, platform);
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
        }
        self.platform.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.platform.uart_tx.val();
        self.led_busy.next = self.platform.led_busy.val();
        self.led_found.next = self.platform.led_found.val();
        for i in 0..self.engines.len() {
            EnginePort::join(&mut self.engines[i].port, &mut self.platform.engines[i]);
        }
    }
}
