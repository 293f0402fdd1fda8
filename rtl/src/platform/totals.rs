//! A search's totals, summed from the engines' pulses: nodes, results,
//! clocks, and whether every engine has stopped.
//!
//! Each clock every engine pulses the nodes it counted, a result counted
//! (count mode) and whether it ran; adder trees (registered, so a clock
//! late) sum them. The totals are what PROGRESS and DONE report.

use rust_hdl::prelude::*;

use super::per_engine;

use super::sum_tree::{SumTree, TERMS};

/// The most engines the totals sum.
pub const MAX_ENGINES: usize = TERMS;

#[derive(LogicBlock)]
pub struct Totals {
    pub clock: Signal<In, Clock>,
    /// Zeroes the totals for a new search (wins over everything else).
    pub clear: Signal<In, bool>,
    /// A search runs: the pulses are added.
    pub searching: Signal<In, bool>,
    /// Count mode: the engines' result pulses are added to `results`.
    pub counting: Signal<In, bool>,
    /// A result was sent (first-K mode): `results` goes up by one.
    pub sent: Signal<In, bool>,
    /// Each engine's pulses: nodes and results counted, ran (busy and not
    /// waiting on the link), busy.
    pub nodes: Vec<Signal<In, Bits<16>>>,
    pub solutions: Vec<Signal<In, Bits<16>>>,
    pub running: Vec<Signal<In, bool>>,
    pub busy: Vec<Signal<In, bool>>,
    /// Results counted or sent; nodes; clocks in which an engine ran; and
    /// the engines' clocks summed (with one engine, the clocks).
    pub results: Signal<Out, Bits<48>>,
    pub node_total: Signal<Out, Bits<48>>,
    pub cycles: Signal<Out, Bits<48>>,
    pub engine_cycles: Signal<Out, Bits<48>>,
    /// Some engine ran in the clock summed last.
    pub ran: Signal<Out, bool>,
    /// Every engine has stopped and its last pulses are in the totals (as
    /// of the clock before: registered, as the engines' `busy` come from
    /// all over the chip; an engine started in the clock before is not
    /// counted yet).
    pub quiet: Signal<Out, bool>,

    // Several engines: their clocks are summed (one engine's counter
    // synthesises away).
    sharing: Constant<bool>,
    node_tree: SumTree,
    solution_tree: SumTree,
    running_tree: SumTree,
    result_total: DFF<Bits<48>>,
    node_count: DFF<Bits<48>>,
    cycle_total: DFF<Bits<48>>,
    engine_cycle_total: DFF<Bits<48>>,
    quiet_then: DFF<bool>,
    busy_chain: Vec<Signal<Local, bool>>,
    any_busy: Signal<Local, bool>,
    node_sum: Signal<Local, Bits<16>>,
    solution_sum: Signal<Local, Bits<8>>,
    running_sum: Signal<Local, Bits<8>>,
}

impl Totals {
    pub fn new(engines: usize) -> Self {
        assert!((1..=MAX_ENGINES).contains(&engines));
        Totals {
            clock: Default::default(),
            clear: Default::default(),
            searching: Default::default(),
            counting: Default::default(),
            sent: Default::default(),
            nodes: per_engine(engines),
            solutions: per_engine(engines),
            running: per_engine(engines),
            busy: per_engine(engines),
            results: Default::default(),
            node_total: Default::default(),
            cycles: Default::default(),
            engine_cycles: Default::default(),
            ran: Default::default(),
            quiet: Default::default(),
            sharing: Constant::new(engines > 1),
            node_tree: Default::default(),
            solution_tree: Default::default(),
            running_tree: Default::default(),
            result_total: Default::default(),
            node_count: Default::default(),
            cycle_total: Default::default(),
            engine_cycle_total: Default::default(),
            quiet_then: Default::default(),
            busy_chain: per_engine(engines),
            any_busy: Default::default(),
            node_sum: Default::default(),
            solution_sum: Default::default(),
            running_sum: Default::default(),
        }
    }
}

