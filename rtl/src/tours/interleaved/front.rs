//! The ring's first three stages: the current node's children found and
//! judged, and the parent's side of a pop worked out, each stage's result
//! registered for the next. Their results, and the record, come out of the
//! third stage's registers for [`super::decide`].
//!
//! - Stage 0 ([`super::reach`]): the free moves, the board's onward planes
//!   and the squares the pruning rule counts; the parent's stack entry
//!   (read in stage 4) registered.
//! - Stage 1 ([`super::tally`]): the pruning rule's tallies over the board;
//!   the parent's entry decoded ([`super::parent`]); a replay's move (read
//!   from the job's path in stage 0, [`super::replay`]) made one-hot.
//! - Stage 2: the rule judges each child (`DeadEndRule`); the first live
//!   move; the parent's next child, one-hot; each move's child index added;
//!   a replay's child ([`super::replay`]); the step's tests of the record.
//!   Stage 3 then only picks among what these stages made.

use rust_hdl::prelude::*;

use super::parent::{FirstMove, ParentEntry, ENTRY_BITS};
use super::reach::Reach;
use super::record::{Phase, RecordStage};
use super::replay::Replay;
use super::tally::Tally;
use crate::tours::common::geometry::Geometry;
use crate::tours::wide::dead_end::DeadEndRule;
use crate::tours::wide::knight_moves::KnightMoves;

