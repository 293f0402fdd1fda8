//! The search's data path: where it stands and the step it takes each clock.
//!
//! It holds the position (the current square, one-hot and as an index, the
//! visited squares, the depth, and whether the current node was judged a
//! dead end when it was entered), the current node's [`Children`], the
//! [`Stack`] of the levels below it and the [`ResumeLevel`]. The engine's
//! control picks the step:
//!
//! - `descend`: push this level and enter the children's choice (a search
//!   step, or a replayed job's move: the move is forced then);
//! - `backtrack`: pop to the resume level and enter its next move in the
//!   same clock (or a rejoin's forced move there);
//! - `restart`: stand on the start square alone, at level 0 (a search's
//!   root, or a job replayed from the start);
//! - `clear`: nothing visited, no resume level, one level below level 0,
//!   while the start square is judged.

use rust_hdl::prelude::*;

use super::children::Children;
use super::knight_moves::KnightMoves;
use super::resume::ResumeLevel;
use super::stack::Stack;
use crate::tours::common::geometry::Geometry;

#[derive(LogicBlock)]
pub struct SearchStep<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The search's board (its squares) and its number of squares.
    pub board: Signal<In, Bits<SQ>>,
    pub area: Signal<In, Bits<16>>,
    /// The search's settings, held while it runs: Warnsdorff's order,
    /// pruning, closed tours, count mode (dead children are counted, not
    /// entered), the start square.
    pub warnsdorff: Signal<In, bool>,
    pub prune: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub count_mode: Signal<In, bool>,
    pub start_index: Signal<In, Bits<LB>>,
    /// The start square is judged (the root's probe).
    pub judging_start: Signal<In, bool>,
    /// A job's move: the only move offered while `replaying`, and the move a
    /// rejoin forces at the resume level (`forcing`). `fetch` makes
    /// `fetch_level` the resume level (a rejoin's level, read from the stack).
    pub replaying: Signal<In, bool>,
    pub job_move: Signal<In, Bits<8>>,
    pub forcing: Signal<In, bool>,
    pub fetch: Signal<In, bool>,
    pub fetch_level: Signal<In, Bits<LB>>,
    /// The step to take (at most one; none: stay).
    pub clear: Signal<In, bool>,
    pub restart: Signal<In, bool>,
    pub descend: Signal<In, bool>,
    pub backtrack: Signal<In, bool>,
    /// While a tour streams out, the stack's squares are read at
    /// `stream_level`, and come out as `stream_square` a clock later.
    pub streaming: Signal<In, bool>,
    pub stream_level: Signal<In, Bits<LB>>,
    pub stream_square: Signal<Out, Bits<LB>>,

    /// The position.
    pub current_index: Signal<Out, Bits<LB>>,
    pub depth: Signal<Out, Bits<LB>>,
    /// The current node was judged a dead end when it was chosen.
    pub dead: Signal<Out, bool>,
    /// The current node completes a tour (the last level, and for a closed
    /// tour, a knight move from the start square).
    pub at_tour: Signal<Out, bool>,
    /// The start square is on the search's board.
    pub start_on_board: Signal<Out, bool>,
    /// The children: some move is offered, the one a descent takes
    /// (one-hot), whether it leaves untried moves, and the dead children's
    /// count.
    pub has_move: Signal<Out, bool>,
    pub first: Signal<Out, Bits<8>>,
    pub keeps_moves: Signal<Out, bool>,
    pub doomed_count: Signal<Out, Bits<4>>,
    /// The resume level (if any) and the move a backtrack takes there.
    pub resume_valid: Signal<Out, bool>,
    pub resume_level: Signal<Out, Bits<LB>>,
    pub taken: Signal<Out, Bits<8>>,

    children: Children<SQ, LB>,
    stack: Stack<SQ, LB>,
    resume: ResumeLevel<SQ, LB>,
    start_moves: KnightMoves<SQ, LB>,
    current: DFF<Bits<SQ>>,
    current_at: DFF<Bits<LB>>,
    visited: DFF<Bits<SQ>>,
    level: DFF<Bits<LB>>,
    entered_dead: DFF<bool>,
    // Where a closed tour may end: the start square's knight neighbours.
    closing: DFF<Bits<SQ>>,
    last_level: DFF<Bits<LB>>,
    start: Signal<Local, Bits<SQ>>,
}

