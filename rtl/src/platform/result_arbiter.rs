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

use rust_hdl::prelude::*;

use super::{engine_bit, per_engine, MAX_ENGINES};

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
    /// A result is being streamed.
    pub streaming: Signal<Out, bool>,

    one_hot: Vec<Constant<Bits<MAX_ENGINES>>>,
    number: Vec<Constant<Bits<8>>>,
    last_engine: Constant<Bits<MAX_ENGINES>>,
    engine_count: Constant<Bits<8>>,
    // One engine is always the one served (the turn register synthesises
    // away).
    sharing: Constant<bool>,
    serve: DFF<Bits<MAX_ENGINES>>,
    serve_last: DFF<Bits<MAX_ENGINES>>,
    stream_on: DFF<bool>,
    owner: DFF<Bits<MAX_ENGINES>>,
    served: Signal<Local, Bits<MAX_ENGINES>>,
    owns: Vec<Signal<Local, bool>>,
    // The owner's stream, ORed along the engines (only the owner drives
    // it): an OR reduces to a tree, a chain of muxes did not.
    item_chain: Vec<Signal<Local, Bits<8>>>,
    valid_chain: Vec<Signal<Local, bool>>,
    last_chain: Vec<Signal<Local, bool>>,
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
            one_hot: (0..engines).map(|i| Constant::new(engine_bit(i))).collect(),
            number: (0..engines).map(|i| Constant::new((i as u64).into())).collect(),
            last_engine: Constant::new(engine_bit(engines - 1)),
            engine_count: Constant::new((engines as u64).into()),
            sharing: Constant::new(engines > 1),
            serve: Default::default(),
            serve_last: Default::default(),
            stream_on: Default::default(),
            owner: Default::default(),
            served: Default::default(),
            owns: per_engine(engines),
            item_chain: per_engine(engines),
            valid_chain: per_engine(engines),
            last_chain: per_engine(engines),
        }
    }
}

impl Logic for ResultArbiter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, serve, serve_last, stream_on, owner);
        self.serve.d.next = self.serve.q.val() << 1;
        if (self.serve.q.val() == self.serve_last.q.val()) | !self.serve.q.val().any() {
            self.serve.d.next = 1.into();
        }
        self.served.next = 1.into();
        if self.sharing.val() {
            self.served.next = self.serve.q.val();
        }

        self.offered.next = false;
        self.offered_engine.next = 0.into();
        self.offered_job.next = 0.into();
        for i in 0..self.items.len() {
            if (self.served.val() & self.one_hot[i].val()).any() & self.item_valids[i].val() {
                self.offered.next = true;
                self.offered_engine.next = self.number[i].val();
                self.offered_job.next = self.jobs[i].val();
            }
            self.owns[i].next = self.stream_on.q.val() & (self.owner.q.val() & self.one_hot[i].val()).any();
            self.item_readies[i].next = self.owns[i].val() & self.ready.val();
            self.cancels[i].next = self.stop.val() & !self.owns[i].val();
        }

        self.item_chain[0].next = 0.into();
        if self.owns[0].val() {
            self.item_chain[0].next = self.items[0].val();
        }
        self.valid_chain[0].next = self.owns[0].val() & self.item_valids[0].val();
        self.last_chain[0].next = self.owns[0].val() & self.item_lasts[0].val();
        self.item.next = self.item_chain[0].val();
        self.item_valid.next = self.valid_chain[0].val();
        self.item_last.next = self.last_chain[0].val();
        for i in 1..self.items.len() {
            self.item_chain[i].next = self.item_chain[i - 1].val();
            if self.owns[i].val() {
                self.item_chain[i].next = self.item_chain[i - 1].val() | self.items[i].val();
            }
            self.valid_chain[i].next = self.valid_chain[i - 1].val() | (self.owns[i].val() & self.item_valids[i].val());
            self.last_chain[i].next = self.last_chain[i - 1].val() | (self.owns[i].val() & self.item_lasts[i].val());
            self.item.next = self.item_chain[i].val();
            self.item_valid.next = self.valid_chain[i].val();
            self.item_last.next = self.last_chain[i].val();
        }

        if self.item_valid.val() & self.item_last.val() & self.ready.val() {
            self.stream_on.d.next = false;
        }
        if self.take.val() {
            self.stream_on.d.next = true;
            self.owner.d.next = self.served.val();
        }
        self.streaming.next = self.stream_on.q.val();

        if self.clear.val() {
            self.stream_on.d.next = false;
            self.serve.d.next = 1.into();
            self.serve_last.d.next = self.last_engine.val();
            if self.use_engines.val().any() & (self.use_engines.val() < self.engine_count.val()) {
                self.serve_last.d.next = bits::<MAX_ENGINES>(1) << (self.use_engines.val() - 1);
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
            // The turn comes round to engine 2 within three clocks.
            let mut waited = 0;
            while !(x.offered.val() & (x.offered_engine.val() == 2)) {
                wait_clock_cycle!(sim, clock, x);
                waited += 1;
                sim_assert!(sim, waited <= 3, x);
            }
            sim_assert_eq!(sim, x.offered_job.val(), 102, x);
            x.take.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.take.next = false;
            x.stop.next = true;
            wait_clock_cycle!(sim, clock, x);
            sim_assert!(sim, x.streaming.val() & x.item_valid.val() & (x.item.val() == 21), x);
            sim_assert!(sim, x.cancels[0].val() & !x.cancels[2].val(), x);
            sim_assert!(sim, !x.item_readies[2].val(), x);
            x.ready.next = true;
            x.item_lasts[2].next = true;
            wait_clock_cycle!(sim, clock, x);
            sim_assert!(sim, !x.streaming.val() & !x.item_valid.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }
}