#[derive(LogicBlock)]
pub struct Front<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The search's settings: its board and squares, pruning, closed tours,
    /// the start square's knight neighbours, the start square, the last
    /// level, the job level (a walk's).
    pub board: Signal<In, Bits<SQ>>,
    pub area: Signal<In, Bits<16>>,
    pub prune: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub closing: Signal<In, Bits<SQ>>,
    pub start: Signal<In, Bits<SQ>>,
    pub last: Signal<In, Bits<LB>>,
    pub split: Signal<In, Bits<LB>>,
    /// The queue has room for a job.
    pub space: Signal<In, bool>,
    /// The parent's stack entry, as the block RAM reads it out.
    pub entry: Signal<In, Bits<ENTRY_BITS>>,
    /// The record entering stage 0 ([`RecordStage`]'s fields).
    pub busy_in: Signal<In, bool>,
    pub phase_in: Signal<In, Phase>,
    pub level_in: Signal<In, Bits<LB>>,
    pub base_in: Signal<In, Bits<LB>>,
    pub current_in: Signal<In, Bits<SQ>>,
    pub current_at_in: Signal<In, Bits<LB>>,
    pub visited_in: Signal<In, Bits<SQ>>,
    pub dead_in: Signal<In, bool>,
    pub path_in: Signal<In, Bits<48>>,
    pub left_in: Signal<In, Bits<8>>,
    pub rooted_in: Signal<In, bool>,
    pub walking_in: Signal<In, bool>,
    /// The record leaving stage 2.
    pub busy: Signal<Out, bool>,
    pub phase: Signal<Out, Phase>,
    pub level: Signal<Out, Bits<LB>>,
    pub base: Signal<Out, Bits<LB>>,
    pub current: Signal<Out, Bits<SQ>>,
    pub current_at: Signal<Out, Bits<LB>>,
    pub visited: Signal<Out, Bits<SQ>>,
    pub dead: Signal<Out, bool>,
    pub path: Signal<Out, Bits<48>>,
    pub left: Signal<Out, Bits<8>>,
    pub rooted: Signal<Out, bool>,
    pub walking: Signal<Out, bool>,
    /// What stages 0-2 found (see [`super::decide::Decide`]'s inputs of the
    /// same names); `space_seen` is `space` two clocks late.
    pub moves: Signal<Out, Bits<8>>,
    pub doomed: Signal<Out, Bits<8>>,
    pub probe_dead: Signal<Out, bool>,
    pub closes: Signal<Out, Bits<8>>,
    pub child_last: Signal<Out, bool>,
    pub at_split: Signal<Out, bool>,
    pub child_at_split: Signal<Out, bool>,
    pub above_split: Signal<Out, bool>,
    /// The job's move from this level (a replay's), looked up two stages
    /// early, and the child it enters, one-hot and as an index.
    pub forced_move: Signal<Out, Bits<3>>,
    pub replay_child: Signal<Out, Bits<SQ>>,
    pub replay_child_at: Signal<Out, Bits<LB>>,
    /// Some move is live; the level is the job's root level; a replay has
    /// one move left.
    pub live_any: Signal<Out, bool>,
    pub at_base: Signal<Out, bool>,
    pub last_replay: Signal<Out, bool>,
    /// The live moves (free, not dead, not to a leaf) and the first of them
    /// (the fixed order's).
    pub live: Signal<Out, Bits<8>>,
    pub first: Signal<Out, Bits<8>>,
    pub not_below_split: Signal<Out, bool>,
    pub space_seen: Signal<Out, bool>,
    pub parent: Signal<Out, Bits<SQ>>,
    pub parent_at: Signal<Out, Bits<LB>>,
    pub parent_has_move: Signal<Out, bool>,
    pub parent_rest: Signal<Out, Bits<8>>,
    pub parent_child: Signal<Out, Bits<SQ>>,
    pub parent_child_at: Signal<Out, Bits<LB>>,
    pub parent_move: Signal<Out, Bits<3>>,
    /// Each move's child square as an index (the current square's plus the
    /// move's offset), added a stage early: stage 3 only picks one.
    pub child_at: [Signal<Out, Bits<LB>>; 8],
    /// The level and the one above it, one-hot, for a walk's path (its
    /// sixteen levels).
    pub level_bit: Signal<Out, Bits<16>>,
    pub parent_level_bit: Signal<Out, Bits<16>>,
    /// The level below this one, and the one above.
    pub child_level: Signal<Out, Bits<LB>>,
    pub parent_level: Signal<Out, Bits<LB>>,

    reach: Reach<SQ, LB>,
    tally: Tally<SQ, LB>,
    rule: DeadEndRule,
    parent_entry: ParentEntry<SQ, LB>,
    parent_moves: KnightMoves<SQ, LB>,
    live_first: FirstMove,
    r1: RecordStage<SQ, LB>,
    r2: RecordStage<SQ, LB>,
    r3: RecordStage<SQ, LB>,
    entry1: DFF<Bits<ENTRY_BITS>>,
    moves1: DFF<Bits<8>>,
    none1: DFF<Bits<SQ>>,
    blocked1: DFF<Bits<SQ>>,
    ends1: DFF<Bits<SQ>>,
    parent2: DFF<Bits<SQ>>,
    parent_at2: DFF<Bits<LB>>,
    parent_has_move2: DFF<bool>,
    parent_next2: DFF<Bits<8>>,
    parent_rest2: DFF<Bits<8>>,
    parent_child_at2: DFF<Bits<LB>>,
    parent_move2: DFF<Bits<3>>,
    moves2: DFF<Bits<8>>,
    leaf2: DFF<Bits<8>>,
    closes2: DFF<Bits<8>>,
    free_two2: DFF<bool>,
    room_limit: DFF<Bits<16>>,
    room_any: DFF<bool>,
    last_before: DFF<Bits<LB>>,
    child_last2: DFF<bool>,
    some_blocked2: DFF<bool>,
    two_blocked2: DFF<bool>,
    some_ends2: DFF<bool>,
    two_ends2: DFF<bool>,
    three_ends2: DFF<bool>,
    lane_blocked2: DFF<Bits<16>>,
    lane_ends2: DFF<Bits<16>>,
    moves3: DFF<Bits<8>>,
    doomed3: DFF<Bits<8>>,
    probe_dead3: DFF<bool>,
    closes3: DFF<Bits<8>>,
    child_last3: DFF<bool>,
    at_split3: DFF<bool>,
    child_at_split3: DFF<bool>,
    above_split3: DFF<bool>,
    replay: Replay<SQ, LB>,
    live_any3: DFF<bool>,
    at_base3: DFF<bool>,
    last_replay3: DFF<bool>,
    live3: DFF<Bits<8>>,
    first3: DFF<Bits<8>>,
    live_now: Signal<Local, Bits<8>>,
    not_below_split3: DFF<bool>,
    space_seen3: DFF<bool>,
    parent3: DFF<Bits<SQ>>,
    parent_at3: DFF<Bits<LB>>,
    parent_has_move3: DFF<bool>,
    parent_rest3: DFF<Bits<8>>,
    parent_child3: DFF<Bits<SQ>>,
    parent_child_at3: DFF<Bits<LB>>,
    parent_move3: DFF<Bits<3>>,
    child_at3: [DFF<Bits<LB>>; 8],
    level_bit3: DFF<Bits<16>>,
    parent_level_bit3: DFF<Bits<16>>,
    child_level3: DFF<Bits<LB>>,
    parent_level3: DFF<Bits<LB>>,
    // Move m's index offset, modulo 2^LB.
    delta: [Constant<Bits<LB>>; 8],
}

