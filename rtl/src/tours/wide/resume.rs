//! The resume level: the deepest level that still has an untried move, its
//! stack entry cached in registers, and the move a backtrack takes there.
//!
//! A dead end pops straight to this level and enters its next move in the
//! same clock: the visited squares become the level's, which frees every
//! deeper square at once. When the level runs out of moves, the next one
//! down is the one its entry links to; that entry is read from the stack
//! every clock (`read_address`), so it is in hand the clock after (a
//! *refill*). A job that rejoins the stack at a level *fetches* it the same
//! way, with the new path's move *forced* as its one untried move.

use rust_hdl::prelude::*;

use super::knight_moves::KnightMoves;
use crate::tours::common::geometry::Geometry;
use crate::tours::common::move_select::MoveSelect;

#[derive(LogicBlock)]
pub struct ResumeLevel<const SQ: usize, const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// The stack entry at `read_address` of the clock before.
    pub stack_moves: Signal<In, Bits<8>>,
    pub stack_square: Signal<In, Bits<LB>>,
    pub stack_degrees: Signal<In, Bits<32>>,
    pub stack_doomed: Signal<In, Bits<8>>,
    pub stack_visited: Signal<In, Bits<SQ>>,
    pub stack_below: Signal<In, Bits<LB>>,
    pub stack_below_valid: Signal<In, bool>,
    pub read_address: Signal<Out, Bits<LB>>,

    /// There is no resume level (a search starts).
    pub clear: Signal<In, bool>,
    /// A descent leaves untried moves at `push_level`: it becomes the resume
    /// level with this entry (what the stack is written).
    pub push: Signal<In, bool>,
    pub push_level: Signal<In, Bits<LB>>,
    pub push_moves: Signal<In, Bits<8>>,
    pub push_square: Signal<In, Bits<LB>>,
    pub push_degrees: Signal<In, Bits<32>>,
    pub push_doomed: Signal<In, Bits<8>>,
    pub push_visited: Signal<In, Bits<SQ>>,
    /// A backtrack takes `taken` here: the level keeps `left`, or, with none
    /// left, the level it links to becomes the resume level.
    pub pop: Signal<In, bool>,
    /// `fetch_level` becomes the resume level, its entry read from the stack.
    pub fetch: Signal<In, bool>,
    pub fetch_level: Signal<In, Bits<LB>>,
    /// `forced_move` replaces the level's untried moves (a rejoin's move).
    pub forcing: Signal<In, bool>,
    pub forced_move: Signal<In, Bits<8>>,

    pub valid: Signal<Out, bool>,
    pub level: Signal<Out, Bits<LB>>,
    /// The level's entry as a backtrack sees it now (the cache, or the stack
    /// right after a refill), and the move it takes (one-hot) with the moves
    /// left after it.
    pub square: Signal<Out, Bits<LB>>,
    pub degrees: Signal<Out, Bits<32>>,
    pub doomed: Signal<Out, Bits<8>>,
    pub visited: Signal<Out, Bits<SQ>>,
    pub taken: Signal<Out, Bits<8>>,
    pub left: Signal<Out, Bits<8>>,
    /// The square the taken move enters, one-hot and as an index.
    pub child: Signal<Out, Bits<SQ>>,
    pub child_index: Signal<Out, Bits<LB>>,

    choice: MoveSelect,
    knight: KnightMoves<SQ, LB>,
    // Without Warnsdorff's order every degree is 0.
    keeps_degrees: Constant<bool>,
    resume_valid: DFF<bool>,
    resume_level: DFF<Bits<LB>>,
    resume_moves: DFF<Bits<8>>,
    resume_index: DFF<Bits<LB>>,
    resume_degrees: DFF<Bits<32>>,
    resume_doomed: DFF<Bits<8>>,
    resume_visited: DFF<Bits<SQ>>,
    resume_below: DFF<Bits<LB>>,
    resume_below_valid: DFF<bool>,
    refill: DFF<bool>,
    moves: Signal<Local, Bits<8>>,
    below: Signal<Local, Bits<LB>>,
    below_valid: Signal<Local, bool>,
}

