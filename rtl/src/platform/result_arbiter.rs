//! The result arbiter: which engine's result goes out next, and its items'
//! way to the response sender.
//!
//! One engine is served per clock, in turn among the search's engines (so a
//! run on N of them takes the clocks an N-engine build would). When the
//! served engine has a result ready it is *offered*; once the controller
//! takes it (sends the frame's header), that engine owns the stream until
//! its last item is out, and the others wait. A stop (abort, or the K-th
//! result sent) cancels every engine but the one streaming: a frame is
//! never cut.
//!
//! Items go out through a register, and the owner is told `item_ready` from
//! a register too: the response sender's handshake would otherwise run
//! through the arbiter into the engine's state machine in one clock (the
//! iCE40 queens build's longest path), and the engines' items through the
//! arbiter into the sender's (the ULX3S-85F's). An item then takes two
//! clocks, far less than the UART byte it becomes.
//!
//! The offer is a register too: the served engine's result, ORed over 96
//! engines, ran through the controller's choice of frame into the response
//! sender's load (the 96-search ULX3S-85F queens build's longest path). An
//! offer is the served engine's of the clock before; it stays good because
//! an engine holds its first item until it is taken or cancelled, and it is
//! dropped while a result streams (so the stream's end never leaves a stale
//! one).

use rust_hdl::prelude::*;

use super::{per_engine, MAX_ENGINES};

#[derive(LogicBlock)]
pub struct ResultArbiter {
    pub clock: Signal<In, Clock>,
    /// A new search on the first `use_engines` engines (0: all).
    pub clear: Signal<In, bool>,
    pub use_engines: Signal<In, Bits<8>>,
    /// The offered result is taken: its engine streams it now.
    pub take: Signal<In, bool>,
    /// The response sender takes an item.
    pub ready: Signal<In, bool>,
    /// Stop the search (every engine but the one streaming).
    pub stop: Signal<In, bool>,
    /// Each engine's result stream and job tag.
    pub items: Vec<Signal<In, Bits<8>>>,
    pub item_valids: Vec<Signal<In, bool>>,
    pub item_lasts: Vec<Signal<In, bool>>,
    pub jobs: Vec<Signal<In, Bits<32>>>,
    /// Each engine's handshake back, and its cancel.
    pub item_readies: Vec<Signal<Out, bool>>,
    pub cancels: Vec<Signal<Out, bool>>,
    /// The engine served this clock has a result: its number and job.
    pub offered: Signal<Out, bool>,
    pub offered_engine: Signal<Out, Bits<8>>,
    pub offered_job: Signal<Out, Bits<32>>,
    /// The stream of the result being sent.
    pub item: Signal<Out, Bits<8>>,
    pub item_valid: Signal<Out, bool>,
    pub item_last: Signal<Out, bool>,
    /// A result is being streamed (its last item may still be held).
    pub streaming: Signal<Out, bool>,

