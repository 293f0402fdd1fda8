//! One flag per engine gathered into a vector with a bit an engine (an OR
//! chain over the engines, engine 0 at bit 0), as the job queue takes its
//! requests.

use rust_hdl::prelude::*;

use super::{engine_bit, per_engine, MAX_ENGINES};

/// Engines' flags as a vector (combinational).
#[derive(LogicBlock)]
pub struct EngineFlags {
    pub flags: Vec<Signal<In, bool>>,
    pub vector: Signal<Out, Bits<MAX_ENGINES>>,

    one_hot: Vec<Constant<Bits<MAX_ENGINES>>>,
    chain: Vec<Signal<Local, Bits<MAX_ENGINES>>>,
}

impl EngineFlags {
    pub fn new(engines: usize) -> Self {
        EngineFlags {
            flags: per_engine(engines),
            vector: Default::default(),
            one_hot: (0..engines).map(|i| Constant::new(engine_bit(i))).collect(),
            chain: per_engine(engines),
        }
    }
}

impl Logic for EngineFlags {
    #[hdl_gen]
    fn update(&mut self) {
        self.chain[0].next = 0.into();
        if self.flags[0].val() {
            self.chain[0].next = 1.into();
        }
        self.vector.next = self.chain[0].val();
        for i in 1..self.chain.len() {
            self.chain[i].next = self.chain[i - 1].val();
            if self.flags[i].val() {
                self.chain[i].next = self.chain[i - 1].val() | self.one_hot[i].val();
            }
            self.vector.next = self.chain[i].val();
        }
    }
}
