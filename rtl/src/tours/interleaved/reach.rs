//! The ring's first stage: the current square's free moves, and the onward
//! planes of the whole board (squares with no free knight neighbour, and
//! with one) made into the squares the pruning rule counts a stage later.

use rust_hdl::prelude::*;

use crate::tours::common::geometry::Geometry;
use crate::tours::wide::dead_end::DeadEndMasks;
use crate::tours::wide::knight_moves::KnightMoves;
use crate::tours::wide::onward::OnwardCounts;

#[derive(LogicBlock)]
pub struct Reach<const SQ: usize, const LB: usize> {
    /// The search's board, and where its search stands.
    pub board: Signal<In, Bits<SQ>>,
    /// Closed tours, and the start square's knight neighbours.
    pub closed: Signal<In, bool>,
    pub closing: Signal<In, Bits<SQ>>,
    pub current: Signal<In, Bits<SQ>>,
    pub current_at: Signal<In, Bits<LB>>,
    pub visited: Signal<In, Bits<SQ>>,
    /// The moves to a free square (bit m for canonical move m).
    pub moves: Signal<Out, Bits<8>>,
    /// Squares with no free square a knight move away.
    pub none: Signal<Out, Bits<SQ>>,
    /// The free squares the pruning rule counts ([`DeadEndMasks`]).
    pub blocked: Signal<Out, Bits<SQ>>,
    pub ends: Signal<Out, Bits<SQ>>,

    knight: KnightMoves<SQ, LB>,
    onward: OnwardCounts<SQ>,
    masks: DeadEndMasks<SQ>,
    free: Signal<Local, Bits<SQ>>,
    moves_chain: [Signal<Local, Bits<8>>; 8],
}

impl<const SQ: usize, const LB: usize> Reach<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        Reach {
            board: Default::default(),
            closed: Default::default(),
            closing: Default::default(),
            current: Default::default(),
            current_at: Default::default(),
            visited: Default::default(),
            moves: Default::default(),
            none: Default::default(),
            blocked: Default::default(),
            ends: Default::default(),
            knight: KnightMoves::new(geometry),
            onward: OnwardCounts::new(geometry, false),
            masks: Default::default(),
            free: Default::default(),
            moves_chain: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Reach<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.free.next = self.board.val() & !self.visited.val();
        self.knight.square.next = self.current.val();
        self.knight.index.next = self.current_at.val();
        self.knight.chosen.next = 0.into();
        self.onward.free.next = self.free.val();
        for m in 0..8 {
            self.onward.targets[m].next = self.knight.targets[m].val();
        }
        self.moves_chain[0].next = bits::<8>(0).replace_bit(0, (self.knight.targets[0].val() & self.free.val()).any());
        for m in 1..8 {
            self.moves_chain[m].next =
                self.moves_chain[m - 1].val().replace_bit(m, (self.knight.targets[m].val() & self.free.val()).any());
        }
        self.moves.next = self.moves_chain[7].val();
        self.none.next = self.onward.none.val();
        self.masks.closed.next = self.closed.val();
        self.masks.free.next = self.free.val();
        self.masks.closing.next = self.closing.val();
        self.masks.none.next = self.onward.none.val();
        self.masks.one.next = self.onward.one.val();
        self.blocked.next = self.masks.blocked.val();
        self.ends.next = self.masks.ends.val();
    }
}