    number: Vec<Constant<Bits<8>>>,
    // The run's last engine: the turn goes round the first `use_engines`.
    run_last: Vec<Constant<bool>>,
    engine_count: Constant<Bits<8>>,
    // The turn (the engine served this clock) and the stream's owner, a bit
    // an engine: registers as wide as the build, not as the platform's
    // widest (a 128-bit turn was a tenth of an iCE40 queens build's
    // flip-flops).
    serve: Vec<DFF<bool>>,
    last_served: Vec<DFF<bool>>,
    // The offer registered: which engine (a bit an engine), its number and
    // job.
    offer_held: Vec<DFF<bool>>,
    offered_held: DFF<bool>,
    engine_held: DFF<Bits<8>>,
    job_held: DFF<Bits<32>>,
    owner: Vec<DFF<bool>>,
    stream_on: DFF<bool>,
    wrap_chain: Vec<Signal<Local, bool>>,
    wraps: Signal<Local, bool>,
    offers: Vec<Signal<Local, bool>>,
    offer_chain: Vec<Signal<Local, bool>>,
    engine_chain: Vec<Signal<Local, Bits<8>>>,
    job_chain: Vec<Signal<Local, Bits<32>>>,
    owns: Vec<Signal<Local, bool>>,
    // The owner's stream, ORed along the engines (only the owner drives
    // it): an OR reduces to a tree, a chain of muxes did not.
    item_chain: Vec<Signal<Local, Bits<8>>>,
    valid_chain: Vec<Signal<Local, bool>>,
    last_chain: Vec<Signal<Local, bool>>,
    owner_item: Signal<Local, Bits<8>>,
    owner_valid: Signal<Local, bool>,
    owner_last: Signal<Local, bool>,
    // The item on its way to the sender, and whether the owner may hand
    // over one this clock (never while one is held and not taken).
    held: DFF<bool>,
    held_item: DFF<Bits<8>>,
    held_last: DFF<bool>,
    taking: DFF<bool>,
    accept: Signal<Local, bool>,
    sends: Signal<Local, bool>,
}

impl ResultArbiter {
    pub fn new(engines: usize) -> Self {
        assert!((1..=MAX_ENGINES).contains(&engines));
        ResultArbiter {
            clock: Default::default(),
            clear: Default::default(),
            use_engines: Default::default(),
            take: Default::default(),
            ready: Default::default(),
            stop: Default::default(),
            items: per_engine(engines),
            item_valids: per_engine(engines),
            item_lasts: per_engine(engines),
            jobs: per_engine(engines),
            item_readies: per_engine(engines),
            cancels: per_engine(engines),
            offered: Default::default(),
            offered_engine: Default::default(),
            offered_job: Default::default(),
            item: Default::default(),
            item_valid: Default::default(),
            item_last: Default::default(),
            streaming: Default::default(),
            number: (0..engines).map(|i| Constant::new((i as u64).into())).collect(),
            run_last: (0..engines).map(|i| Constant::new(i + 1 == engines)).collect(),
            engine_count: Constant::new((engines as u64).into()),
            serve: per_engine(engines),
            last_served: per_engine(engines),
            offer_held: per_engine(engines),
            offered_held: Default::default(),
            engine_held: Default::default(),
            job_held: Default::default(),
            owner: per_engine(engines),
            stream_on: Default::default(),
            wrap_chain: per_engine(engines),
            wraps: Default::default(),
            offers: per_engine(engines),
            offer_chain: per_engine(engines),
            engine_chain: per_engine(engines),
            job_chain: per_engine(engines),
            owns: per_engine(engines),
            item_chain: per_engine(engines),
            valid_chain: per_engine(engines),
            last_chain: per_engine(engines),
            owner_item: Default::default(),
            owner_valid: Default::default(),
            owner_last: Default::default(),
            held: Default::default(),
            held_item: Default::default(),
            held_last: Default::default(),
            taking: Default::default(),
            accept: Default::default(),
            sends: Default::default(),
        }
    }
}

