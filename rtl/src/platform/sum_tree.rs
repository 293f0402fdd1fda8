//! A registered sum of up to 128 terms, added as a balanced tree.
//!
//! The accelerator sums its engines' per-clock pulses with these. Added one
//! after another, the sum of 18 engines' pulses was a chain of 18 adders and
//! held the whole chip to 21.8 MHz; as a tree it is seven adders deep (five
//! for 32 engines: unused terms are tied to 0 and synthesise away).

use rust_hdl::prelude::*;

/// Terms a tree takes (the most engines an accelerator drives).
pub const TERMS: usize = 128;

#[derive(LogicBlock)]
pub struct SumTree {
    pub clock: Signal<In, Clock>,
    pub terms: [Signal<In, Bits<16>>; TERMS],
    /// The sum of the terms of two clocks before.
    pub sum: Signal<Out, Bits<16>>,
    /// Whether any term is not 0 this clock, or any partial sum in the
    /// tree's middle register (what `sum` has yet to show).
    pub any_now: Signal<Out, bool>,
    pairs: [Signal<Local, Bits<16>>; 64],
    quads: [Signal<Local, Bits<16>>; 32],
    octets: [Signal<Local, Bits<16>>; 16],
    // (Registered: the first three levels follow the engines' state logic,
    // and the whole tree after it was an 88-search ECP5 build's longest
    // path.)
    octets_held: [DFF<Bits<16>>; 16],
    octet_chain: [Signal<Local, bool>; 16],
    sixteens: [Signal<Local, Bits<16>>; 8],
    thirty_twos: [Signal<Local, Bits<16>>; 4],
    halves: [Signal<Local, Bits<16>>; 2],
    any_chain: [Signal<Local, bool>; TERMS],
    total: DFF<Bits<16>>,
}

// (By hand: the standard library's arrays have a default only up to 32.)
impl Default for SumTree {
    fn default() -> Self {
        fn each<T: Default, const N: usize>() -> [T; N] {
            std::array::from_fn(|_| T::default())
        }
        SumTree {
            clock: Default::default(),
            terms: each(),
            sum: Default::default(),
            any_now: Default::default(),
            pairs: each(),
            quads: each(),
            octets: each(),
            octets_held: each(),
            octet_chain: each(),
            sixteens: each(),
            thirty_twos: each(),
            halves: each(),
            any_chain: each(),
            total: Default::default(),
        }
    }
}

impl Logic for SumTree {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, total);
        for j in 0..16 {
            self.octets_held[j].clock.next = self.clock.val();
        }
        for j in 0..64 {
            self.pairs[j].next = self.terms[2 * j].val() + self.terms[2 * j + 1].val();
        }
        for j in 0..32 {
            self.quads[j].next = self.pairs[2 * j].val() + self.pairs[2 * j + 1].val();
        }
        for j in 0..16 {
            self.octets[j].next = self.quads[2 * j].val() + self.quads[2 * j + 1].val();
        }
        for j in 0..16 {
            self.octets_held[j].d.next = self.octets[j].val();
        }
        for j in 0..8 {
            self.sixteens[j].next = self.octets_held[2 * j].q.val() + self.octets_held[2 * j + 1].q.val();
        }
        for j in 0..4 {
            self.thirty_twos[j].next = self.sixteens[2 * j].val() + self.sixteens[2 * j + 1].val();
        }
        for j in 0..2 {
            self.halves[j].next = self.thirty_twos[2 * j].val() + self.thirty_twos[2 * j + 1].val();
        }
        self.total.d.next = self.halves[0].val() + self.halves[1].val();
        self.sum.next = self.total.q.val();
        self.octet_chain[0].next = self.octets_held[0].q.val().any();
        for j in 1..16 {
            self.octet_chain[j].next = self.octet_chain[j - 1].val() | self.octets_held[j].q.val().any();
        }
        self.any_chain[0].next = self.terms[0].val().any() | self.octet_chain[15].val();
        self.any_now.next = self.any_chain[0].val();
        for i in 1..TERMS {
            self.any_chain[i].next = self.any_chain[i - 1].val() | self.terms[i].val().any();
            self.any_now.next = self.any_chain[i].val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_every_term_two_clocks_later() {
        let mut uut = SumTree::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<SumTree>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<SumTree>| {
            let mut x = sim.init()?;
            let mut sums = Vec::new();
            for round in 0..4u64 {
                let terms: Vec<u64> = (0..TERMS as u64).map(|i| (i * 7 + round * 13) % 17 * (i % 3)).collect();
                for (i, term) in terms.iter().enumerate() {
                    x.terms[i].next = (*term).into();
                }
                sums.push(terms.iter().sum::<u64>());
                wait_clock_cycle!(sim, clock, x);
                // (Set before a clock, in the middle register after it, in
                // the sum after the next.)
                if round >= 1 {
                    sim_assert_eq!(sim, x.sum.val(), sums[round as usize - 1], x);
                }
                sim_assert!(sim, x.any_now.val(), x);
            }
            for i in 0..TERMS {
                x.terms[i].next = 0.into();
            }
            // The last round comes out of the middle register into the sum.
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.sum.val(), sums[3], x);
            sim_assert!(sim, !x.any_now.val(), x);
            wait_clock_cycle!(sim, clock, x);
            sim_assert!(sim, !x.any_now.val() & (x.sum.val() == 0), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
    }
}
