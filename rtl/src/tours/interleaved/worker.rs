//! The interleaved engine on the platform's port: five searches that count.
//!
//! Engine 0, the walker, starts the search's own root job (below the
//! search's path, if any) in its ring: split, that search walks the levels
//! above the job level and offers their nodes to the queue (see
//! [`super::decide`]). Every engine asks for a job whenever it holds none,
//! and hands the one it holds to its ring when a slot comes free; a job's
//! root and every node below it are its searcher's to count. It counts
//! only: first-K, which streams tours, is refused. (A count does not depend
//! on the move order, so Warnsdorff's order counts in the fixed one.)

use rust_hdl::prelude::*;

use super::Interleaved;
use knights_protocol::error;

use crate::platform::{EnginePort, JobRole, JOB_PATH_BITS};
use crate::tours::common::arguments::KnightArguments;
use crate::tours::common::geometry::Geometry;
use crate::tours::wide::board_setup::BoardSetup;

#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum WorkerState {
    Idle,
    Setup,
    Run,
    Stop,
    Done,
}

#[derive(LogicBlock)]
pub struct Worker<const SQ: usize, const LB: usize, const AB: usize> {
    pub clock: Signal<In, Clock>,
    pub port: EnginePort,

    walker: Constant<bool>,
    counts_only: Constant<Bits<8>>,
    request: KnightArguments<LB>,
    board_setup: BoardSetup<SQ>,
    ring: Interleaved<SQ, LB, AB>,
    state: DFF<WorkerState>,
    // The job held for the next free slot: its path and moves, and whether
    // it is the search's own root job.
    held: DFF<bool>,
    held_path: DFF<Bits<JOB_PATH_BITS>>,
    held_length: DFF<Bits<8>>,
    held_rooted: DFF<bool>,
    split: DFF<Bits<8>>,
    jobs_found: DFF<Bits<32>>,
    starting: Signal<Local, bool>,
}