impl<const SQ: usize, const LB: usize> ResumeLevel<SQ, LB> {
    /// With `keeps_degrees`, the stack's degrees order a backtrack's moves.
    pub fn new(geometry: Geometry, keeps_degrees: bool) -> Self {
        ResumeLevel {
            clock: Default::default(),
            stack_moves: Default::default(),
            stack_square: Default::default(),
            stack_degrees: Default::default(),
            stack_doomed: Default::default(),
            stack_visited: Default::default(),
            stack_below: Default::default(),
            stack_below_valid: Default::default(),
            read_address: Default::default(),
            clear: Default::default(),
            push: Default::default(),
            push_level: Default::default(),
            push_moves: Default::default(),
            push_square: Default::default(),
            push_degrees: Default::default(),
            push_doomed: Default::default(),
            push_visited: Default::default(),
            pop: Default::default(),
            fetch: Default::default(),
            fetch_level: Default::default(),
            forcing: Default::default(),
            forced_move: Default::default(),
            valid: Default::default(),
            level: Default::default(),
            square: Default::default(),
            degrees: Default::default(),
            doomed: Default::default(),
            visited: Default::default(),
            taken: Default::default(),
            left: Default::default(),
            child: Default::default(),
            child_index: Default::default(),
            choice: Default::default(),
            knight: KnightMoves::new(geometry),
            keeps_degrees: Constant::new(keeps_degrees),
            resume_valid: Default::default(),
            resume_level: Default::default(),
            resume_moves: Default::default(),
            resume_index: Default::default(),
            resume_degrees: Default::default(),
            resume_doomed: Default::default(),
            resume_visited: Default::default(),
            resume_below: Default::default(),
            resume_below_valid: Default::default(),
            refill: Default::default(),
            moves: Default::default(),
            below: Default::default(),
            below_valid: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for ResumeLevel<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            resume_valid,
            resume_level,
            resume_moves,
            resume_index,
            resume_degrees,
            resume_doomed,
            resume_visited,
            resume_below,
            resume_below_valid,
            refill
        );
        self.valid.next = self.resume_valid.q.val();
        self.level.next = self.resume_level.q.val();
        self.moves.next = self.resume_moves.q.val();
        self.square.next = self.resume_index.q.val();
        self.degrees.next = self.resume_degrees.q.val();
        self.doomed.next = self.resume_doomed.q.val();
        self.visited.next = self.resume_visited.q.val();
        self.below.next = self.resume_below.q.val();
        self.below_valid.next = self.resume_below_valid.q.val();
        if self.refill.q.val() {
            self.moves.next = self.stack_moves.val();
            self.square.next = self.stack_square.val();
            self.degrees.next = self.stack_degrees.val();
            self.doomed.next = self.stack_doomed.val();
            self.visited.next = self.stack_visited.val();
            self.below.next = self.stack_below.val();
            self.below_valid.next = self.stack_below_valid.val();
        }
        if !self.keeps_degrees.val() {
            self.degrees.next = 0.into();
        }
        if self.forcing.val() {
            self.moves.next = self.forced_move.val();
        }
        self.choice.candidates.next = self.moves.val();
        self.choice.degrees.next = self.degrees.val();
        self.taken.next = self.choice.first.val();
        self.left.next = self.choice.rest.val();
        self.knight.square.next = bits::<SQ>(1) << self.square.val();
        self.knight.index.next = self.square.val();
        self.knight.chosen.next = self.choice.first.val();
        self.child.next = self.knight.child.val();
        self.child_index.next = self.knight.child_index.val();

        // The cache keeps what it shows; the next level down is read.
        self.resume_moves.d.next = self.moves.val();
        self.resume_index.d.next = self.square.val();
        self.resume_degrees.d.next = self.degrees.val();
        self.resume_doomed.d.next = self.doomed.val();
        self.resume_visited.d.next = self.visited.val();
        self.resume_below.d.next = self.below.val();
        self.resume_below_valid.d.next = self.below_valid.val();
        self.refill.d.next = false;
        self.read_address.next = self.below.val();

        if self.clear.val() {
            self.resume_valid.d.next = false;
        }
        if self.fetch.val() {
            self.resume_level.d.next = self.fetch_level.val();
            self.refill.d.next = true;
            self.read_address.next = self.fetch_level.val();
        }
        if self.push.val() {
            self.refill.d.next = false;
            self.resume_below.d.next = self.resume_level.q.val();
            self.resume_below_valid.d.next = self.resume_valid.q.val();
            self.resume_valid.d.next = true;
            self.resume_level.d.next = self.push_level.val();
            self.resume_moves.d.next = self.push_moves.val();
            self.resume_index.d.next = self.push_square.val();
            self.resume_degrees.d.next = self.push_degrees.val();
            self.resume_doomed.d.next = self.push_doomed.val();
            self.resume_visited.d.next = self.push_visited.val();
        }
        if self.pop.val() {
            if self.choice.rest.val().any() {
                self.resume_moves.d.next = self.choice.rest.val();
            } else {
                self.resume_valid.d.next = self.below_valid.val();
                self.resume_level.d.next = self.below.val();
                self.refill.d.next = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_model::tours::moves::KNIGHT_STEPS;
    use knights_model::{BoardSize, Square};

    const SIDE: usize = 5;
    type Resume = ResumeLevel<25, 5>;

    /// Move `m`'s target from `square` on 5×5, by the model's geometry.
    fn target(square: u64, m: usize) -> u64 {
        let board = BoardSize::square(SIDE as u16);
        let at = Square::new((square as usize % SIDE) as u16, (square as usize / SIDE) as u16);
        let (df, dr) = KNIGHT_STEPS[m];
        at.offset(df, dr, board).expect("on the board").index(board) as u64
    }

    /// A stack entry, as the step writes it on a push.
    #[derive(Clone, Copy, Default)]
    struct Entry {
        moves: u64,
        square: u64,
        degrees: u64,
        doomed: u64,
        visited: u64,
        below: u64,
        below_valid: bool,
    }

    /// Pushes two levels and backtracks through all their moves: the moves
    /// come out in (degree, index) order with the moves left after each,
    /// the children are the model's knight moves; a level that runs out
    /// hands over to the level it links to, its entry refilled from the
    /// stack a clock later (a stand-in RAM here) and cached from then on.
    /// A forced move replaces the untried ones; a fetch reads a level's
    /// entry in the same way; a clear leaves no resume level.
    #[test]
    fn pops_through_pushed_levels_and_refills_from_the_stack() {
        let mut stack = [Entry::default(); 32];
        // Level 0 on c3 (12) keeps moves 1, 2 and 5, of degrees 3, 1, 1:
        // taken in the order 2, 5, 1. Level 3 on b2 (6) keeps moves 0 and 1,
        // both of degree 2: taken 0, then 1.
        stack[0] = Entry {
            moves: 0b10_0110,
            square: 12,
            degrees: 3 << 4 | 1 << 8 | 1 << 20,
            doomed: 1 << 5,
            visited: 1 << 12 | 1 << 7,
            below: 0,
            below_valid: false,
        };
        stack[3] = Entry {
            moves: 0b11,
            square: 6,
            degrees: 2 | 2 << 4,
            doomed: 0,
            visited: 1 << 12 | 1 << 7 | 1 << 16 | 1 << 6,
            below: 0,
            below_valid: true,
        };
        let mut uut = Resume::new(Geometry::new(SIDE, SIDE), true);
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Resume>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Resume>| {
            let mut x = sim.init()?;
            // One clock: the inputs settle, the stand-in RAM is read at
            // `read_address` at the edge and answers after it, the pulses
            // end, and the outputs settle again.
            macro_rules! clock {
                () => {
                    x = sim.wait(1, x)?;
                    let read = stack[x.read_address.val().index()];
                    wait_clock_cycle!(sim, clock, x);
                    x.stack_moves.next = read.moves.into();
                    x.stack_square.next = read.square.into();
                    x.stack_degrees.next = read.degrees.into();
                    x.stack_doomed.next = read.doomed.into();
                    x.stack_visited.next = read.visited.into();
                    x.stack_below.next = read.below.into();
                    x.stack_below_valid.next = read.below_valid;
                    x.clear.next = false;
                    x.push.next = false;
                    x.pop.next = false;
                    x.fetch.next = false;
                    x = sim.wait(1, x)?;
                };
            }
            macro_rules! push {
                ($level: expr) => {
                    let entry = stack[$level];
                    x.push.next = true;
                    x.push_level.next = ($level as u64).into();
                    x.push_moves.next = entry.moves.into();
                    x.push_square.next = entry.square.into();
                    x.push_degrees.next = entry.degrees.into();
                    x.push_doomed.next = entry.doomed.into();
                    x.push_visited.next = entry.visited.into();
                    clock!();
                };
            }
            // The move taken (one-hot), the moves left, the child's index.
            macro_rules! takes {
                ($m: expr, $left: expr, $from: expr) => {
                    sim_assert_eq!(sim, x.taken.val(), 1u64 << $m, x);
                    sim_assert_eq!(sim, x.left.val(), $left as u64, x);
                    sim_assert_eq!(sim, x.child_index.val(), target($from, $m), x);
                    sim_assert_eq!(sim, x.child.val(), 1u64 << target($from, $m), x);
                };
            }

            x.clear.next = true;
            clock!();
            sim_assert!(sim, !x.valid.val(), x);

            // Level 0, pushed with no resume level below it.
            push!(0);
            sim_assert!(sim, x.valid.val(), x);
            sim_assert_eq!(sim, x.level.val(), 0, x);
            sim_assert_eq!(sim, x.square.val(), 12, x);
            sim_assert_eq!(sim, x.degrees.val(), stack[0].degrees, x);
            sim_assert_eq!(sim, x.doomed.val(), stack[0].doomed, x);
            sim_assert_eq!(sim, x.visited.val(), stack[0].visited, x);
            takes!(2, 0b10_0010, 12);

            // Level 3 above it: ties of degree go to the lower index.
            push!(3);
            sim_assert_eq!(sim, x.level.val(), 3, x);
            sim_assert_eq!(sim, x.square.val(), 6, x);
            sim_assert_eq!(sim, x.visited.val(), stack[3].visited, x);
            takes!(0, 0b10, 6);
            x.pop.next = true;
            clock!();
            sim_assert_eq!(sim, x.level.val(), 3, x);
            takes!(1, 0, 6);

            // Level 3 runs out: its link (level 0) is read as it pops, and
            // the clock after, level 0's entry comes from the stack (the
            // cache still held level 3's square, 6).
            x.pop.next = true;
            x = sim.wait(1, x)?;
            sim_assert_eq!(sim, x.read_address.val(), 0, x);
            clock!();
            sim_assert!(sim, x.valid.val(), x);
            sim_assert_eq!(sim, x.level.val(), 0, x);
            sim_assert_eq!(sim, x.square.val(), 12, x);
            sim_assert_eq!(sim, x.doomed.val(), stack[0].doomed, x);
            sim_assert_eq!(sim, x.visited.val(), stack[0].visited, x);
            takes!(2, 0b10_0010, 12);
            // Popped in the refill clock: the cache keeps the moves left (the
            // stand-in stack still shows all three).
            x.pop.next = true;
            clock!();
            takes!(5, 0b10, 12);

            // A forced move is the only one (and leaves none).
            x.forcing.next = true;
            x.forced_move.next = 1.into();
            x = sim.wait(1, x)?;
            takes!(0, 0, 12);
            x.forcing.next = false;
            x = sim.wait(1, x)?;
            takes!(5, 0b10, 12);
            x.pop.next = true;
            clock!();
            takes!(1, 0, 12);
            // Level 0 runs out with nothing below it.
            x.pop.next = true;
            clock!();
            sim_assert!(sim, !x.valid.val(), x);

            // A rejoin fetches level 3 (read now, shown the clock after)
            // with its move forced there.
            x.fetch.next = true;
            x.fetch_level.next = 3.into();
            x.forcing.next = true;
            x.forced_move.next = 0b10.into();
            x = sim.wait(1, x)?;
            sim_assert_eq!(sim, x.read_address.val(), 3, x);
            clock!();
            sim_assert_eq!(sim, x.level.val(), 3, x);
            sim_assert_eq!(sim, x.square.val(), 6, x);
            sim_assert_eq!(sim, x.visited.val(), stack[3].visited, x);
            takes!(1, 0, 6);
            // Popping into it takes the forced move, and the fetched entry's
            // link (level 0, valid) becomes the resume level.
            x.pop.next = true;
            x = sim.wait(1, x)?;
            sim_assert_eq!(sim, x.read_address.val(), 0, x);
            clock!();
            x.forcing.next = false;
            x = sim.wait(1, x)?;
            sim_assert!(sim, x.valid.val(), x);
            sim_assert_eq!(sim, x.level.val(), 0, x);
            takes!(2, 0b10_0010, 12);

            x.clear.next = true;
            clock!();
            sim_assert!(sim, !x.valid.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000).unwrap();
    }
}
