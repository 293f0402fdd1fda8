//! The wide engines as the accelerator's bank: every engine a knight's-tour
//! [`Engine`], engine 0 the walker. A job is a path of moves, a result a
//! tour streamed square by square, and the arguments a board, a start
//! square and the flags (SOLVE).

use knights_protocol::feature;
use rust_hdl::prelude::*;

use super::Engine;
use crate::platform::{BuildIdentity, EngineBank, EnginePort, JobRole};
use crate::tours::common::tour_limits;

/// `engines` wide engines for boards up to `SQ` squares (see [`Engine`] for
/// `SQ` and `LB`).
#[derive(LogicBlock)]
pub struct WideBank<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    pub ports: Vec<EnginePort>,
    engines: Vec<Engine<SQ, LB>>,
    _identity: BuildIdentity,
}

impl<const SQ: usize, const LB: usize> WideBank<SQ, LB> {
    /// With `warnsdorff`, Warnsdorff's move order is built in (about an
    /// eighth of an engine's logic; without it, IDENTITY says so and a SOLVE
    /// that asks for it is a bad argument).
    pub fn new(max_width: usize, max_height: usize, engines: usize, warnsdorff: bool) -> Self {
        assert!(SQ <= 256, "tour squares are sent as one byte each: at most 256 squares");
        let warnsdorff_bit = if warnsdorff { feature::WARNSDORFF } else { 0 };
        let (split_limit, path_limit) = tour_limits(SQ);
        WideBank {
            clock: Default::default(),
            ports: (0..engines).map(|_| Default::default()).collect(),
            engines: (0..engines)
                .map(|i| Engine::for_accelerator(max_width, max_height, warnsdorff, JobRole::of_engine(i)))
                .collect(),
            _identity: BuildIdentity {
                max_width: max_width as u8,
                max_height: max_height as u8,
                features: warnsdorff_bit | feature::PRUNE,
                split_limit,
                path_limit,
            },
        }
    }
}

impl<const SQ: usize, const LB: usize> EngineBank for WideBank<SQ, LB> {
    fn identity(&self) -> BuildIdentity {
        self._identity
    }

    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn ports(&mut self) -> &mut [EnginePort] {
        &mut self.ports
    }
}

impl<const SQ: usize, const LB: usize> Logic for WideBank<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            EnginePort::link(&mut self.ports[i], &mut self.engines[i].port);
            // (The accelerator counts the tours it sends itself.)
            self.engines[i].limit.next = 0.into();
        }
    }
}
