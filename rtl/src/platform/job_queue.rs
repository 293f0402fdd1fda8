//! The job queue: the walker's jobs in, one job a clock out to the first
//! engine asking.
//!
//! The walker (engine 0) finds jobs as it walks the levels above the split
//! level; each goes in at the head (registered first, so that the walker's
//! logic is not drawn across the chip to the queue's block RAM). The other
//! engines ask as they run out of work; their requests are registered here
//! too (each engine's request logic lies by the engine), and the job at the
//! tail goes to the lowest-numbered engine asking. The RAM's read is
//! registered, so the granted engine takes the job a clock later, with its
//! grant; an engine's registered request stays up for two clocks after its
//! grant, so those are not counted as asking.

use rust_hdl::prelude::*;

use super::engine_port::JOB_PATH_BITS;

/// The queue holds `2^QUEUE_BITS` jobs: one block RAM deep. (16 places ran
/// twenty 6x6 engines 22% slower: they ran out of jobs while the walker
/// searched one itself.)
pub const QUEUE_BITS: usize = 8;

/// The most engines a queue serves (one bit each in `requests`).
pub const MAX_CLIENTS: usize = super::MAX_ENGINES;

#[derive(LogicBlock)]
pub struct JobQueue {
    pub clock: Signal<In, Clock>,
    /// Empties the queue for a new search (wins over everything else).
    pub clear: Signal<In, bool>,
    /// The engines asking for a job, a bit each (engine `i`: bit `i`).
    pub requests: Signal<In, Bits<MAX_CLIENTS>>,
    /// The walker's job: taken when `found` is high.
    pub found: Signal<In, bool>,
    pub found_path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub found_number: Signal<In, Bits<32>>,
    /// The walker is still walking: more jobs may come.
    pub walking: Signal<In, bool>,
    /// The engine granted a job this clock (one bit or none): it takes
    /// `path` and `number` now.
    pub grants: Signal<Out, Bits<MAX_CLIENTS>>,
    pub path: Signal<Out, Bits<JOB_PATH_BITS>>,
    pub number: Signal<Out, Bits<32>>,
    /// The walker may hand over another job.
    pub space: Signal<Out, bool>,
    /// The queue is empty and the walker is done: no job will come.
    pub over: Signal<Out, bool>,

    room: Constant<Bits<16>>,
    // One engine never shares: the queue then synthesises away.
    sharing: Constant<bool>,

    paths: RAM<Bits<JOB_PATH_BITS>, QUEUE_BITS>,
    numbers: RAM<Bits<32>, QUEUE_BITS>,
    head: DFF<Bits<QUEUE_BITS>>,
    tail: DFF<Bits<QUEUE_BITS>>,
    count: DFF<Bits<16>>,
    granted: DFF<Bits<MAX_CLIENTS>>,
    granted_before: DFF<Bits<MAX_CLIENTS>>,
    registered_requests: DFF<Bits<MAX_CLIENTS>>,
    push_valid: DFF<bool>,
    push_path: DFF<Bits<JOB_PATH_BITS>>,
    push_number: DFF<Bits<32>>,

    available: Signal<Local, bool>,
    asking: Signal<Local, Bits<MAX_CLIENTS>>,
    taken: Signal<Local, bool>,
}

impl JobQueue {
    /// A queue for `clients` engines (engine 0 the walker).
    pub fn new(clients: usize) -> Self {
        assert!((1..=MAX_CLIENTS).contains(&clients));
        JobQueue {
            clock: Default::default(),
            clear: Default::default(),
            requests: Default::default(),
            found: Default::default(),
            found_path: Default::default(),
            found_number: Default::default(),
            walking: Default::default(),
            grants: Default::default(),
            path: Default::default(),
            number: Default::default(),
            space: Default::default(),
            over: Default::default(),
            // The walker sees the room a clock late, and up to three jobs
            // are on their way (its found pulse, the push register, the
            // count), so it is told the queue is full four places early.
            room: Constant::new(((1u64 << QUEUE_BITS) - 4).into()),
            sharing: Constant::new(clients > 1),
            paths: Default::default(),
            numbers: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            count: Default::default(),
            granted: Default::default(),
            granted_before: Default::default(),
            registered_requests: Default::default(),
            push_valid: Default::default(),
            push_path: Default::default(),
            push_number: Default::default(),
            available: Default::default(),
            asking: Default::default(),
            taken: Default::default(),
        }
    }
}

