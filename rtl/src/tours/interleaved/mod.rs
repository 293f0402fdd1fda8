//! The interleaved engine: five searches share one pipelined data path.
//!
//! A search's step (judge the current square's children, choose one, update
//! the position) is a loop: the next step needs this one's result. Here the
//! loop is cut by five register stages, and five searches ride the ring, one
//! in each stage (C-slow interleaving): every clock each stage works on a
//! different search, so the data path takes a step every clock while the
//! logic between two registers is a fifth of a step.
//!
//! - Stage 0 ([`reach`]): the free moves, the board's onward planes and the
//!   squares the pruning rule counts.
//! - Stage 1 ([`tally`]): the pruning rule's tallies over the board.
//! - Stage 2: the rule judges each child (`DeadEndRule`); the parent's next
//!   move is worked out from its stack entry ([`parent`]).
//! - Stage 3 ([`decide`]): the step: descend, pop (entering the parent's
//!   next move in the same pass), or replay a job's forced move.
//! - Stage 4: the visited squares updated, the stack written and the next
//!   pass's parent entry read, a new job taken into a slot whose search is
//!   over.
//!
//! Each search's record ([`record`]) rides the ring; its stack is a part of
//! one block RAM, the slot's number (a free-running count, as the ring never
//! stops) its high address bits. A stack entry is a level's square and the
//! live moves it has left.
//!
//! Counting: a fresh node's children are all counted at once (a dead end
//! or a leaf is a node, as in the reference, and is not entered), and only
//! live children are kept, so a pass enters a node that has children of
//! its own, or pops. This engine counts, in the fixed order; it does not
//! stream tours.

pub mod bank;
pub mod decide;
pub mod front;
pub mod parent;
pub mod reach;
pub mod record;
pub mod replay;
pub mod tally;
pub mod worker;

use rust_hdl::prelude::*;

use crate::tours::common::geometry::Geometry;
use crate::tours::wide::knight_moves::KnightMoves;
use decide::Decide;
use front::Front;
use parent::ENTRY_BITS;
use record::{Phase, RecordStage};

/// Searches a ring holds: one a stage.
pub const SEARCHES: usize = knights_protocol::design::INTERLEAVED_SEARCHES as usize;

/// An interleaved engine for boards up to `SQ` squares; `LB` bits number a
/// square or a level, and `AB = LB + 3` address its stacks.
#[derive(LogicBlock)]
pub struct Interleaved<const SQ: usize, const LB: usize, const AB: usize> {
    pub clock: Signal<In, Clock>,
    /// The search's settings, held while it runs: its board (its squares)
    /// and their number, pruning, closed tours, the start square.
    pub board: Signal<In, Bits<SQ>>,
    pub area: Signal<In, Bits<16>>,
    pub prune: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub start_at: Signal<In, Bits<LB>>,
    /// A job: the moves from the start square to its root (bit-sliced as
    /// `MovePath::sliced` makes them), and how many. Taken while `job_ready`.
    pub job_valid: Signal<In, bool>,
    pub job_path: Signal<In, Bits<48>>,
    pub job_length: Signal<In, Bits<8>>,
    pub job_ready: Signal<Out, bool>,
    /// Nodes and tours counted in the clock before: a job's root and every
    /// node below it.
    pub nodes: Signal<Out, Bits<4>>,
    pub tours: Signal<Out, Bits<4>>,
    /// Some slot holds a search.
    pub busy: Signal<Out, bool>,
    /// Drops every search as it passes stage 4 (busy falls within five
    /// clocks), and takes no job.
    pub cancel: Signal<In, bool>,
    /// The job is the search's own root (its path's squares are counted);
    /// with a job level `split` (0: none) it walks the levels above it,
    /// offering each node there as `found_path` while the queue has `space`
    /// (else searching it itself), `walking` until its walk is over.
    pub job_rooted: Signal<In, bool>,
    pub split: Signal<In, Bits<LB>>,
    pub space: Signal<In, bool>,
    pub found: Signal<Out, bool>,
    pub found_path: Signal<Out, Bits<48>>,
    pub walking: Signal<Out, bool>,

