//! The interleaved engines as the accelerator's bank: every engine a
//! [`Worker`] of five searches, engine 0 the walker. It counts only.

use knights_protocol::feature;
use rust_hdl::prelude::*;

use super::worker::Worker;
use crate::platform::{BuildIdentity, EngineBank, EnginePort, JobRole};
use crate::tours::common::tour_limits;

/// `engines` interleaved engines for boards up to `SQ` squares (see
/// [`super::Interleaved`] for `SQ`, `LB` and `AB`).
#[derive(LogicBlock)]
pub struct InterleavedBank<const SQ: usize, const LB: usize, const AB: usize> {
    pub clock: Signal<In, Clock>,
    pub ports: Vec<EnginePort>,
    engines: Vec<Worker<SQ, LB, AB>>,
    _identity: BuildIdentity,
}

impl<const SQ: usize, const LB: usize, const AB: usize> InterleavedBank<SQ, LB, AB> {
    /// (A count takes Warnsdorff's order too: it counts alike.) With
    /// `visited_in_block_ram`, each ring keeps its searches' visited squares
    /// in block RAM ([`super::Interleaved::visited_in_block_ram`]).
    pub fn new(max_width: usize, max_height: usize, engines: usize, visited_in_block_ram: bool) -> Self {
        assert_eq!(super::SEARCHES, 5, "the ring has five stages");
        let (split_limit, path_limit) = tour_limits(SQ);
        InterleavedBank {
            clock: Default::default(),
            ports: (0..engines).map(|_| Default::default()).collect(),
            engines: (0..engines)
                .map(|i| Worker::new(max_width, max_height, JobRole::of_engine(i), visited_in_block_ram))
                .collect(),
            _identity: BuildIdentity {
                max_width: max_width as u8,
                max_height: max_height as u8,
                features: feature::WARNSDORFF | feature::PRUNE | feature::INTERLEAVED,
                split_limit,
                path_limit,
            },
        }
    }
}

impl<const SQ: usize, const LB: usize, const AB: usize> EngineBank for InterleavedBank<SQ, LB, AB> {
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

impl<const SQ: usize, const LB: usize, const AB: usize> Logic for InterleavedBank<SQ, LB, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            EnginePort::link(&mut self.ports[i], &mut self.engines[i].port);
        }
    }
}
