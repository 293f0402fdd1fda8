//! The deepest marked rank: the lowest set bit of the marks (ranks sit in
//! slots, rank `r` in slot `NB - 1 - r`), and its rank's number.

use rust_hdl::prelude::*;

/// The deepest rank with files left (combinational).
#[derive(LogicBlock)]
pub struct DeepestRank<const NB: usize, const AB: usize> {
    /// The marked ranks' slots.
    pub open_ranks: Signal<In, Bits<NB>>,
    /// The deepest one's slot (one-hot) and its rank's number.
    pub slot: Signal<Out, Bits<NB>>,
    pub rank: Signal<Out, Bits<AB>>,

    // Each slot's rank.
    rank_of: Vec<Constant<Bits<AB>>>,
    lowest: Signal<Local, Bits<NB>>,
    // Its number: an OR chain over the bits.
    chain: Vec<Signal<Local, Bits<AB>>>,
}

impl<const NB: usize, const AB: usize> Default for DeepestRank<NB, AB> {
    fn default() -> Self {
        DeepestRank {
            open_ranks: Default::default(),
            slot: Default::default(),
            rank: Default::default(),
            lowest: Default::default(),
            rank_of: (0..NB).map(|slot| Constant::new(((NB - 1 - slot) as u64).into())).collect(),
            chain: (0..NB).map(|_| Default::default()).collect(),
        }
    }
}

impl<const NB: usize, const AB: usize> Logic for DeepestRank<NB, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.lowest.next = self.open_ranks.val() & (!self.open_ranks.val() + 1);
        self.slot.next = self.lowest.val();
        self.chain[0].next = 0.into();
        if self.lowest.val().get_bit(0) {
            self.chain[0].next = self.rank_of[0].val();
        }
        for i in 1..self.chain.len() {
            self.chain[i].next = self.chain[i - 1].val();
            if self.lowest.val().get_bit(i) {
                self.chain[i].next = self.chain[i - 1].val() | self.rank_of[i].val();
            }
        }
        // (rust-hdl reads an index only with loop variables in it, so a
        // one-pass loop names the last link.)
        for i in (NB - 1)..NB {
            self.rank.next = self.chain[i].val();
        }
    }
}
