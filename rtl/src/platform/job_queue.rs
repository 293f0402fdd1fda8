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
//!
//! A queue serving more than [`HAND_OVER_REGISTERED_ABOVE`] engines registers
//! the grant and the job read once more before they go out: a block RAM's
//! output routed straight to the farthest of 20 engines on the 25F was the
//! longest path of an N-Queens build. The engine then takes the job two
//! clocks after the grant is decided, and its request is not counted for
//! three. Smaller builds are the iCE40's, full to the last cell, where the
//! registers cost about 80 cells and the engines lie close together.

use rust_hdl::prelude::*;

use super::engine_port::JOB_PATH_BITS;

/// The queue holds `2^QUEUE_BITS` jobs: one block RAM deep. (16 places ran
/// twenty 6x6 engines 22% slower: they ran out of jobs while the walker
/// searched one itself.)
pub const QUEUE_BITS: usize = 8;

/// The most engines a queue hands its jobs straight from its block RAM to.
pub const HAND_OVER_REGISTERED_ABOVE: usize = 8;

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
    // One search alone (one engine of one search) never shares: the queue
    // then synthesises away.
    sharing: Constant<bool>,
    // The grant and the job go out through registers of their own.
    registered_hand_over: Constant<bool>,

    paths: RAM<Bits<JOB_PATH_BITS>, QUEUE_BITS>,
    numbers: RAM<Bits<32>, QUEUE_BITS>,
    head: DFF<Bits<QUEUE_BITS>>,
    tail: DFF<Bits<QUEUE_BITS>>,
    count: DFF<Bits<16>>,
    granted: DFF<Bits<MAX_CLIENTS>>,
    // The grant a clock later: the job on its way out (registered hand-over),
    // or the clock after the engine took it.
    handed: DFF<Bits<MAX_CLIENTS>>,
    handed_before: DFF<Bits<MAX_CLIENTS>>,
    handed_path: DFF<Bits<JOB_PATH_BITS>>,
    handed_number: DFF<Bits<32>>,
    registered_requests: DFF<Bits<MAX_CLIENTS>>,
    push_valid: DFF<bool>,
    push_path: DFF<Bits<JOB_PATH_BITS>>,
    push_number: DFF<Bits<32>>,
    // Room for the walker's next job, registered (the count's compare into
    // the walker's state machine was the next longest path).
    room_left: DFF<bool>,

    available: Signal<Local, bool>,
    asking: Signal<Local, Bits<MAX_CLIENTS>>,
    taken: Signal<Local, bool>,
}

impl JobQueue {
    /// A queue for `clients` engines (engine 0 the walker); `shared`: they
    /// run more than one search (several engines, or an engine of several
    /// searches), so a search is split into jobs.
    pub fn new(clients: usize, shared: bool) -> Self {
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
            // The walker sees the room two clocks late, and up to four jobs
            // are on their way (its found pulse, the push register, the
            // count, the room's register), so it is told the queue is full
            // five places early.
            room: Constant::new(((1u64 << QUEUE_BITS) - 5).into()),
            sharing: Constant::new(shared),
            registered_hand_over: Constant::new(clients > HAND_OVER_REGISTERED_ABOVE),
            paths: Default::default(),
            numbers: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            count: Default::default(),
            granted: Default::default(),
            handed: Default::default(),
            handed_before: Default::default(),
            handed_path: Default::default(),
            handed_number: Default::default(),
            registered_requests: Default::default(),
            push_valid: Default::default(),
            push_path: Default::default(),
            push_number: Default::default(),
            room_left: Default::default(),
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
            handed,
            handed_before,
            handed_path,
            handed_number,
            registered_requests,
            push_valid,
            push_path,
            push_number,
            room_left
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
        self.available.next = self.count.q.val().any() & self.sharing.val();
        self.asking.next = self.registered_requests.q.val() & !(self.granted.q.val() | self.handed.q.val());
        if self.registered_hand_over.val() {
            self.asking.next = self.registered_requests.q.val()
                & !(self.granted.q.val() | self.handed.q.val() | self.handed_before.q.val());
        }
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

        self.handed.d.next = self.granted.q.val();
        self.handed_before.d.next = self.handed.q.val();
        self.handed_path.d.next = self.paths.read_data.val();
        self.handed_number.d.next = self.numbers.read_data.val();
        self.grants.next = self.granted.q.val();
        self.path.next = self.paths.read_data.val();
        self.number.next = self.numbers.read_data.val();
        if self.registered_hand_over.val() {
            self.grants.next = self.handed.q.val();
            self.path.next = self.handed_path.q.val();
            self.number.next = self.handed_number.q.val();
        }
        // (A queue of one engine hands nothing out: it has no room, so the
        // walker searches every job itself.)
        self.room_left.d.next = (self.count.q.val() < self.room.val()) & self.sharing.val();
        self.space.next = self.room_left.q.val();
        // (A job granted is on its way out for a clock when registered.)
        self.over.next = !self.walking.val()
            & !self.found.val()
            & !self.push_valid.q.val()
            & !self.count.q.val().any()
            & !(self.granted.q.val().any() & self.registered_hand_over.val());

        if self.clear.val() {
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.count.d.next = 0.into();
            self.granted.d.next = 0.into();
            self.handed.d.next = 0.into();
            self.handed_before.d.next = 0.into();
            self.push_valid.d.next = false;
            self.room_left.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three jobs in; engines 2 and 1 ask: engine 1 is served first, each
    /// takes a job, in order, with its grant; the queue ends over. The
    /// grants come `delay` clocks after the engines first ask.
    fn serve_three_jobs(clients: usize, delay: usize) {
        let mut uut = JobQueue::new(clients, true);
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
            wait_clock_cycle!(sim, clock, x);
            sim_assert!(sim, x.space.val() & !x.over.val(), x);
            let mut served = Vec::new();
            x.requests.next = 0b110.into();
            for clock in 1..=14 {
                wait_clock_cycle!(sim, clock, x);
                let grants = x.grants.val();
                if grants.any() {
                    served.push((
                        clock,
                        grants.get_bits::<8>(0).to_u64(),
                        x.path.val().to_u64(),
                        x.number.val().to_u64(),
                    ));
                    // The granted engine stops asking once it holds a job.
                    x.requests.next = x.requests.val() & !grants;
                }
                if !x.requests.val().any() {
                    x.requests.next = 0b110.into();
                }
                // No job is over while one is on its way out.
                sim_assert!(sim, !x.over.val() | (served.len() == 3), x);
            }
            sim_assert_eq!(sim, served.len(), 3, x);
            sim_assert_eq!(sim, served[0], (delay, 0b010, 0o100, 0), x);
            sim_assert_eq!(sim, (served[1].1, served[1].2, served[1].3), (0b100, 0o101, 1), x);
            sim_assert_eq!(sim, served[2].2, 0o102, x);
            sim_assert!(sim, x.over.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }

    /// A queue for a few engines hands a job out straight from its RAM.
    #[test]
    fn serves_jobs_in_order_to_the_lowest_engine_asking() {
        serve_three_jobs(3, 2);
    }

    /// A queue for many engines hands it out through registers: a clock
    /// later, the same jobs to the same engines.
    #[test]
    fn serves_jobs_in_order_through_registers_to_many_engines() {
        serve_three_jobs(HAND_OVER_REGISTERED_ABOVE + 1, 3);
    }

    /// One engine of one search: it never shares, nothing is granted.
    #[test]
    fn a_single_search_is_never_granted_a_job() {
        let mut uut = JobQueue::new(1, false);
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
