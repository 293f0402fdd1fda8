//! The compact engines as the accelerator's bank. They take the same SOLVE
//! as the wide engines (a board, a start square, the flags, a path, a split
//! level), so the host tells the two kinds apart only by IDENTITY.

use knights_protocol::feature;
use rust_hdl::prelude::*;

use super::CompactEngine;
use crate::platform::{BuildIdentity, EngineBank, EnginePort, JobRole};
use crate::tours::common::tour_limits;

/// `engines` compact engines for boards up to `max_width` × `max_height`
/// (see [`CompactEngine`] for the widths).
#[derive(LogicBlock)]
pub struct CompactBank<const AB: usize, const CB: usize, const LB: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub ports: Vec<EnginePort>,
    engines: Vec<CompactEngine<AB, CB, LB, TB>>,
    _identity: BuildIdentity,
}

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> CompactBank<AB, CB, LB, TB> {
    pub fn new(max_width: usize, max_height: usize, engines: usize) -> Self {
        let (split_limit, path_limit) = tour_limits(max_width * max_height);
        CompactBank {
            clock: Default::default(),
            ports: (0..engines).map(|_| Default::default()).collect(),
            engines: (0..engines).map(|i| CompactEngine::new(max_width, max_height, JobRole::of_engine(i))).collect(),
            _identity: BuildIdentity {
                max_width: max_width as u8,
                max_height: max_height as u8,
                features: feature::WARNSDORFF | feature::PRUNE,
                split_limit,
                path_limit,
            },
        }
    }
}

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> EngineBank for CompactBank<AB, CB, LB, TB> {
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

impl<const AB: usize, const CB: usize, const LB: usize, const TB: usize> Logic for CompactBank<AB, CB, LB, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            EnginePort::link(&mut self.ports[i], &mut self.engines[i].port);
        }
    }
}