    // The engine walks (engine 0): others leave the walk's logic out.
    walks: Constant<bool>,
    // The slot in stage 0, and in stage 4 (the one four turns before).
    turn: DFF<Bits<3>>,
    last_turn: Signal<Local, Bits<3>>,
    slot_shift: Constant<Bits<8>>,
    closing: DFF<Bits<SQ>>,
    last: DFF<Bits<LB>>,
    start: Signal<Local, Bits<SQ>>,
    start_moves: KnightMoves<SQ, LB>,
    stack: RAM<Bits<ENTRY_BITS>, AB>,
    // Where a search's visited squares wait between its passes: in block
    // RAM (one word a slot) where a flip-flop costs a logic cell of its own
    // (iCE40), else carried by the record from stage to stage.
    visited_in_ram: Constant<bool>,
    visited_ram: RAM<Bits<SQ>, 3>,
    visited_turn: Signal<Local, Bits<3>>,
    visited_waiting: Signal<Local, Bits<SQ>>,
    visited_entering: Signal<Local, Bits<SQ>>,
    bypass0: DFF<bool>,
    bypass_entry0: DFF<Bits<ENTRY_BITS>>,

    r0: RecordStage<SQ, LB>,
    r4: RecordStage<SQ, LB>,
    front: Front<SQ, LB>,
    decide: Decide<SQ, LB>,
    clear4: DFF<Bits<SQ>>,
    set4: DFF<Bits<SQ>>,
    write4: DFF<bool>,
    write_level4: DFF<Bits<LB>>,
    write_entry4: DFF<Bits<ENTRY_BITS>>,
    nodes4: DFF<Bits<4>>,
    tours4: DFF<Bits<4>>,
    found4: DFF<bool>,
    found_path4: DFF<Bits<48>>,
    busy_trail: DFF<bool>,
    busy_seen: Signal<Local, bool>,
    busy_before: DFF<bool>,
    walk_trail: DFF<bool>,
    walk_seen: Signal<Local, bool>,
    walk_before: DFF<bool>,
}

impl<const SQ: usize, const LB: usize, const AB: usize> Interleaved<SQ, LB, AB> {
    pub fn new(max_width: usize, max_height: usize) -> Self {
        let geometry = Geometry::new(max_width, max_height);
        assert_eq!(geometry.squares(), SQ, "SQ must be max_width * max_height");
        assert!(LB >= 4 && SQ <= 1 << LB && LB <= 8, "LB bits must number SQ squares (a stack entry has 8)");
        assert_eq!(AB, LB + 3, "a stack for each of the five slots");
        Interleaved {
            clock: Default::default(),
            board: Default::default(),
            area: Default::default(),
            prune: Default::default(),
            closed: Default::default(),
            start_at: Default::default(),
            job_valid: Default::default(),
            job_path: Default::default(),
            job_length: Default::default(),
            job_ready: Default::default(),
            nodes: Default::default(),
            tours: Default::default(),
            busy: Default::default(),
            cancel: Default::default(),
            job_rooted: Default::default(),
            split: Default::default(),
            space: Default::default(),
            found: Default::default(),
            found_path: Default::default(),
            walking: Default::default(),
            turn: Default::default(),
            last_turn: Default::default(),
            slot_shift: Constant::new((LB as u64).into()),
            closing: Default::default(),
            last: Default::default(),
            start: Default::default(),
            start_moves: KnightMoves::new(geometry),
            stack: Default::default(),
            visited_in_ram: Constant::new(false),
            visited_ram: Default::default(),
            visited_turn: Default::default(),
            visited_waiting: Default::default(),
            visited_entering: Default::default(),
            bypass0: Default::default(),
            bypass_entry0: Default::default(),
            r0: Default::default(),
            r4: Default::default(),
            front: Front::new(geometry),
            decide: Decide::new(geometry),
            clear4: Default::default(),
            set4: Default::default(),
            write4: Default::default(),
            write_level4: Default::default(),
            write_entry4: Default::default(),
            nodes4: Default::default(),
            tours4: Default::default(),
            found4: Default::default(),
            found_path4: Default::default(),
            busy_trail: Default::default(),
            busy_seen: Default::default(),
            busy_before: Default::default(),
            walk_trail: Default::default(),
            walk_seen: Default::default(),
            walk_before: Default::default(),
            walks: Constant::new(true),
        }
    }

