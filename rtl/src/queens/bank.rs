//! The N-Queens solvers as the accelerator's bank. A job is the files of
//! the first ranks' queens, a result a solution streamed a file per rank,
//! and the arguments N, the first rank's files and the flags (QUEENS).

use knights_protocol::feature;
use rust_hdl::prelude::*;

use super::arguments::QueensArguments;
use super::ranks::{RankPipeline, RankPort, SEARCHES_PER_PIPELINE};
use super::{QueensEngine, MAX_JOB_RANKS};
use crate::platform::{BuildIdentity, EngineBank, EnginePort, JobRole};

/// Solvers for boards up to `NB` queens (`EW`, `AB`: a pipeline's stack
/// entry and address bits). Each pipeline runs two searches, each an
/// engine to the platform.
#[derive(LogicBlock)]
pub struct QueensBank<const NB: usize, const EW: usize, const AB: usize> {
    pub clock: Signal<In, Clock>,
    pub ports: Vec<EnginePort>,
    // QUEENS's arguments, read once for every search.
    request: QueensArguments<NB>,
    pipelines: Vec<RankPipeline<NB, EW, AB>>,
    // Two to a pipeline; with an odd number, the last pipeline's second
    // search has a spare machine that is never started (its search idles,
    // its outputs go nowhere).
    engines: Vec<QueensEngine>,
    spare: Vec<QueensEngine>,
    _identity: BuildIdentity,
}

impl<const NB: usize, const EW: usize, const AB: usize> QueensBank<NB, EW, AB> {
    /// `engines` searches (the platform's engines), two to a pipeline;
    /// with `constellations`, the walker's generator of constellation jobs
    /// (QUEENS's flag `CONSTELLATIONS`).
    pub fn new(engines: usize, constellations: bool) -> Self {
        let pipelines = engines.div_ceil(SEARCHES_PER_PIPELINE);
        QueensBank {
            clock: Default::default(),
            ports: (0..engines).map(|_| Default::default()).collect(),
            request: QueensArguments::new(constellations),
            pipelines: (0..pipelines).map(|_| RankPipeline::new(constellations)).collect(),
            engines: (0..engines).map(|i| QueensEngine::new(JobRole::of_engine(i), constellations)).collect(),
            spare: (engines..pipelines * SEARCHES_PER_PIPELINE)
                .map(|_| QueensEngine::new(JobRole::Worker, false))
                .collect(),
            _identity: BuildIdentity {
                max_width: NB as u8,
                max_height: NB as u8,
                features: feature::QUEENS | if constellations { feature::CONSTELLATIONS } else { 0 },
                // A job's queens must fit its path.
                split_limit: (MAX_JOB_RANKS + 1) as u8,
                // QUEENS carries no path (its path bytes must be 0).
                path_limit: 1,
            },
        }
    }
}

impl<const NB: usize, const EW: usize, const AB: usize> EngineBank for QueensBank<NB, EW, AB> {
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

impl<const NB: usize, const EW: usize, const AB: usize> Logic for QueensBank<NB, EW, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, request);
        // Every search gets the same arguments, and engine 0 starts with
        // every search.
        self.request.arguments.next = self.ports[0].arguments.val();
        self.request.latch.next = self.ports[0].start.val();
        for p in 0..self.pipelines.len() {
            self.pipelines[p].clock.next = self.clock.val();
            self.pipelines[p].full.next = self.request.full.val();
            self.pipelines[p].first_files.next = self.request.first_files.val();
            self.pipelines[p].last_slot.next = self.request.last_slot.val();
            self.pipelines[p].n.next = self.request.n.val();
            // (Off from constellations: the last rank is never entered.)
            self.pipelines[p].tail_on.next = self.request.count_all.val() & !self.request.edges_on.val();
        }
        for p in 0..(self.pipelines.len() - self.spare.len()) {
            RankPort::join(&mut self.engines[2 * p].data, &mut self.pipelines[p].searches[0]);
            RankPort::join(&mut self.engines[2 * p + 1].data, &mut self.pipelines[p].searches[1]);
        }
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            self.engines[i].n.next = self.request.n.val();
            self.engines[i].count_all.next = self.request.count_all.val();
            self.engines[i].refusal.next = self.request.refusal.val();
            self.engines[i].edges_on.next = self.request.edges_on.val();
            self.engines[i].first_files.next = bit_cast::<32, NB>(self.request.first_files.val());
            EnginePort::link(&mut self.ports[i], &mut self.engines[i].port);
        }
        // The spare, if any, and the last engine share the last pipeline.
        // (rust-hdl reads an index only with loop variables in it, so
        // one-pass loops name the last engine and pipeline.)
        for s in 0..self.spare.len() {
            for e in (self.engines.len() - 1)..self.engines.len() {
                for p in (self.pipelines.len() - 1)..self.pipelines.len() {
                    RankPort::join(&mut self.engines[e].data, &mut self.pipelines[p].searches[0]);
                    RankPort::join(&mut self.spare[s].data, &mut self.pipelines[p].searches[1]);
                }
            }
            self.spare[s].clock.next = self.clock.val();
            self.spare[s].n.next = self.request.n.val();
            self.spare[s].count_all.next = self.request.count_all.val();
            self.spare[s].refusal.next = self.request.refusal.val();
            self.spare[s].edges_on.next = false;
            self.spare[s].first_files.next = 0.into();
            self.spare[s].port.start.next = false;
            self.spare[s].port.cancel.next = false;
            self.spare[s].port.arguments.next = 0.into();
            self.spare[s].port.split_level.next = 0.into();
            self.spare[s].port.path.next = 0.into();
            self.spare[s].port.path_length.next = 0.into();
            self.spare[s].port.jobs.space.next = false;
            self.spare[s].port.jobs.grant.next = false;
            self.spare[s].port.jobs.path.next = 0.into();
            self.spare[s].port.jobs.number.next = 0.into();
            self.spare[s].port.jobs.over.next = true;
            self.spare[s].port.item_ready.next = false;
        }
    }
}
