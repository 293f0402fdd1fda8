//! A compact engine's share of a split search (see the engine's module
//! docs): the job level and the walk above it, the jobs the walker finds
//! and hands to the queue, the job being searched (its number, the level
//! its path rejoins the stack at), and what the replayed squares count as.

use rust_hdl::prelude::*;

use crate::platform::{JobPort, JOB_PATH_BITS};

/// The job share's registers and their bookkeeping.
#[derive(LogicBlock)]
pub struct CompactShare<const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The job queue's side of the engine's port.
    pub jobs: JobPort,
    /// A search starts, split at `split_level` (0: not split).
    pub start: Signal<In, bool>,
    pub split_level: Signal<In, Bits<8>>,
    /// The engine waits for a job (its state `Next`).
    pub waiting: Signal<In, bool>,
    /// The start square was entered (its state `Root`).
    pub rooted_now: Signal<In, bool>,
    /// The walk, or the job, is over.
    pub walk_over: Signal<In, bool>,
    /// A job is taken (granted in `Next`); the level its path rejoins the
    /// stack at.
    pub take_job: Signal<In, bool>,
    pub rejoin_level: Signal<In, Bits<LB>>,
    /// The unwind to the rejoin level is over.
    pub unwound: Signal<In, bool>,
    /// A square is entered, one level below the current (`level`), its
    /// path `entered_path`.
    pub entering: Signal<In, bool>,
    pub level: Signal<In, Bits<LB>>,
    pub entered_path: Signal<In, Bits<JOB_PATH_BITS>>,
    /// The search is done: its walk too.
    pub done: Signal<In, bool>,

    /// The job level; the search is split; the walker still walks; the
    /// replay counts its squares (the host's path, not a job's).
    pub split: Signal<Out, Bits<LB>>,
    pub splitting: Signal<Out, bool>,
    pub walking: Signal<Out, bool>,
    pub counting_replay: Signal<Out, bool>,
    /// The start square was entered (a job rejoins the stack); a job is
    /// being unwound into, down to `rejoin_at`.
    pub rooted: Signal<Out, bool>,
    pub unwinding: Signal<Out, bool>,
    pub rejoin_at: Signal<Out, Bits<LB>>,
    /// The square entered, at the job level of the walk, is handed out as
    /// a job (the queue had room).
    pub hand_out: Signal<Out, bool>,

    walker: Constant<bool>,
    split_held: DFF<Bits<LB>>,
    // The level above the job level: a level compared, not a sum (the
    // compare decides whether a square entered is a job, late in a clock).
    split_parent: DFF<Bits<LB>>,
    splitting_held: DFF<bool>,
    walking_held: DFF<bool>,
    counting_held: DFF<bool>,
    rooted_held: DFF<bool>,
    unwinding_held: DFF<bool>,
    rejoin_held: DFF<Bits<LB>>,
    queue_room: DFF<bool>,
    jobs_found: DFF<Bits<32>>,
    current_job: DFF<Bits<32>>,
    found_pulse: DFF<bool>,
    found_path: DFF<Bits<JOB_PATH_BITS>>,
    found_number: DFF<Bits<32>>,
    at_job: Signal<Local, bool>,
    handing_out: Signal<Local, bool>,
}

impl<const LB: usize> CompactShare<LB> {
    pub fn new(walker: bool) -> Self {
        CompactShare {
            clock: Default::default(),
            jobs: Default::default(),
            start: Default::default(),
            split_level: Default::default(),
            waiting: Default::default(),
            rooted_now: Default::default(),
            walk_over: Default::default(),
            take_job: Default::default(),
            rejoin_level: Default::default(),
            unwound: Default::default(),
            entering: Default::default(),
            level: Default::default(),
            entered_path: Default::default(),
            done: Default::default(),
            split: Default::default(),
            splitting: Default::default(),
            walking: Default::default(),
            counting_replay: Default::default(),
            rooted: Default::default(),
            unwinding: Default::default(),
            rejoin_at: Default::default(),
            hand_out: Default::default(),
            walker: Constant::new(walker),
            split_held: Default::default(),
            split_parent: Default::default(),
            splitting_held: Default::default(),
            walking_held: Default::default(),
            counting_held: Default::default(),
            rooted_held: Default::default(),
            unwinding_held: Default::default(),
            rejoin_held: Default::default(),
            queue_room: Default::default(),
            jobs_found: Default::default(),
            current_job: Default::default(),
            found_pulse: Default::default(),
            found_path: Default::default(),
            found_number: Default::default(),
            at_job: Default::default(),
            handing_out: Default::default(),
        }
    }
}