impl<const SQ: usize, const LB: usize, const AB: usize> Worker<SQ, LB, AB> {
    /// An engine for boards up to `max_width` × `max_height` in `role`.
    pub fn new(max_width: usize, max_height: usize, role: JobRole, visited_in_block_ram: bool) -> Self {
        Worker {
            clock: Default::default(),
            port: Default::default(),
            walker: Constant::new(role == JobRole::Walker),
            counts_only: Constant::new(u64::from(error::BAD_ARGUMENT).into()),
            request: KnightArguments::new(Geometry::new(max_width, max_height), true),
            board_setup: BoardSetup::new(Geometry::new(max_width, max_height)),
            ring: match role {
                JobRole::Walker => Interleaved::new(max_width, max_height),
                JobRole::Worker => Interleaved::new(max_width, max_height).without_walk(),
            }
            .visited_in_block_ram(visited_in_block_ram),
            state: Default::default(),
            held: Default::default(),
            held_path: Default::default(),
            held_length: Default::default(),
            held_rooted: Default::default(),
            split: Default::default(),
            jobs_found: Default::default(),
            starting: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize, const AB: usize> Logic for Worker<SQ, LB, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, held, held_path, held_length, held_rooted, split, jobs_found);
        clock!(self, clock, request, board_setup, ring);
        self.request.arguments.next = self.port.arguments.val();
        self.port.refusal.next = self.request.refusal.val();
        // (Flag bit 2: count.)
        if !self.request.refusal.val().any() & !self.port.arguments.val().get_bit(34) {
            self.port.refusal.next = self.counts_only.val();
        }
        self.board_setup.width.next = self.request.width.val();
        self.board_setup.height.next = self.request.height.val();
        self.board_setup.start.next = false;
        self.board_setup.step.next = false;

        // The ring's settings, held while it runs.
        self.ring.board.next = self.board_setup.board.val();
        self.ring.area.next = self.board_setup.area.val();
        self.ring.prune.next = self.request.prune.val();
        self.ring.closed.next = self.request.closed.val();
        self.ring.start_at.next = self.request.start_square.val();
        self.ring.job_valid.next = self.held.q.val();
        self.ring.job_path.next = self.held_path.q.val();
        self.ring.job_length.next = self.held_length.q.val();
        self.ring.job_rooted.next = self.held_rooted.q.val();
        self.ring.cancel.next = self.state.q.val() == WorkerState::Stop;
        // Split only above the last level (a job is never a whole tour).
        self.ring.split.next = 0.into();
        if bit_cast::<16, 8>(self.split.q.val()) + 1 < self.board_setup.area.val() {
            self.ring.split.next = bit_cast::<LB, 8>(self.split.q.val());
        }
        self.ring.space.next = self.port.jobs.space.val();

        // A job is asked for while none is held, and handed on when a slot
        // takes it.
        self.port.jobs.request.next =
            (self.state.q.val() == WorkerState::Run) & !self.held.q.val() & self.ring.split.val().any();
        if self.ring.job_valid.val() & self.ring.job_ready.val() {
            self.held.d.next = false;
        }
        if self.port.jobs.grant.val() {
            self.held.d.next = true;
            self.held_path.d.next = self.port.jobs.path.val();
            self.held_length.d.next = self.split.q.val();
            self.held_rooted.d.next = false;
        }
        // The walk's jobs, numbered as they are found.
        self.port.jobs.found.next = self.ring.found.val();
        self.port.jobs.found_path.next = self.ring.found_path.val();
        self.port.jobs.found_number.next = self.jobs_found.q.val();
        if self.ring.found.val() {
            self.jobs_found.d.next = self.jobs_found.q.val() + 1;
        }
        self.port.jobs.walking.next = self.ring.walking.val() | (self.held.q.val() & self.held_rooted.q.val());
        self.port.jobs.job.next = 0.into();

        // Counts only: nothing streams.
        self.port.item.next = 0.into();
        self.port.item_valid.next = false;
        self.port.item_last.next = false;
        self.port.streaming.next = false;
        self.port.result_items.next = self.board_setup.area.val();
        self.port.nodes.next = bit_cast::<16, 4>(self.ring.nodes.val());
        self.port.solutions.next = bit_cast::<16, 4>(self.ring.tours.val());
        self.port.busy.next = (self.state.q.val() != WorkerState::Idle) & (self.state.q.val() != WorkerState::Done);

        match self.state.q.val() {
            WorkerState::Setup => {
                self.board_setup.step.next = true;
                if self.board_setup.last_rank.val() {
                    // The walker starts the search's own job: the path's
                    // moves, walked above the job level. The others wait
                    // for jobs.
                    self.state.d.next = WorkerState::Done;
                    if self.request.count_all.val() & (self.walker.val() | self.split.q.val().any()) {
                        self.state.d.next = WorkerState::Run;
                    }
                    if self.walker.val() {
                        self.held.d.next = true;
                        self.held_path.d.next = self.port.path.val();
                        self.held_length.d.next = self.port.path_length.val();
                        self.held_rooted.d.next = true;
                    }
                }
            }
            WorkerState::Run => {
                if self.port.cancel.val() {
                    self.state.d.next = WorkerState::Stop;
                } else if self.port.jobs.over.val()
                    & !self.port.jobs.grant.val()
                    & !self.held.q.val()
                    & !self.ring.busy.val()
                {
                    self.state.d.next = WorkerState::Done;
                }
            }
            WorkerState::Stop => {
                // The ring drops its searches as they pass its last stage.
                self.held.d.next = false;
                if !self.ring.busy.val() {
                    self.state.d.next = WorkerState::Done;
                }
            }
            _ => {}
        }
        self.starting.next = self.port.start.val()
            & ((self.state.q.val() == WorkerState::Idle) | (self.state.q.val() == WorkerState::Done));
        self.request.latch.next = self.starting.val();
        if self.starting.val() {
            self.board_setup.start.next = true;
            self.split.d.next = self.port.split_level.val();
            self.jobs_found.d.next = 0.into();
            self.held.d.next = false;
            self.state.d.next = WorkerState::Setup;
        }
    }
}