impl Logic for Totals {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, result_total, node_count, cycle_total, engine_cycle_total, quiet_then);
        clock!(self, clock, node_tree, solution_tree, running_tree);
        for i in 0..TERMS {
            self.node_tree.terms[i].next = 0.into();
            self.solution_tree.terms[i].next = 0.into();
            self.running_tree.terms[i].next = 0.into();
        }
        for i in 0..self.nodes.len() {
            self.node_tree.terms[i].next = self.nodes[i].val();
            self.solution_tree.terms[i].next = self.solutions[i].val();
            if self.running[i].val() {
                self.running_tree.terms[i].next = 1.into();
            }
        }
        // Whether any engine is busy, by an OR along them.
        self.busy_chain[0].next = self.busy[0].val();
        self.any_busy.next = self.busy_chain[0].val();
        for i in 1..self.busy.len() {
            self.busy_chain[i].next = self.busy_chain[i - 1].val() | self.busy[i].val();
            self.any_busy.next = self.busy_chain[i].val();
        }
        self.node_sum.next = self.node_tree.sum.val();
        self.solution_sum.next = bit_cast::<8, 16>(self.solution_tree.sum.val());
        self.running_sum.next = bit_cast::<8, 16>(self.running_tree.sum.val());

        if self.searching.val() {
            self.node_count.d.next = self.node_count.q.val() + bit_cast::<48, 16>(self.node_sum.val());
            if self.counting.val() {
                self.result_total.d.next = self.result_total.q.val() + bit_cast::<48, 8>(self.solution_sum.val());
            }
            // Search time: clocks an engine spent waiting for the link to
            // take a result are not counted.
            self.engine_cycle_total.d.next =
                self.engine_cycle_total.q.val() + bit_cast::<48, 8>(self.running_sum.val());
            if self.running_sum.val().any() {
                self.cycle_total.d.next = self.cycle_total.q.val() + 1;
            }
        }
        if self.sent.val() {
            self.result_total.d.next = self.result_total.q.val() + 1;
        }
        if self.clear.val() {
            self.result_total.d.next = 0.into();
            self.node_count.d.next = 0.into();
            self.cycle_total.d.next = 0.into();
            self.engine_cycle_total.d.next = 0.into();
        }

        self.results.next = self.result_total.q.val();
        self.node_total.next = self.node_count.q.val();
        self.cycles.next = self.cycle_total.q.val();
        self.engine_cycles.next = self.cycle_total.q.val();
        if self.sharing.val() {
            self.engine_cycles.next = self.engine_cycle_total.q.val();
        }
        self.ran.next = self.running_sum.val().any();
        // (The sums in the trees' registers count too.)
        self.quiet.next = self.quiet_then.q.val();
        self.quiet_then.d.next = !self.any_busy.val()
            & !self.node_tree.any_now.val()
            & !self.solution_tree.any_now.val()
            & !self.running_tree.any_now.val()
            & !self.node_sum.val().any()
            & !self.solution_sum.val().any()
            & !self.running_sum.val().any();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two engines pulse for a few clocks: the totals are their sums, and
    /// `quiet` comes with the last pulse's sum in them.
    #[test]
    fn sums_the_pulses_of_every_engine() {
        let mut uut = Totals::new(2);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Totals>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Totals>| {
            let mut x = sim.init()?;
            x.clear.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.clear.next = false;
            x.searching.next = true;
            x.counting.next = true;
            for clock in 0..4u64 {
                x.nodes[0].next = (clock + 1).into();
                x.nodes[1].next = 9.into();
                x.solutions[1].next = (2 * u64::from(clock % 2 == 0)).into();
                x.running[0].next = true;
                x.running[1].next = clock < 2;
                x.busy[0].next = true;
                wait_clock_cycle!(sim, clock, x);
                sim_assert!(sim, !x.quiet.val(), x);
            }
            x.nodes[0].next = 0.into();
            x.nodes[1].next = 0.into();
            x.solutions[1].next = 0.into();
            x.running[0].next = false;
            x.running[1].next = false;
            x.busy[0].next = false;
            // (The trees' two registers, then quiet's own: three clocks.)
            for _ in 0..2 {
                wait_clock_cycle!(sim, clock, x);
                sim_assert!(sim, !x.quiet.val(), x);
            }
            wait_clock_cycle!(sim, clock, x);
            sim_assert!(sim, x.quiet.val(), x);
            sim_assert_eq!(sim, x.node_total.val(), 1 + 2 + 3 + 4 + 4 * 9, x);
            sim_assert_eq!(sim, x.results.val(), 4, x);
            sim_assert_eq!(sim, x.cycles.val(), 4, x);
            sim_assert_eq!(sim, x.engine_cycles.val(), 6, x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }
}