impl Logic for JobQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            head,
            tail,
            count,
            granted,
            granted_before,
            registered_requests,
            push_valid,
            push_path,
            push_number
        );
        self.paths.write_clock.next = self.clock.val();
        self.paths.read_clock.next = self.clock.val();
        self.numbers.write_clock.next = self.clock.val();
        self.numbers.read_clock.next = self.clock.val();

        // In at the head, a clock after the walker found it.
        self.push_valid.d.next = self.found.val();
        self.push_path.d.next = self.found_path.val();
        self.push_number.d.next = self.found_number.val();
        self.paths.write_address.next = self.head.q.val();
        self.numbers.write_address.next = self.head.q.val();
        self.paths.write_data.next = self.push_path.q.val();
        self.numbers.write_data.next = self.push_number.q.val();
        self.paths.write_enable.next = self.push_valid.q.val();
        self.numbers.write_enable.next = self.push_valid.q.val();

        // Out at the tail to the lowest-numbered engine asking.
        self.registered_requests.d.next = self.requests.val();
        self.granted_before.d.next = self.granted.q.val();
        self.available.next = self.count.q.val().any() & self.sharing.val();
        self.asking.next = self.registered_requests.q.val() & !(self.granted.q.val() | self.granted_before.q.val());
        self.taken.next = self.available.val() & self.asking.val().any();
        // (The lowest set bit, through the carry chain: a priority chain
        // over the engines was the 85F build's longest path with 64.)
        self.granted.d.next = 0.into();
        if self.available.val() {
            self.granted.d.next = self.asking.val() & (!self.asking.val() + 1);
        }
        self.paths.read_address.next = self.tail.q.val();
        self.numbers.read_address.next = self.tail.q.val();
        if self.taken.val() {
            self.tail.d.next = self.tail.q.val() + 1;
        }
        if self.push_valid.q.val() {
            self.head.d.next = self.head.q.val() + 1;
            if !self.taken.val() {
                self.count.d.next = self.count.q.val() + 1;
            }
        } else if self.taken.val() {
            self.count.d.next = self.count.q.val() - 1;
        }

        self.grants.next = self.granted.q.val();
        self.path.next = self.paths.read_data.val();
        self.number.next = self.numbers.read_data.val();
        // (A queue of one engine hands nothing out: it has no room, so the
        // walker searches every job itself.)
        self.space.next = (self.count.q.val() < self.room.val()) & self.sharing.val();
        self.over.next = !self.walking.val() & !self.found.val() & !self.push_valid.q.val() & !self.count.q.val().any();

        if self.clear.val() {
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.count.d.next = 0.into();
            self.granted.d.next = 0.into();
            self.granted_before.d.next = 0.into();
            self.push_valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three jobs in; engines 2 and 1 ask: engine 1 is served first, each
    /// takes a job, in order, a clock after its grant; the queue ends over.
    #[test]
    fn serves_jobs_in_order_to_the_lowest_engine_asking() {
        let mut uut = JobQueue::new(3);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<JobQueue>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<JobQueue>| {
            let mut x = sim.init()?;
            x.walking.next = true;
            for job in 0..3u64 {
                x.found.next = true;
                x.found_path.next = (0o100 + job).into();
                x.found_number.next = job.into();
                wait_clock_cycle!(sim, clock, x);
            }
            x.found.next = false;
            x.walking.next = false;
            sim_assert!(sim, x.space.val() & !x.over.val(), x);
            let mut served = Vec::new();
            x.requests.next = 0b110.into();
            for _ in 0..12 {
                wait_clock_cycle!(sim, clock, x);
                let grants = x.grants.val();
                if grants.any() {
                    served.push((grants.get_bits::<8>(0).to_u64(), x.path.val().to_u64(), x.number.val().to_u64()));
                    // The granted engine stops asking once it holds a job.
                    x.requests.next = x.requests.val() & !grants;
                }
                if !x.requests.val().any() {
                    x.requests.next = 0b110.into();
                }
            }
            sim_assert_eq!(sim, served.len(), 3, x);
            sim_assert_eq!(sim, served[0], (0b010, 0o100, 0), x);
            sim_assert_eq!(sim, served[1], (0b100, 0o101, 1), x);
            sim_assert_eq!(sim, served[2].1, 0o102, x);
            sim_assert!(sim, x.over.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }

    /// One engine: it never shares, nothing is granted.
    #[test]
    fn a_single_engine_is_never_granted_a_job() {
        let mut uut = JobQueue::new(1);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<JobQueue>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<JobQueue>| {
            let mut x = sim.init()?;
            x.found.next = true;
            x.requests.next = 1.into();
            for _ in 0..6 {
                wait_clock_cycle!(sim, clock, x);
                sim_assert!(sim, !x.grants.val().any(), x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }
}
