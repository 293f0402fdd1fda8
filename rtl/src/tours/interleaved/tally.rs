//! The ring's second stage: the pruning rule's tallies over the board (the
//! first half of `DeadEndJudge`), and each free move's target as the step
//! needs it: a leaf (no free square onward), a closing square (a knight
//! move from the start).

use rust_hdl::prelude::*;

use crate::tours::common::geometry::Geometry;
use crate::tours::wide::dead_end::DeadEndTally;
use crate::tours::wide::knight_moves::KnightMoves;

#[derive(LogicBlock)]
pub struct Tally<const SQ: usize, const LB: usize> {
    /// The search's settings.
    pub closed: Signal<In, bool>,
    /// The start square's knight neighbours.
    pub closing: Signal<In, Bits<SQ>>,
    /// The position, its free moves, the squares with no free square
    /// onward, and the squares the rule counts ([`super::reach`]).
    pub current: Signal<In, Bits<SQ>>,
    pub current_at: Signal<In, Bits<LB>>,
    pub moves: Signal<In, Bits<8>>,
    pub none: Signal<In, Bits<SQ>>,
    pub blocked: Signal<In, Bits<SQ>>,
    pub ends: Signal<In, Bits<SQ>>,
    /// A square judged on its own (one-hot, or 0).
    pub probe: Signal<In, Bits<SQ>>,

    /// `DeadEndTally`'s outputs, for `DeadEndRule` a stage later.
    pub some_blocked: Signal<Out, bool>,
    pub two_blocked: Signal<Out, bool>,
    pub some_ends: Signal<Out, bool>,
    pub two_ends: Signal<Out, bool>,
    pub three_ends: Signal<Out, bool>,
    pub lane_blocked: Signal<Out, Bits<16>>,
    pub lane_ends: Signal<Out, Bits<16>>,
    /// The moves whose target has no free square onward.
    pub leaf: Signal<Out, Bits<8>>,
    /// The moves whose target is a knight move from the start.
    pub closes: Signal<Out, Bits<8>>,

    knight: KnightMoves<SQ, LB>,
    tally: DeadEndTally<SQ, LB>,
    leaf_chain: [Signal<Local, Bits<8>>; 8],
    closes_chain: [Signal<Local, Bits<8>>; 8],
}

impl<const SQ: usize, const LB: usize> Tally<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        Tally {
            closed: Default::default(),
            closing: Default::default(),
            current: Default::default(),
            current_at: Default::default(),
            moves: Default::default(),
            none: Default::default(),
            blocked: Default::default(),
            ends: Default::default(),
            probe: Default::default(),
            some_blocked: Default::default(),
            two_blocked: Default::default(),
            some_ends: Default::default(),
            two_ends: Default::default(),
            three_ends: Default::default(),
            lane_blocked: Default::default(),
            lane_ends: Default::default(),
            leaf: Default::default(),
            closes: Default::default(),
            knight: KnightMoves::new(geometry),
            tally: DeadEndTally::new(false),
            leaf_chain: Default::default(),
            closes_chain: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Tally<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.knight.square.next = self.current.val();
        self.knight.index.next = self.current_at.val();
        self.knight.chosen.next = 0.into();
        self.tally.closed.next = self.closed.val();
        self.tally.closing.next = self.closing.val();
        self.tally.blocked.next = self.blocked.val();
        self.tally.ends.next = self.ends.val();
        self.tally.probe.next = self.probe.val();
        for m in 0..8 {
            self.tally.targets[m].next = self.knight.targets[m].val();
            self.tally.target_count[m].next = 0.into();
        }
        self.some_blocked.next = self.tally.some_blocked.val();
        self.two_blocked.next = self.tally.two_blocked.val();
        self.some_ends.next = self.tally.some_ends.val();
        self.two_ends.next = self.tally.two_ends.val();
        self.three_ends.next = self.tally.three_ends.val();
        self.lane_blocked.next = self.tally.lane_blocked.val();
        self.lane_ends.next = self.tally.lane_ends.val();

        self.leaf_chain[0].next = bits::<8>(0).replace_bit(0, (self.knight.targets[0].val() & self.none.val()).any());
        self.closes_chain[0].next =
            bits::<8>(0).replace_bit(0, (self.knight.targets[0].val() & self.closing.val()).any());
        for m in 1..8 {
            self.leaf_chain[m].next =
                self.leaf_chain[m - 1].val().replace_bit(m, (self.knight.targets[m].val() & self.none.val()).any());
            self.closes_chain[m].next = self.closes_chain[m - 1]
                .val()
                .replace_bit(m, (self.knight.targets[m].val() & self.closing.val()).any());
        }
        self.leaf.next = self.moves.val() & self.leaf_chain[7].val();
        self.closes.next = self.moves.val() & self.closes_chain[7].val();
    }
}
