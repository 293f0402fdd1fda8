//! The compact accelerator: the [`Platform`] with one compact engine in its
//! socket. It speaks the same SOLVE as the wide builds (a board, a start
//! square, the flags, a path), so the host cannot tell the two apart but by
//! IDENTITY's largest board, engine count and speed.

use knights_protocol::{feature, MAX_PATH_MOVES, MAX_SPLIT_LEVEL};
use rust_hdl::prelude::*;

use super::CompactEngine;
use crate::platform::{BuildIdentity, EnginePort, LinkSettings, Platform};

/// The serial-linked accelerator for boards up to `max_width` ×
/// `max_height` (see [`CompactEngine`] for `AB`, `CB` and `LB`).
#[derive(LogicBlock)]
pub struct CompactAccelerator<const AB: usize, const CB: usize, const LB: usize> {
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
    engine: CompactEngine<AB, CB, LB>,
}

impl<const AB: usize, const CB: usize, const LB: usize> CompactAccelerator<AB, CB, LB> {
    pub fn new(max_width: usize, max_height: usize, link: LinkSettings) -> Self {
        let squares = max_width * max_height;
        let build = BuildIdentity {
            max_width: max_width as u8,
            max_height: max_height as u8,
            features: feature::WARNSDORFF | feature::PRUNE,
            // One engine: the platform hands it no split level, but a SOLVE
            // is held to the same limits as on a wide build.
            split_limit: (squares - 1).min(usize::from(MAX_SPLIT_LEVEL) + 1) as u8,
            path_limit: (squares - 1).min(usize::from(MAX_PATH_MOVES) + 1) as u8,
        };
        CompactAccelerator {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            platform: Platform::new(1, build, link),
            engine: CompactEngine::new(max_width, max_height),
        }
    }
}

impl<const AB: usize, const CB: usize, const LB: usize> Logic for CompactAccelerator<AB, CB, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, platform, engine);
        self.platform.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.platform.uart_tx.val();
        self.led_busy.next = self.platform.led_busy.val();
        self.led_found.next = self.platform.led_found.val();
        EnginePort::join(&mut self.engine.port, &mut self.platform.engines[0]);
    }
}