impl<const LB: usize> Logic for CompactShare<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, split_held, split_parent, splitting_held, walking_held, counting_held, rooted_held);
        dff_setup!(self, clock, unwinding_held, rejoin_held, queue_room, jobs_found, current_job, found_pulse);
        dff_setup!(self, clock, found_path, found_number);
        self.split.next = self.split_held.q.val();
        self.splitting.next = self.splitting_held.q.val();
        self.walking.next = self.walking_held.q.val();
        self.counting_replay.next = self.counting_held.q.val();
        self.rooted.next = self.rooted_held.q.val();
        self.unwinding.next = self.unwinding_held.q.val();
        self.rejoin_at.next = self.rejoin_held.q.val();

        // The walker's found jobs out, the queue's taken while waiting.
        self.queue_room.d.next = self.jobs.space.val();
        self.found_pulse.d.next = false;
        self.jobs.found.next = self.found_pulse.q.val();
        self.jobs.found_path.next = self.found_path.q.val();
        self.jobs.found_number.next = self.found_number.q.val();
        self.jobs.walking.next = self.walking_held.q.val();
        self.jobs.request.next = self.waiting.val() & !self.jobs.grant.val();
        self.jobs.job.next = self.current_job.q.val();

        if self.rooted_now.val() {
            self.rooted_held.d.next = true;
        }
        if self.walk_over.val() {
            self.walking_held.d.next = false;
        }
        // A job taken: its number and rejoin level; replayed squares are
        // the walker's, not the job's; from the root, the first is entered
        // from the start square, the later ones unwound into.
        if self.take_job.val() {
            self.current_job.d.next = self.jobs.number.val();
            self.rejoin_held.d.next = self.rejoin_level.val();
            self.counting_held.d.next = false;
            if self.rooted_held.q.val() {
                self.unwinding_held.d.next = true;
            }
        }
        if self.unwound.val() {
            self.unwinding_held.d.next = false;
        }
        // A square entered at the job level of the walk is a job, numbered
        // in order: handed out when the queue has room, else searched here.
        self.at_job.next = self.walking_held.q.val() & (self.level.val() == self.split_parent.q.val());
        self.handing_out.next = self.entering.val() & self.at_job.val() & self.queue_room.q.val();
        self.hand_out.next = self.handing_out.val();
        if self.entering.val() & self.at_job.val() {
            self.jobs_found.d.next = self.jobs_found.q.val() + 1;
            self.current_job.d.next = self.jobs_found.q.val();
        }
        if self.handing_out.val() {
            self.found_pulse.d.next = true;
            self.found_path.d.next = self.entered_path.val();
            self.found_number.d.next = self.jobs_found.q.val();
            self.current_job.d.next = self.current_job.q.val();
        }
        if self.done.val() {
            self.walking_held.d.next = false;
        }
        if self.start.val() {
            self.split_held.d.next = bit_cast::<LB, 8>(self.split_level.val());
            self.split_parent.d.next = bit_cast::<LB, 8>(self.split_level.val()) - 1;
            self.splitting_held.d.next = self.split_level.val().any();
            self.walking_held.d.next = self.walker.val() & self.split_level.val().any();
            self.counting_held.d.next = self.walker.val();
            self.rooted_held.d.next = false;
            self.unwinding_held.d.next = false;
            self.jobs_found.d.next = 0.into();
            self.current_job.d.next = 0.into();
        }
    }
}