impl<const SQ: usize, const LB: usize> Front<SQ, LB> {
    pub fn new(geometry: Geometry) -> Self {
        Front {
            clock: Default::default(),
            board: Default::default(),
            area: Default::default(),
            prune: Default::default(),
            closed: Default::default(),
            closing: Default::default(),
            start: Default::default(),
            last: Default::default(),
            split: Default::default(),
            space: Default::default(),
            entry: Default::default(),
            busy_in: Default::default(),
            phase_in: Default::default(),
            level_in: Default::default(),
            base_in: Default::default(),
            current_in: Default::default(),
            current_at_in: Default::default(),
            visited_in: Default::default(),
            dead_in: Default::default(),
            path_in: Default::default(),
            left_in: Default::default(),
            rooted_in: Default::default(),
            walking_in: Default::default(),
            busy: Default::default(),
            phase: Default::default(),
            level: Default::default(),
            base: Default::default(),
            current: Default::default(),
            current_at: Default::default(),
            visited: Default::default(),
            dead: Default::default(),
            path: Default::default(),
            left: Default::default(),
            rooted: Default::default(),
            walking: Default::default(),
            moves: Default::default(),
            doomed: Default::default(),
            probe_dead: Default::default(),
            closes: Default::default(),
            child_last: Default::default(),
            at_split: Default::default(),
            child_at_split: Default::default(),
            above_split: Default::default(),
            forced_move: Default::default(),
            replay_child: Default::default(),
            replay_child_at: Default::default(),
            live_any: Default::default(),
            at_base: Default::default(),
            last_replay: Default::default(),
            live: Default::default(),
            first: Default::default(),
            live_now: Default::default(),
            not_below_split: Default::default(),
            space_seen: Default::default(),
            parent: Default::default(),
            parent_at: Default::default(),
            parent_has_move: Default::default(),
            parent_rest: Default::default(),
            parent_child: Default::default(),
            parent_child_at: Default::default(),
            parent_move: Default::default(),
            child_at: Default::default(),
            level_bit: Default::default(),
            parent_level_bit: Default::default(),
            child_level: Default::default(),
            parent_level: Default::default(),
            reach: Reach::new(geometry),
            tally: Tally::new(geometry),
            rule: Default::default(),
            parent_entry: ParentEntry::new(geometry),
            parent_moves: KnightMoves::new(geometry),
            live_first: Default::default(),
            r1: Default::default(),
            r2: Default::default(),
            r3: Default::default(),
            entry1: Default::default(),
            moves1: Default::default(),
            none1: Default::default(),
            blocked1: Default::default(),
            ends1: Default::default(),
            parent2: Default::default(),
            parent_at2: Default::default(),
            parent_has_move2: Default::default(),
            parent_next2: Default::default(),
            parent_rest2: Default::default(),
            parent_child_at2: Default::default(),
            parent_move2: Default::default(),
            moves2: Default::default(),
            leaf2: Default::default(),
            closes2: Default::default(),
            free_two2: Default::default(),
            room_limit: Default::default(),
            room_any: Default::default(),
            last_before: Default::default(),
            child_last2: Default::default(),
            some_blocked2: Default::default(),
            two_blocked2: Default::default(),
            some_ends2: Default::default(),
            two_ends2: Default::default(),
            three_ends2: Default::default(),
            lane_blocked2: Default::default(),
            lane_ends2: Default::default(),
            moves3: Default::default(),
            doomed3: Default::default(),
            probe_dead3: Default::default(),
            closes3: Default::default(),
            child_last3: Default::default(),
            at_split3: Default::default(),
            child_at_split3: Default::default(),
            above_split3: Default::default(),
            replay: Replay::new(geometry),
            live_any3: Default::default(),
            at_base3: Default::default(),
            last_replay3: Default::default(),
            live3: Default::default(),
            first3: Default::default(),
            not_below_split3: Default::default(),
            space_seen3: Default::default(),
            parent3: Default::default(),
            parent_at3: Default::default(),
            parent_has_move3: Default::default(),
            parent_rest3: Default::default(),
            parent_child3: Default::default(),
            parent_child_at3: Default::default(),
            parent_move3: Default::default(),
            child_at3: Default::default(),
            level_bit3: Default::default(),
            parent_level_bit3: Default::default(),
            child_level3: Default::default(),
            parent_level3: Default::default(),
            delta: geometry.move_offsets(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Front<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            entry1,
            moves1,
            none1,
            blocked1,
            ends1,
            parent2,
            parent_at2,
            parent_has_move2,
            parent_next2,
            parent_rest2,
            parent_child_at2,
            parent_move2,
            moves2,
            leaf2,
            closes2,
            free_two2,
            room_limit,
            room_any,
            last_before,
            child_last2,
            some_blocked2,
            two_blocked2,
            some_ends2,
            two_ends2,
            three_ends2,
            lane_blocked2,
            lane_ends2,
            moves3,
            doomed3,
            probe_dead3,
            closes3,
            child_last3,
            at_split3,
            child_at_split3,
            above_split3,
            live_any3,
            at_base3,
            last_replay3,
            live3,
            first3,
            not_below_split3,
            space_seen3,
            parent3,
            parent_at3,
            parent_has_move3,
            parent_rest3,
            parent_child3,
            parent_child_at3,
            parent_move3,
            level_bit3,
            parent_level_bit3,
            child_level3,
            parent_level3
        );
        clock!(self, clock, r1, r2, r3, replay);
        for m in 0..8 {
            self.child_at3[m].clock.next = self.clock.val();
        }

        // Stage 0: the free moves and onward planes; the parent's entry.
        self.reach.board.next = self.board.val();
        self.reach.closed.next = self.closed.val();
        self.reach.closing.next = self.closing.val();
        self.reach.current.next = self.current_in.val();
        self.reach.current_at.next = self.current_at_in.val();
        self.reach.visited.next = self.visited_in.val();
        self.moves1.d.next = self.reach.moves.val();
        self.none1.d.next = self.reach.none.val();
        self.blocked1.d.next = self.reach.blocked.val();
        self.ends1.d.next = self.reach.ends.val();
        self.entry1.d.next = self.entry.val();
        self.r1.busy_in.next = self.busy_in.val();
        self.r1.phase_in.next = self.phase_in.val();
        self.r1.level_in.next = self.level_in.val();
        self.r1.base_in.next = self.base_in.val();
        self.r1.current_in.next = self.current_in.val();
        self.r1.current_at_in.next = self.current_at_in.val();
        self.r1.visited_in.next = self.visited_in.val();
        self.r1.dead_in.next = self.dead_in.val();
        self.r1.path_in.next = self.path_in.val();
        self.r1.left_in.next = self.left_in.val();
        self.r1.rooted_in.next = self.rooted_in.val();
        self.r1.walking_in.next = self.walking_in.val();

        // Stage 1: the rule's tallies; the level's arithmetic for later.
        self.tally.closed.next = self.closed.val();
        self.tally.closing.next = self.closing.val();
        self.tally.current.next = self.r1.current.val();
        self.tally.current_at.next = self.r1.current_at.val();
        self.tally.moves.next = self.moves1.q.val();
        self.tally.none.next = self.none1.q.val();
        self.tally.blocked.next = self.blocked1.q.val();
        self.tally.ends.next = self.ends1.q.val();
        self.tally.probe.next = 0.into();
        if self.r1.phase.val() == Phase::Root {
            self.tally.probe.next = self.start.val();
        }
        self.some_blocked2.d.next = self.tally.some_blocked.val();
        self.two_blocked2.d.next = self.tally.two_blocked.val();
        self.some_ends2.d.next = self.tally.some_ends.val();
        self.two_ends2.d.next = self.tally.two_ends.val();
        self.three_ends2.d.next = self.tally.three_ends.val();
        self.lane_blocked2.d.next = self.tally.lane_blocked.val();
        self.lane_ends2.d.next = self.tally.lane_ends.val();
        self.leaf2.d.next = self.tally.leaf.val();
        self.closes2.d.next = self.tally.closes.val();
        self.moves2.d.next = self.moves1.q.val();
        // The parent's entry decoded: all but its child's one-hot square.
        self.parent_entry.entry.next = self.entry1.q.val();
        self.parent2.d.next = self.parent_entry.square.val();
        self.parent_at2.d.next = self.parent_entry.square_at.val();
        self.parent_has_move2.d.next = self.parent_entry.has_move.val();
        self.parent_next2.d.next = self.parent_entry.next_move.val();
        self.parent_rest2.d.next = self.parent_entry.rest.val();
        self.parent_child_at2.d.next = self.parent_entry.child_at.val();
        self.parent_move2.d.next = self.parent_entry.move_index.val();
        // Room for the child and a square more (`DeadEndJudge`): level + 3 <= area, held per search.
        self.room_limit.d.next = self.area.val() - 3;
        self.room_any.d.next = self.area.val() >= 3;
        self.free_two2.d.next =
            self.room_any.q.val() & (bit_cast::<16, LB>(self.r1.level.val()) <= self.room_limit.q.val());
        // The child is at the last level: one comparison, `last - 1` held per search.
        self.last_before.d.next = self.last.val() - 1;
        self.child_last2.d.next = self.r1.level.val() == self.last_before.q.val();
        // A replay's move, read from the path (stage 0), and its child (stage 2).
        self.replay.path.next = self.path_in.val();
        self.replay.level.next = self.level_in.val();
        self.replay.square.next = self.r2.current.val();
        self.replay.square_at.next = self.r2.current_at.val();
        self.r2.busy_in.next = self.r1.busy.val();
        self.r2.phase_in.next = self.r1.phase.val();
        self.r2.level_in.next = self.r1.level.val();
        self.r2.base_in.next = self.r1.base.val();
        self.r2.current_in.next = self.r1.current.val();
        self.r2.current_at_in.next = self.r1.current_at.val();
        self.r2.visited_in.next = self.r1.visited.val();
        self.r2.dead_in.next = self.r1.dead.val();
        self.r2.path_in.next = self.r1.path.val();
        self.r2.left_in.next = self.r1.left.val();
        self.r2.rooted_in.next = self.r1.rooted.val();
        self.r2.walking_in.next = self.r1.walking.val();

        // Stage 2: each child judged; the parent's side of a pop.
        self.rule.prune.next = self.prune.val();
        self.rule.closed.next = self.closed.val();
        self.rule.free_two.next = self.free_two2.q.val();
        self.rule.moves.next = self.moves2.q.val();
        self.rule.some_blocked.next = self.some_blocked2.q.val();
        self.rule.two_blocked.next = self.two_blocked2.q.val();
        self.rule.some_ends.next = self.some_ends2.q.val();
        self.rule.two_ends.next = self.two_ends2.q.val();
        self.rule.three_ends.next = self.three_ends2.q.val();
        self.rule.lane_blocked.next = self.lane_blocked2.q.val();
        self.rule.lane_ends.next = self.lane_ends2.q.val();
        self.doomed3.d.next = self.rule.doomed.val();
        // The live moves and the first of them.
        self.live_now.next = self.moves2.q.val() & !self.rule.doomed.val() & !self.leaf2.q.val();
        self.live_first.moves.next = self.live_now.val();
        self.live3.d.next = self.live_now.val();
        self.first3.d.next = self.live_first.first.val();
        self.probe_dead3.d.next = self.rule.probe_dead.val();
        self.moves3.d.next = self.moves2.q.val();
        self.closes3.d.next = self.closes2.q.val();
        self.child_last3.d.next = self.child_last2.q.val();
        self.at_split3.d.next = self.r2.level.val() == self.split.val();
        self.child_at_split3.d.next = (self.r2.level.val() + 1) == self.split.val();
        self.above_split3.d.next = self.r2.level.val() < self.split.val();
        self.not_below_split3.d.next = self.r2.level.val() <= self.split.val();
        self.space_seen3.d.next = self.space.val();
        // The step's tests of the record, made here so that stage 3 only picks.
        self.live_any3.d.next = self.live_now.val().any();
        self.at_base3.d.next = self.r2.level.val() == self.r2.base.val();
        self.last_replay3.d.next = self.r2.left.val() == 1;
        // The parent's child, one-hot.
        self.parent_moves.square.next = self.parent2.q.val();
        self.parent_moves.index.next = self.parent_at2.q.val();
        self.parent_moves.chosen.next = self.parent_next2.q.val();
        self.parent3.d.next = self.parent2.q.val();
        self.parent_at3.d.next = self.parent_at2.q.val();
        self.parent_has_move3.d.next = self.parent_has_move2.q.val();
        self.parent_rest3.d.next = self.parent_rest2.q.val();
        self.parent_child3.d.next = self.parent_moves.child.val();
        self.parent_child_at3.d.next = self.parent_child_at2.q.val();
        self.parent_move3.d.next = self.parent_move2.q.val();
        for m in 0..8 {
            self.child_at3[m].d.next = self.r2.current_at.val() + self.delta[m].val();
        }
        self.level_bit3.d.next = bits::<16>(1) << bit_cast::<16, LB>(self.r2.level.val());
        self.parent_level_bit3.d.next = bits::<16>(1) << bit_cast::<16, LB>(self.r2.level.val() - 1);
        self.child_level3.d.next = self.r2.level.val() + 1;
        self.parent_level3.d.next = self.r2.level.val() - 1;
        self.r3.busy_in.next = self.r2.busy.val();
        self.r3.phase_in.next = self.r2.phase.val();
        self.r3.level_in.next = self.r2.level.val();
        self.r3.base_in.next = self.r2.base.val();
        self.r3.current_in.next = self.r2.current.val();
        self.r3.current_at_in.next = self.r2.current_at.val();
        self.r3.visited_in.next = self.r2.visited.val();
        self.r3.dead_in.next = self.r2.dead.val();
        self.r3.path_in.next = self.r2.path.val();
        self.r3.left_in.next = self.r2.left.val();
        self.r3.rooted_in.next = self.r2.rooted.val();
        self.r3.walking_in.next = self.r2.walking.val();

        self.busy.next = self.r3.busy.val();
        self.phase.next = self.r3.phase.val();
        self.level.next = self.r3.level.val();
        self.base.next = self.r3.base.val();
        self.current.next = self.r3.current.val();
        self.current_at.next = self.r3.current_at.val();
        self.visited.next = self.r3.visited.val();
        self.dead.next = self.r3.dead.val();
        self.path.next = self.r3.path.val();
        self.left.next = self.r3.left.val();
        self.rooted.next = self.r3.rooted.val();
        self.walking.next = self.r3.walking.val();
        self.moves.next = self.moves3.q.val();
        self.doomed.next = self.doomed3.q.val();
        self.probe_dead.next = self.probe_dead3.q.val();
        self.closes.next = self.closes3.q.val();
        self.child_last.next = self.child_last3.q.val();
        self.at_split.next = self.at_split3.q.val();
        self.child_at_split.next = self.child_at_split3.q.val();
        self.above_split.next = self.above_split3.q.val();
        self.forced_move.next = self.replay.move_index.val();
        self.replay_child.next = self.replay.child.val();
        self.replay_child_at.next = self.replay.child_at.val();
        self.live_any.next = self.live_any3.q.val();
        self.at_base.next = self.at_base3.q.val();
        self.last_replay.next = self.last_replay3.q.val();
        self.live.next = self.live3.q.val();
        self.first.next = self.first3.q.val();
        self.not_below_split.next = self.not_below_split3.q.val();
        self.space_seen.next = self.space_seen3.q.val();
        self.parent.next = self.parent3.q.val();
        self.parent_at.next = self.parent_at3.q.val();
        self.parent_has_move.next = self.parent_has_move3.q.val();
        self.parent_rest.next = self.parent_rest3.q.val();
        self.parent_child.next = self.parent_child3.q.val();
        self.parent_child_at.next = self.parent_child_at3.q.val();
        self.parent_move.next = self.parent_move3.q.val();
        for m in 0..8 {
            self.child_at[m].next = self.child_at3[m].q.val();
        }
        self.level_bit.next = self.level_bit3.q.val();
        self.parent_level_bit.next = self.parent_level_bit3.q.val();
        self.child_level.next = self.child_level3.q.val();
        self.parent_level.next = self.parent_level3.q.val();
    }
}