impl<const SQ: usize, const LB: usize> SearchStep<SQ, LB> {
    /// With `warnsdorff`, Warnsdorff's order is built in.
    pub fn new(geometry: Geometry, warnsdorff: bool) -> Self {
        SearchStep {
            clock: Default::default(),
            board: Default::default(),
            area: Default::default(),
            warnsdorff: Default::default(),
            prune: Default::default(),
            closed: Default::default(),
            count_mode: Default::default(),
            start_index: Default::default(),
            judging_start: Default::default(),
            replaying: Default::default(),
            job_move: Default::default(),
            forcing: Default::default(),
            fetch: Default::default(),
            fetch_level: Default::default(),
            clear: Default::default(),
            restart: Default::default(),
            descend: Default::default(),
            backtrack: Default::default(),
            streaming: Default::default(),
            stream_level: Default::default(),
            stream_square: Default::default(),
            current_index: Default::default(),
            depth: Default::default(),
            dead: Default::default(),
            at_tour: Default::default(),
            start_on_board: Default::default(),
            has_move: Default::default(),
            first: Default::default(),
            keeps_moves: Default::default(),
            doomed_count: Default::default(),
            resume_valid: Default::default(),
            resume_level: Default::default(),
            taken: Default::default(),
            children: Children::new(geometry, warnsdorff),
            stack: Default::default(),
            resume: ResumeLevel::new(geometry, warnsdorff),
            start_moves: KnightMoves::new(geometry),
            current: Default::default(),
            current_at: Default::default(),
            visited: Default::default(),
            level: Default::default(),
            entered_dead: Default::default(),
            closing: Default::default(),
            last_level: Default::default(),
            start: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for SearchStep<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, current, current_at, visited, level, entered_dead, closing, last_level);
        clock!(self, clock, stack, resume);
        self.start.next = bits::<SQ>(1) << self.start_index.val();
        self.start_moves.square.next = self.start.val();
        self.start_moves.index.next = self.start_index.val();
        self.start_moves.chosen.next = 0.into();
        self.start_on_board.next = (self.start.val() & self.board.val()).any();
        self.last_level.d.next = bit_cast::<LB, 16>(self.area.val() - 1);

        self.current_index.next = self.current_at.q.val();
        self.depth.next = self.level.q.val();
        self.dead.next = self.entered_dead.q.val();
        self.at_tour.next = (self.level.q.val() == self.last_level.q.val())
            & (!self.closed.val() | (self.current.q.val() & self.closing.q.val()).any());

        // The current node's children (the probe is lane 8 of the judge).
        self.children.current.next = self.current.q.val();
        self.children.current_index.next = self.current_at.q.val();
        self.children.free.next = self.board.val() & !self.visited.q.val();
        self.children.warnsdorff.next = self.warnsdorff.val();
        self.children.prune.next = self.prune.val();
        self.children.closed.next = self.closed.val();
        self.children.closing.next = self.closing.q.val();
        self.children.depth.next = self.level.q.val();
        self.children.area.next = self.area.val();
        self.children.probe.next = 0.into();
        if self.judging_start.val() {
            self.children.probe.next = self.start.val();
        }
        self.children.replaying.next = self.replaying.val();
        self.children.replay_move.next = self.job_move.val();
        // A replayed move is entered even when dead (the last square of a
        // host's path may be: the search below it is then that one node).
        self.children.skip_dead.next = self.count_mode.val() & !self.replaying.val();
        self.has_move.next = self.children.has_move.val();
        self.first.next = self.children.first.val();
        self.keeps_moves.next = self.children.rest.val().any();
        self.doomed_count.next = self.children.doomed_count.val();

        // The resume level reads the stack (its next level down, every
        // clock; a rejoin's level when it fetches one).
        self.stack.read_address.next = self.resume.read_address.val();
        self.stack.square_read_address.next = self.resume.read_address.val();
        if self.streaming.val() {
            self.stack.square_read_address.next = self.stream_level.val();
        }
        self.stream_square.next = self.stack.square.val();
        self.resume.stack_moves.next = self.stack.moves.val();
        self.resume.stack_square.next = self.stack.square.val();
        self.resume.stack_degrees.next = self.stack.degrees.val();
        self.resume.stack_doomed.next = self.stack.doomed.val();
        self.resume.stack_visited.next = self.stack.visited.val();
        self.resume.stack_below.next = self.stack.below.val();
        self.resume.stack_below_valid.next = self.stack.below_valid.val();
        self.resume.forcing.next = self.forcing.val();
        self.resume.forced_move.next = self.job_move.val();
        self.resume.fetch.next = self.fetch.val();
        self.resume.fetch_level.next = self.fetch_level.val();
        self.resume.clear.next = self.clear.val();
        self.resume.push.next = self.descend.val() & self.children.rest.val().any();
        self.resume.pop.next = self.backtrack.val();
        self.resume.push_level.next = self.level.q.val();
        self.resume.push_moves.next = self.children.rest.val();
        self.resume.push_square.next = self.current_at.q.val();
        self.resume.push_degrees.next = self.children.degrees.val();
        self.resume.push_doomed.next = self.children.doomed.val();
        self.resume.push_visited.next = self.visited.q.val();
        self.resume_valid.next = self.resume.valid.val();
        self.resume_level.next = self.resume.level.val();
        self.taken.next = self.resume.taken.val();

        // A descent pushes this level's entry; a backtrack rewrites the
        // resume level's.
        self.stack.push.next = self.descend.val();
        self.stack.rewrite.next = self.backtrack.val();
        self.stack.write_address.next = self.level.q.val();
        self.stack.write_moves.next = self.children.rest.val();
        self.stack.write_square.next = self.current_at.q.val();
        self.stack.write_degrees.next = self.children.degrees.val();
        self.stack.write_doomed.next = self.children.doomed.val();
        self.stack.write_visited.next = self.visited.q.val();
        self.stack.write_below.next = self.resume.level.val();
        self.stack.write_below_valid.next = self.resume.valid.val();

        if self.clear.val() {
            self.current.d.next = 0.into();
            self.visited.d.next = 0.into();
            self.level.d.next = !bits::<LB>(0);
            self.closing.d.next = self.start_moves.reach.val();
        }
        if self.restart.val() {
            self.entered_dead.d.next = self.children.probe_dead.val();
            self.current.d.next = self.start.val();
            self.current_at.d.next = self.start_index.val();
            self.visited.d.next = self.start.val();
            self.level.d.next = 0.into();
        }
        if self.descend.val() {
            self.entered_dead.d.next = (self.children.first.val() & self.children.doomed.val()).any();
            self.visited.d.next = self.visited.q.val() | self.children.child.val();
            self.current.d.next = self.children.child.val();
            self.current_at.d.next = self.children.child_index.val();
            self.level.d.next = self.level.q.val() + 1;
        }
        if self.backtrack.val() {
            self.entered_dead.d.next = (self.resume.taken.val() & self.resume.doomed.val()).any();
            self.stack.write_address.next = self.resume.level.val();
            self.stack.write_moves.next = self.resume.left.val();
            self.stack.write_square.next = self.resume.square.val();
            self.stack.write_degrees.next = self.resume.degrees.val();
            self.visited.d.next = self.resume.visited.val() | self.resume.child.val();
            self.current.d.next = self.resume.child.val();
            self.current_at.d.next = self.resume.child_index.val();
            self.level.d.next = self.resume.level.val() + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_model::tours::moves::KNIGHT_STEPS;

    const SIDE: usize = 5;

    /// The squares a plain depth-first search enters (fixed order, no
    /// pruning) from `start` on a `SIDE`×`SIDE` board, the first `limit`.
    fn entered(start: usize, limit: usize) -> Vec<usize> {
        fn walk(at: usize, visited: &mut [bool], out: &mut Vec<usize>, limit: usize) {
            for (df, dr) in KNIGHT_STEPS {
                let (file, rank) = ((at % SIDE) as i32 + df, (at / SIDE) as i32 + dr);
                let inside = (0..SIDE as i32).contains(&file) && (0..SIDE as i32).contains(&rank);
                if !inside || out.len() >= limit {
                    continue;
                }
                let next = rank as usize * SIDE + file as usize;
                if !visited[next] {
                    visited[next] = true;
                    out.push(next);
                    walk(next, visited, out, limit);
                    visited[next] = false;
                }
            }
        }
        let mut visited = vec![false; SIDE * SIDE];
        visited[start] = true;
        let mut out = vec![start];
        walk(start, &mut visited, &mut out, limit);
        out
    }

    #[test]
    fn descents_and_backtracks_enter_the_squares_a_depth_first_search_does() {
        type Step = SearchStep<25, 5>;
        let expected = entered(7, 400);
        let mut uut = Step::new(Geometry::new(SIDE, SIDE), false);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Step>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Step>| {
            let mut x = sim.init()?;
            x.board.next = ((1u64 << 25) - 1).into();
            x.area.next = 25.into();
            x.start_index.next = 7.into();
            x.judging_start.next = true;
            x.clear.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.clear.next = false;
            x.restart.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.restart.next = false;
            x.judging_start.next = false;
            let mut seen = vec![x.current_index.val().index()];
            while seen.len() < expected.len() {
                let expand = x.has_move.val() & !x.dead.val();
                sim_assert!(sim, expand | x.resume_valid.val(), x);
                x.descend.next = expand;
                x.backtrack.next = !expand;
                wait_clock_cycle!(sim, clock, x);
                seen.push(x.current_index.val().index());
            }
            sim_assert_eq!(sim, seen, expected, x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000).unwrap();
    }
}