impl Logic for ResultArbiter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, stream_on, held, held_item, held_last, taking, offered_held, engine_held, job_held);
        // The turn moves a bit an engine a clock, from the run's last
        // engine back to the first.
        self.wrap_chain[0].next = self.serve[0].q.val() & self.last_served[0].q.val();
        self.wraps.next = self.wrap_chain[0].val();
        for i in 1..self.serve.len() {
            self.wrap_chain[i].next =
                self.wrap_chain[i - 1].val() | (self.serve[i].q.val() & self.last_served[i].q.val());
            self.wraps.next = self.wrap_chain[i].val();
        }
        for i in 0..self.serve.len() {
            self.serve[i].clock.next = self.clock.val();
            self.last_served[i].clock.next = self.clock.val();
            self.owner[i].clock.next = self.clock.val();
            self.offer_held[i].clock.next = self.clock.val();
            self.serve[i].d.next = self.wraps.val();
            self.last_served[i].d.next = self.last_served[i].q.val();
            self.owner[i].d.next = self.owner[i].q.val();
        }
        for i in 1..self.serve.len() {
            self.serve[i].d.next = self.serve[i - 1].q.val() & !self.last_served[i - 1].q.val();
        }

        // The served engine's offer, ORed along the engines like the
        // stream (one is served): a tree, where a chain of muxes over the
        // engines' job tags took 2,233 more LUT4 with 96 of them.
        for i in 0..self.items.len() {
            self.offers[i].next = self.serve[i].q.val() & self.item_valids[i].val();
            self.offer_chain[i].next = self.offers[i].val();
            self.engine_chain[i].next = 0.into();
            self.job_chain[i].next = 0.into();
            if self.offers[i].val() {
                self.engine_chain[i].next = self.number[i].val();
                self.job_chain[i].next = self.jobs[i].val();
            }
        }
        for i in 1..self.items.len() {
            self.offer_chain[i].next = self.offer_chain[i - 1].val() | self.offers[i].val();
            self.engine_chain[i].next = self.engine_chain[i - 1].val();
            self.job_chain[i].next = self.job_chain[i - 1].val();
            if self.offers[i].val() {
                self.engine_chain[i].next = self.engine_chain[i - 1].val() | self.number[i].val();
                self.job_chain[i].next = self.job_chain[i - 1].val() | self.jobs[i].val();
            }
        }
        // (rust-hdl reads an index only with loop variables in it, so a
        // one-pass loop names the last link.)
        for i in (self.items.len() - 1)..self.items.len() {
            self.offered_held.d.next = self.offer_chain[i].val() & !self.stream_on.q.val();
            self.engine_held.d.next = self.engine_chain[i].val();
            self.job_held.d.next = self.job_chain[i].val();
        }
        for i in 0..self.items.len() {
            self.offer_held[i].d.next = self.offers[i].val() & !self.stream_on.q.val();
        }
        self.offered.next = self.offered_held.q.val();
        self.offered_engine.next = self.engine_held.q.val();
        self.offered_job.next = self.job_held.q.val();
        for i in 0..self.items.len() {
            self.owns[i].next = self.stream_on.q.val() & self.owner[i].q.val();
            self.item_readies[i].next = self.owns[i].val() & self.taking.q.val();
            self.cancels[i].next = self.stop.val() & !self.owns[i].val();
        }

        self.item_chain[0].next = 0.into();
        if self.owns[0].val() {
            self.item_chain[0].next = self.items[0].val();
        }
        self.valid_chain[0].next = self.owns[0].val() & self.item_valids[0].val();
        self.last_chain[0].next = self.owns[0].val() & self.item_lasts[0].val();
        self.owner_item.next = self.item_chain[0].val();
        self.owner_valid.next = self.valid_chain[0].val();
        self.owner_last.next = self.last_chain[0].val();
        for i in 1..self.items.len() {
            self.item_chain[i].next = self.item_chain[i - 1].val();
            if self.owns[i].val() {
                self.item_chain[i].next = self.item_chain[i - 1].val() | self.items[i].val();
            }
            self.valid_chain[i].next = self.valid_chain[i - 1].val() | (self.owns[i].val() & self.item_valids[i].val());
            self.last_chain[i].next = self.last_chain[i - 1].val() | (self.owns[i].val() & self.item_lasts[i].val());
            self.owner_item.next = self.item_chain[i].val();
            self.owner_valid.next = self.valid_chain[i].val();
            self.owner_last.next = self.last_chain[i].val();
        }

        self.accept.next = self.taking.q.val() & self.owner_valid.val();
        self.sends.next = self.held.q.val() & self.ready.val();
        if self.sends.val() {
            self.held.d.next = false;
        }
        if self.accept.val() {
            self.held.d.next = true;
            self.held_item.d.next = self.owner_item.val();
            self.held_last.d.next = self.owner_last.val();
        }
        self.taking.d.next = !self.accept.val() & (!self.held.q.val() | self.sends.val());
        self.item.next = self.held_item.q.val();
        self.item_valid.next = self.held.q.val();
        self.item_last.next = self.held.q.val() & self.held_last.q.val();

        if self.accept.val() & self.owner_last.val() {
            self.stream_on.d.next = false;
        }
        if self.take.val() {
            self.stream_on.d.next = true;
            for i in 0..self.owner.len() {
                self.owner[i].d.next = self.offer_held[i].q.val();
            }
        }
        self.streaming.next = self.stream_on.q.val();

        if self.clear.val() {
            self.stream_on.d.next = false;
            self.offered_held.d.next = false;
            for i in 0..self.offer_held.len() {
                self.offer_held[i].d.next = false;
            }
            for i in 0..self.serve.len() {
                self.serve[i].d.next = !self.number[i].val().any();
                self.last_served[i].d.next = self.run_last[i].val();
                if self.use_engines.val().any() & (self.use_engines.val() < self.engine_count.val()) {
                    self.last_served[i].d.next = (self.number[i].val() + 1) == self.use_engines.val();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Engines 0 and 2 have results: the turn reaches each; the one taken
    /// streams alone (the other waits, and is cancelled on a stop) until its
    /// last item is taken.
    #[test]
    fn streams_one_offered_result_at_a_time() {
        let mut uut = ResultArbiter::new(3);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<ResultArbiter>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<ResultArbiter>| {
            let mut x = sim.init()?;
            x.clear.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.clear.next = false;
            for i in [0, 2] {
                x.item_valids[i].next = true;
                x.items[i].next = (10 * i as u64 + 1).into();
                x.jobs[i].next = (100 + i as u64).into();
            }
            // The turn comes round to engine 2 within three clocks, and its
            // offer is out the clock after.
            let mut waited = 0;
            while !(x.offered.val() & (x.offered_engine.val() == 2)) {
                wait_clock_cycle!(sim, clock, x);
                waited += 1;
                sim_assert!(sim, waited <= 4, x);
            }
            sim_assert_eq!(sim, x.offered_job.val(), 102, x);
            x.take.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.take.next = false;
            x.stop.next = true;
            sim_assert!(sim, x.streaming.val(), x);
            // Engine 2 streams 21, 22, 23 (the last), each shown until
            // taken; the sender is ready every third clock. The items come
            // out in order, each once, through the held register.
            let mut shown = 0u64;
            let mut sent = vec![];
            for clock in 0..40 {
                // (The arbiter's outputs come from registers: read before
                // the clock's inputs are set.)
                let ready = clock % 3 == 0;
                if x.item_valid.val() & ready {
                    sent.push(x.item.val().index() as u64);
                    sim_assert_eq!(sim, x.item_last.val(), sent.len() == 3, x);
                }
                let taken = x.item_readies[2].val() & (shown < 3);
                sim_assert!(sim, !x.item_readies[0].val(), x);
                x.items[2].next = (21 + shown).into();
                x.item_valids[2].next = shown < 3;
                x.item_lasts[2].next = shown == 2;
                x.ready.next = ready;
                wait_clock_cycle!(sim, clock, x);
                sim_assert!(sim, x.cancels[0].val(), x);
                sim_assert!(sim, x.cancels[2].val() != x.streaming.val(), x);
                if taken {
                    shown += 1;
                }
                // Once its last item is out, engine 2 has nothing to offer.
                if shown == 3 && !x.streaming.val() {
                    sim_assert!(sim, !(x.offered.val() & (x.offered_engine.val() == 2)), x);
                }
            }
            sim_assert_eq!(sim, sent, vec![21, 22, 23], x);
            sim_assert!(sim, !x.streaming.val() & !x.item_valid.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }
}