    /// The same engine without the walk: its jobs are never rooted and
    /// split, and the walk's logic (offers, the path it keeps) synthesises
    /// away. Every engine but the walker is built so.
    pub fn without_walk(mut self) -> Self {
        self.walks = Constant::new(false);
        self
    }

    /// The same engine with each search's visited squares kept in block RAM
    /// between its passes, not carried by the ring's registers: on the
    /// iCE40, where a flip-flop fed by no logic takes a logic cell of its
    /// own, that is about 250 cells fewer for an 8×8 ring (and 4 block
    /// RAMs more).
    pub fn visited_in_block_ram(mut self, in_ram: bool) -> Self {
        self.visited_in_ram = Constant::new(in_ram);
        self
    }
}

impl<const SQ: usize, const LB: usize, const AB: usize> Logic for Interleaved<SQ, LB, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            turn,
            closing,
            last,
            bypass0,
            bypass_entry0,
            clear4,
            set4,
            write4,
            write_level4,
            write_entry4,
            nodes4,
            tours4,
            found4,
            found_path4,
            walk_before,
            walk_trail,
            busy_before,
            busy_trail
        );
        clock!(self, clock, r0, front, r4);
        self.stack.read_clock.next = self.clock.val();
        self.stack.write_clock.next = self.clock.val();
        self.visited_ram.read_clock.next = self.clock.val();
        self.visited_ram.write_clock.next = self.clock.val();
        self.last_turn.next = self.turn.q.val() + 1;
        if self.turn.q.val() == 4 {
            self.last_turn.next = 0.into();
        }
        self.turn.d.next = self.last_turn.val();
        self.start.next = bits::<SQ>(1) << self.start_at.val();
        self.start_moves.square.next = self.start.val();
        self.start_moves.index.next = self.start_at.val();
        self.start_moves.chosen.next = 0.into();
        self.closing.d.next = self.start_moves.reach.val();
        self.last.d.next = bit_cast::<LB, 16>(self.area.val() - 1);

        // Stages 0-2: the children found and judged (`front`). (The
        // parent's entry, read in stage 4, is registered there: a block
        // RAM's output is slow, and nothing but a register follows it.)
        self.front.board.next = self.board.val();
        self.front.area.next = self.area.val();
        self.front.prune.next = self.prune.val();
        self.front.closed.next = self.closed.val();
        self.front.closing.next = self.closing.q.val();
        self.front.start.next = self.start.val();
        self.front.last.next = self.last.q.val();
        self.front.split.next = self.split.val();
        self.front.space.next = self.space.val();
        self.front.entry.next = self.stack.read_data.val();
        if self.bypass0.q.val() {
            self.front.entry.next = self.bypass_entry0.q.val();
        }
        self.front.busy_in.next = self.r0.busy.val();
        self.front.phase_in.next = self.r0.phase.val();
        self.front.level_in.next = self.r0.level.val();
        self.front.base_in.next = self.r0.base.val();
        self.front.current_in.next = self.r0.current.val();
        self.front.current_at_in.next = self.r0.current_at.val();
        self.front.visited_in.next = self.r0.visited.val();
        self.front.dead_in.next = self.r0.dead.val();
        self.front.path_in.next = self.r0.path.val();
        self.front.left_in.next = self.r0.left.val();
        self.front.rooted_in.next = self.r0.rooted.val();
        self.front.walking_in.next = self.r0.walking.val();

        // Stage 3: the step.
        self.decide.start.next = self.start.val();
        self.decide.start_at.next = self.start_at.val();
        self.decide.closed.next = self.closed.val();
        self.decide.child_last.next = self.front.child_last.val();
        self.decide.single.next = !self.last.q.val().any();
        self.decide.busy.next = self.front.busy.val();
        self.decide.phase.next = self.front.phase.val();
        self.decide.level.next = self.front.level.val();
        self.decide.base.next = self.front.base.val();
        self.decide.current.next = self.front.current.val();
        self.decide.current_at.next = self.front.current_at.val();
        self.decide.dead.next = self.front.dead.val();
        self.decide.path.next = self.front.path.val();
        self.decide.left.next = self.front.left.val();
        self.decide.moves.next = self.front.moves.val();
        self.decide.doomed.next = self.front.doomed.val();
        self.decide.probe_dead.next = self.front.probe_dead.val();
        self.decide.closes.next = self.front.closes.val();
        self.decide.parent.next = self.front.parent.val();
        self.decide.parent_at.next = self.front.parent_at.val();
        self.decide.parent_has_move.next = self.front.parent_has_move.val();
        self.decide.parent_rest.next = self.front.parent_rest.val();
        self.decide.parent_child.next = self.front.parent_child.val();
        self.decide.parent_child_at.next = self.front.parent_child_at.val();
        self.decide.parent_move.next = self.front.parent_move.val();
        self.decide.at_split.next = self.front.at_split.val();
        self.decide.child_at_split.next = self.front.child_at_split.val();
        self.decide.above_split.next = self.front.above_split.val();
        self.decide.not_below_split.next = self.front.not_below_split.val();
        self.decide.forced_move.next = self.front.forced_move.val();
        self.decide.replay_child.next = self.front.replay_child.val();
        self.decide.replay_child_at.next = self.front.replay_child_at.val();
        self.decide.live_any.next = self.front.live_any.val();
        self.decide.at_base.next = self.front.at_base.val();
        self.decide.last_replay.next = self.front.last_replay.val();
        self.decide.live.next = self.front.live.val();
        self.decide.first.next = self.front.first.val();
        self.decide.space.next = self.front.space_seen.val();
        self.decide.rooted.next = self.front.rooted.val();
        self.decide.walking.next = self.front.walking.val() & self.walks.val();
        for m in 0..8 {
            self.decide.child_at[m].next = self.front.child_at[m].val();
        }
        self.decide.level_bit.next = self.front.level_bit.val();
        self.decide.parent_level_bit.next = self.front.parent_level_bit.val();
        self.decide.child_level.next = self.front.child_level.val();
        self.decide.parent_level.next = self.front.parent_level.val();
        self.found4.d.next = self.decide.offer.val();
        self.found_path4.d.next = self.front.path.val();
        self.clear4.d.next = self.decide.clear.val();
        self.set4.d.next = self.decide.set.val();
        self.write4.d.next = self.decide.write.val();
        self.write_level4.d.next = self.decide.write_level.val();
        self.write_entry4.d.next = self.decide.write_entry.val();
        self.nodes4.d.next = self.decide.nodes.val();
        self.tours4.d.next = self.decide.tours.val();
        self.r4.busy_in.next = self.decide.next_busy.val();
        self.r4.phase_in.next = self.decide.next_phase.val();
        self.r4.level_in.next = self.decide.next_level.val();
        self.r4.base_in.next = self.front.base.val();
        self.r4.current_in.next = self.decide.next_current.val();
        self.r4.current_at_in.next = self.decide.next_current_at.val();
        self.r4.visited_in.next = self.front.visited.val();
        self.r4.dead_in.next = self.decide.next_dead.val();
        self.r4.path_in.next = self.decide.next_path.val();
        self.r4.left_in.next = self.decide.next_left.val();
        self.r4.rooted_in.next = self.front.rooted.val();
        self.r4.walking_in.next = self.decide.next_walking.val();

        // Stage 4: the visited squares and the stack updated, the next
        // pass's parent entry read (the one written now, when it is that
        // entry, comes from the write instead); an idle slot takes a job.
        self.stack.write_address.next = (bit_cast::<AB, 3>(self.last_turn.val()) << self.slot_shift.val())
            | bit_cast::<AB, LB>(self.write_level4.q.val());
        self.stack.write_data.next = self.write_entry4.q.val();
        self.stack.write_enable.next = self.write4.q.val();
        self.stack.read_address.next = (bit_cast::<AB, 3>(self.last_turn.val()) << self.slot_shift.val())
            | bit_cast::<AB, LB>(self.r4.level.val() - 1);
        self.bypass0.d.next = self.write4.q.val() & (self.write_level4.q.val() == self.r4.level.val() - 1);
        self.bypass_entry0.d.next = self.write_entry4.q.val();
        self.nodes.next = self.nodes4.q.val();
        self.found.next = self.found4.q.val();
        self.found_path.next = self.found_path4.q.val();
        self.tours.next = self.tours4.q.val();
        self.r0.busy_in.next = self.r4.busy.val();
        self.r0.phase_in.next = self.r4.phase.val();
        self.r0.level_in.next = self.r4.level.val();
        self.r0.base_in.next = self.r4.base.val();
        self.r0.current_in.next = self.r4.current.val();
        self.r0.current_at_in.next = self.r4.current_at.val();
        self.r0.dead_in.next = self.r4.dead.val();
        self.r0.path_in.next = self.r4.path.val();
        self.r0.left_in.next = self.r4.left.val();
        self.r0.rooted_in.next = self.r4.rooted.val();
        self.r0.walking_in.next = self.r4.walking.val();
        // The slot in stage 3 reads its visited squares, to have them in
        // stage 4, where the slot's pass updates them and writes them back.
        self.visited_turn.next = self.turn.q.val() + 2;
        if self.turn.q.val() == 3 {
            self.visited_turn.next = 0.into();
        }
        if self.turn.q.val() == 4 {
            self.visited_turn.next = 1.into();
        }
        self.visited_ram.read_address.next = self.visited_turn.val();
        self.visited_waiting.next = self.r4.visited.val();
        if self.visited_in_ram.val() {
            self.visited_waiting.next = self.visited_ram.read_data.val();
        }
        self.visited_entering.next = (self.visited_waiting.val() & !self.clear4.q.val()) | self.set4.q.val();
        if !self.cancel.val() & self.job_valid.val() & !self.r4.busy.val() {
            self.visited_entering.next = 0.into();
        }
        self.r0.visited_in.next = self.visited_entering.val();
        self.visited_ram.write_address.next = self.last_turn.val();
        self.visited_ram.write_data.next = self.visited_entering.val();
        self.visited_ram.write_enable.next = true;
        self.job_ready.next = !self.r4.busy.val() & !self.cancel.val();
        if self.cancel.val() {
            self.r0.busy_in.next = false;
        } else if self.job_valid.val() & !self.r4.busy.val() {
            self.r0.busy_in.next = true;
            self.r0.phase_in.next = Phase::Root;
            // One below the start square's level, as its probe is judged.
            self.r0.level_in.next = !bits::<LB>(0);
            self.r0.base_in.next = bit_cast::<LB, 8>(self.job_length.val());
            self.r0.current_in.next = 0.into();
            self.r0.dead_in.next = false;
            self.r0.path_in.next = self.job_path.val();
            self.r0.left_in.next = self.job_length.val();
            self.r0.rooted_in.next = self.job_rooted.val();
            self.r0.walking_in.next = self.job_rooted.val() & self.split.val().any() & self.walks.val();
        }
        // A search is in stage 0, 3 or 4 in three clocks of five, never two
        // of them apart: one seen there in this clock or the two before is
        // still in the ring. (So is a walk.)
        self.busy_seen.next = self.r0.busy.val() | self.front.busy.val() | self.r4.busy.val();
        self.busy_before.d.next = self.busy_seen.val();
        self.busy_trail.d.next = self.busy_before.q.val();
        self.busy.next = self.busy_seen.val() | self.busy_before.q.val() | self.busy_trail.q.val();
        self.walk_seen.next = (self.r0.busy.val() & self.r0.walking.val())
            | (self.front.busy.val() & self.front.walking.val())
            | (self.r4.busy.val() & self.r4.walking.val());
        self.walk_before.d.next = self.walk_seen.val();
        self.walk_trail.d.next = self.walk_before.q.val();
        self.walking.next = self.walk_seen.val() | self.walk_before.q.val() | self.walk_trail.q.val();
    }
}
