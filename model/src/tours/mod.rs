//! Knight's tours: the CPU reference search, the golden model the RTL
//! engines must match node for node; [`moves`] (the knight's steps in their
//! canonical order), [`parallel`] (a search cut into prefix jobs over every
//! core) and [`validate`] (the checker every tour a device reports goes
//! through).
//!
//! It has the hardware's shape. The board sits on a padded grid whose two-wide
//! border is permanently marked visited, so a knight step is a constant offset
//! and needs no bounds check. The search is an explicit stack with one level
//! per square on the path; each level keeps the moves it has not tried yet,
//! computed once when the level is entered. That is sound because the visited
//! set on returning to a level is the one it had when it left. Every loop
//! iteration either enters one node (a square) or pops one level.
//!
//! **Nodes** are squares entered, the start included: for an exhaustive search
//! they are the self-avoiding knight paths from the start, whatever the order.
//! When a first-K search stops, the count includes the last square of the K-th
//! tour and nothing after it.
//!
//! **Move orders.** `fixed` tries moves in the canonical order of
//! [`moves`]. `warnsdorff` tries the free neighbours of the current
//! square by fewest onward moves first, where a candidate's onward moves are
//! its unvisited neighbours with the current square already visited; ties go
//! to the lower canonical move index. The order of a level is fixed when the
//! level is entered (the visited set is the same every time the search comes
//! back to it), so it is also the order "next candidate after (degree, index)
//! of the move just undone" that the hardware computes on the way back.

use std::fmt;
use std::str::FromStr;

use anyhow::{bail, Result};
use serde::Serialize;

use crate::board::{BoardSize, Square};
use crate::run::{Flow, Goal, Status};
use moves::{is_knight_move, KNIGHT_STEPS};

pub mod moves;
mod order;
pub mod parallel;
pub mod validate;
mod visited;
use order::{FixedPending, Pending, WarnsdorffPending};
use visited::{mark, neighbour, PlainSet, TalliedSet, VisitedSet};

/// Order in which the moves out of a square are tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveOrder {
    /// The canonical move order.
    #[default]
    Fixed,
    /// Fewest onward moves first; ties by canonical move index.
    Warnsdorff,
}

impl fmt::Display for MoveOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveOrder::Fixed => "fixed",
            MoveOrder::Warnsdorff => "warnsdorff",
        })
    }
}

impl FromStr for MoveOrder {
    type Err = anyhow::Error;
    fn from_str(text: &str) -> Result<Self> {
        match text {
            "fixed" => Ok(MoveOrder::Fixed),
            "warnsdorff" => Ok(MoveOrder::Warnsdorff),
            _ => bail!("move order '{text}' is not 'fixed' or 'warnsdorff'"),
        }
    }
}

/// What a search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    pub board: BoardSize,
    pub start: Square,
    pub closed: bool,
    pub order: MoveOrder,
    /// Dead-end pruning (see [`Searcher::dead_end`]); off searches the
    /// canonical exhaustive tree of self-avoiding paths.
    pub prune: bool,
}

impl SearchSpec {
    /// The canonical exhaustive search: fixed move order, no pruning.
    pub fn exhaustive(board: BoardSize, start: Square, closed: bool) -> Self {
        SearchSpec { board, start, closed, order: MoveOrder::Fixed, prune: false }
    }
}

/// Counts at the end of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub tours: u64,
    pub nodes: u64,
    pub status: Status,
}

/// Receives what a search finds while it runs.
pub trait Observer {
    /// A tour, in order from the start square.
    fn tour(&mut self, tour: &[Square]) -> Flow;
    /// Running totals, about every [`PROGRESS_INTERVAL`] nodes.
    fn progress(&mut self, _nodes: u64, _tours: u64) -> Flow {
        Flow::Continue
    }
}

/// An observer that keeps every tour it is shown, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TourList(pub Vec<Vec<Square>>);

impl Observer for TourList {
    fn tour(&mut self, tour: &[Square]) -> Flow {
        self.0.push(tour.to_vec());
        Flow::Continue
    }
}

/// Nodes between two progress callbacks.
pub const PROGRESS_INTERVAL: u64 = 1 << 22;

/// Border width of the padded grid: a knight jumps at most two squares.
const PAD: usize = 2;

/// The board laid out on the padded grid, ready to search.
#[derive(Clone, Debug)]
pub struct Searcher {
    spec: SearchSpec,
    stride: usize,
    offsets: [i32; 8],
    /// Padded grid: 1 for visited or off-board, 0 for free.
    blank: Vec<u8>,
    /// For closed tours: cells one knight move from the start square.
    closes: Vec<bool>,
    /// The board's cells, for pruning's look at every free square.
    board_cells: Vec<u32>,
}

impl Searcher {
    pub fn new(spec: SearchSpec) -> Result<Self> {
        if spec.board.area() == 0 {
            bail!("board {} has no squares", spec.board);
        }
        if !spec.board.contains(spec.start) {
            bail!("start square {} is off the {} board", spec.start, spec.board);
        }
        let stride = spec.board.width as usize + 2 * PAD;
        let rows = spec.board.height as usize + 2 * PAD;
        let offsets = KNIGHT_STEPS.map(|(df, dr)| dr * stride as i32 + df);
        let mut blank = vec![1u8; stride * rows];
        let mut closes = vec![false; stride * rows];
        let mut searcher =
            Searcher { spec, stride, offsets, blank: Vec::new(), closes: Vec::new(), board_cells: Vec::new() };
        for square in spec.board.squares() {
            let cell = searcher.cell(square) as usize;
            blank[cell] = 0;
            closes[cell] = is_knight_move(square, spec.start);
        }
        searcher.board_cells = spec.board.squares().map(|square| searcher.cell(square)).collect();
        searcher.blank = blank;
        searcher.closes = closes;
        Ok(searcher)
    }

    pub fn spec(&self) -> &SearchSpec {
        &self.spec
    }

    fn cell(&self, square: Square) -> u32 {
        ((square.rank as usize + PAD) * self.stride + square.file as usize + PAD) as u32
    }

    fn square(&self, cell: u32) -> Square {
        let cell = cell as usize;
        Square::new((cell % self.stride - PAD) as u16, (cell / self.stride - PAD) as u16)
    }

    /// Searches from the start square.
    pub fn run(&self, goal: Goal, observer: &mut dyn Observer) -> Outcome {
        self.run_from(&[self.spec.start], goal, observer).expect("the start square alone is a valid prefix")
    }

    /// Searches from the start square and keeps every tour found, in order.
    pub fn tours(&self, goal: Goal) -> (Outcome, Vec<Vec<Square>>) {
        let mut keep = TourList::default();
        let outcome = self.run(goal, &mut keep);
        (outcome, keep.0)
    }

    /// Searches the subtree below a fixed starting path (a prefix job). The
    /// prefix's squares count as nodes, so a one-square prefix is [`Self::run`].
    pub fn run_from(&self, prefix: &[Square], goal: Goal, observer: &mut dyn Observer) -> Result<Outcome> {
        self.check_prefix(prefix)?;
        if let Goal::First(0) = goal {
            bail!("a first-K search needs K of at least 1");
        }
        // One instance per combination, so the unpruned search pays nothing
        // for pruning's bookkeeping.
        Ok(match (self.spec.order, self.spec.prune) {
            (MoveOrder::Fixed, false) => self.dfs::<FixedPending, PlainSet>(prefix, goal, observer),
            (MoveOrder::Fixed, true) => self.dfs::<FixedPending, TalliedSet>(prefix, goal, observer),
            (MoveOrder::Warnsdorff, false) => self.dfs::<WarnsdorffPending, PlainSet>(prefix, goal, observer),
            (MoveOrder::Warnsdorff, true) => self.dfs::<WarnsdorffPending, TalliedSet>(prefix, goal, observer),
        })
    }

    /// Checks that `prefix` is a path the search could take: from the start
    /// square, on the board, knight's moves, no square twice.
    pub fn check_prefix(&self, prefix: &[Square]) -> Result<()> {
        let Some(&first) = prefix.first() else { bail!("a prefix needs at least the start square") };
        if first != self.spec.start {
            bail!("prefix starts on {first}, not on the start square {}", self.spec.start);
        }
        let mut seen = vec![false; self.spec.board.area()];
        for (i, &square) in prefix.iter().enumerate() {
            if !self.spec.board.contains(square) {
                bail!("prefix square {square} is off the {} board", self.spec.board);
            }
            if std::mem::replace(&mut seen[square.index(self.spec.board)], true) {
                bail!("prefix visits {square} twice");
            }
            if i > 0 && !is_knight_move(prefix[i - 1], square) {
                bail!("prefix step {} -> {square} is not a knight move", prefix[i - 1]);
            }
        }
        Ok(())
    }

    fn dfs<P: Pending, V: VisitedSet>(&self, prefix: &[Square], goal: Goal, observer: &mut dyn Observer) -> Outcome {
        let total = self.spec.board.area();
        let limit = match goal {
            Goal::First(k) => k,
            Goal::CountAll => u64::MAX,
        };
        let mut visited = V::new(self);
        let mut frames: Vec<Frame<P>> = Vec::with_capacity(total);
        let base = prefix.len() - 1;
        for &square in &prefix[..base] {
            let cell = self.cell(square);
            visited.visit(cell);
            frames.push(Frame { cell, pending: P::empty() });
        }
        let cell = self.cell(prefix[base]);
        let pending = self.enter::<P, V>(&mut visited, cell).unwrap_or_else(P::empty);
        frames.push(Frame { cell, pending });
        let mut depth = base;
        frames.resize(total, Frame { cell: 0, pending: P::empty() });

        let mut nodes = prefix.len() as u64;
        let mut tours = 0;
        let mut next_progress = nodes + PROGRESS_INTERVAL;
        let mut tour = Vec::with_capacity(total);
        // Reports the tour on the stack; says whether the search must end.
        let mut found = |frames: &[Frame<P>], observer: &mut dyn Observer, tours: u64| {
            tour.clear();
            tour.extend(frames.iter().map(|f| self.square(f.cell)));
            let flow = observer.tour(&tour);
            if tours >= limit {
                Some(Status::Found)
            } else if flow == Flow::Stop {
                Some(Status::Aborted)
            } else {
                None
            }
        };
        if prefix.len() == total && self.ends_tour(frames[base].cell) {
            tours += 1;
            if let Some(status) = found(&frames, observer, tours) {
                return Outcome { tours, nodes, status };
            }
        }

        // The top of the stack lives in `top`; `frames[..depth]` holds the
        // levels below it.
        let mut top = frames[base];
        loop {
            if let Some(m) = top.pending.next() {
                let cell = top.cell.wrapping_add_signed(self.offsets[m]);
                nodes += 1;
                match self.enter::<P, V>(&mut visited, cell) {
                    // Pruned: a leaf that fills no board, and nothing to undo.
                    None => {}
                    Some(pending) if pending.is_empty() => {
                        // A leaf: a tour when it fills the board. Undone at
                        // once rather than pushed and popped.
                        if depth + 2 == total && self.ends_tour(cell) {
                            tours += 1;
                            frames[depth] = top;
                            frames[depth + 1] = Frame { cell, pending };
                            if let Some(status) = found(&frames, observer, tours) {
                                return Outcome { tours, nodes, status };
                            }
                        }
                        visited.unvisit(cell);
                    }
                    Some(pending) => {
                        frames[depth] = top;
                        depth += 1;
                        top = Frame { cell, pending };
                    }
                }
                if nodes >= next_progress {
                    next_progress += PROGRESS_INTERVAL;
                    if observer.progress(nodes, tours) == Flow::Stop {
                        return Outcome { tours, nodes, status: Status::Aborted };
                    }
                }
            } else {
                if depth == base {
                    return Outcome { tours, nodes, status: Status::Exhausted };
                }
                visited.unvisit(top.cell);
                depth -= 1;
                top = frames[depth];
            }
        }
    }

    /// Enters the free `cell`: visits it and gives the moves to try from it,
    /// or, when pruning finds that the path cannot become a tour, leaves it
    /// free and gives `None`.
    #[inline(always)]
    fn enter<P: Pending, V: VisitedSet>(&self, visited: &mut V, cell: u32) -> Option<P> {
        if visited.dead_end_entering(cell) {
            return None;
        }
        visited.visit(cell);
        Some(P::new(visited.cells(), cell, &self.offsets))
    }

    /// Dead-end pruning, the rule the engine evaluates over every square at
    /// once. With `at` just entered, the rest of the tour is a path from `at`
    /// through every free square. A free square's *ways in* are its free
    /// neighbours, plus `at` if it is a knight move away. Every free square
    /// on the path but the last needs two ways in (one to enter, one to
    /// leave), the last needs one. So the path is impossible when
    ///
    /// - open tours: a free square has no way in, or two free squares have
    ///   only one (both would have to be last);
    /// - closed tours: counting a knight move to the start square as one more
    ///   way (the last square must close the tour), a free square has at most
    ///   one way; or no free square is a knight move from the start.
    ///
    /// This scan over the board is the readable rule; the search evaluates
    /// the same rule from counts it keeps up to date (`TalliedSet` below).
    pub fn dead_end(&self, cells: &[u8], at: u32) -> bool {
        let mut single_ways = 0;
        let (mut any_free, mut closing_free) = (false, false);
        let near_here = self.offsets.map(|o| at.wrapping_add_signed(o));
        for &cell in &self.board_cells {
            if cells[cell as usize] != 0 {
                continue;
            }
            let free_neighbours = self.offsets.iter().filter(|&&o| neighbour(cells, cell, o) == 0).count();
            let from_here = near_here.contains(&cell);
            let mut ways = free_neighbours + usize::from(from_here);
            any_free = true;
            if self.spec.closed {
                closing_free |= self.closes[cell as usize];
                ways += usize::from(self.closes[cell as usize]);
                if ways <= 1 {
                    return true;
                }
            } else if ways == 0 {
                return true;
            } else if ways == 1 {
                single_ways += 1;
                if single_ways == 2 {
                    return true;
                }
            }
        }
        self.spec.closed && any_free && !closing_free
    }

    /// Whether pruning stops the search below `path` (a valid path from the
    /// start): false when pruning is off.
    pub fn prunes(&self, path: &[Square]) -> bool {
        let Some(&last) = path.last() else { return false };
        let mut cells = self.blank.clone();
        for &square in path {
            mark(&mut cells, self.cell(square), 1);
        }
        self.spec.prune && self.dead_end(&cells, self.cell(last))
    }

    /// Whether a full path ending on `cell` is a tour of the kind asked for.
    fn ends_tour(&self, cell: u32) -> bool {
        !self.spec.closed || self.closes[cell as usize]
    }
}

/// One stack level: the square entered and the moves not yet tried from it.
#[derive(Clone, Copy)]
struct Frame<P> {
    cell: u32,
    pending: P,
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    thread_local! {
        /// Dead-end tests checked on this thread, and how many found a dead end.
        static CHECKED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    }

    /// The search's visited set, checking every dead-end test it answers
    /// against the board scan of [`Searcher::dead_end`].
    struct CheckedSet {
        tallied: TalliedSet,
        searcher: Searcher,
    }

    impl VisitedSet for CheckedSet {
        fn new(searcher: &Searcher) -> Self {
            CheckedSet { tallied: TalliedSet::new(searcher), searcher: searcher.clone() }
        }

        fn cells(&self) -> &[u8] {
            self.tallied.cells()
        }

        fn visit(&mut self, cell: u32) {
            self.tallied.visit(cell);
        }

        fn unvisit(&mut self, cell: u32) {
            self.tallied.unvisit(cell);
        }

        fn dead_end_entering(&self, cell: u32) -> bool {
            let mut entered = self.tallied.cells().to_vec();
            mark(&mut entered, cell, 1);
            let scanned = self.searcher.dead_end(&entered, cell);
            let tallied = self.tallied.dead_end_entering(cell);
            let spec = self.searcher.spec;
            let square = self.searcher.square(cell);
            assert_eq!(
                tallied, scanned,
                "entering {square} on {} from {} closed={}",
                spec.board, spec.start, spec.closed
            );
            CHECKED.with(|checked| {
                let (tests, dead) = checked.get();
                checked.set((tests + 1, dead + u64::from(scanned)));
            });
            scanned
        }
    }

    /// Runs the pruned search below `prefix` with every dead-end test
    /// checked, and checks that it is the search `run_from` does. Gives the
    /// outcome and how many of the checked tests found a dead end.
    fn checked_search(spec: SearchSpec, prefix: &[Square], goal: Goal) -> (Outcome, u64) {
        let searcher = Searcher::new(spec).unwrap();
        CHECKED.with(|checked| checked.set((0, 0)));
        let mut tours = TourList::default();
        let outcome = match spec.order {
            MoveOrder::Fixed => searcher.dfs::<FixedPending, CheckedSet>(prefix, goal, &mut tours),
            MoveOrder::Warnsdorff => searcher.dfs::<WarnsdorffPending, CheckedSet>(prefix, goal, &mut tours),
        };
        let (tests, dead) = CHECKED.with(Cell::get);
        // One test per node entered, the prefix's last square included.
        assert_eq!(tests, outcome.nodes - (prefix.len() as u64 - 1));
        let mut unchecked_tours = TourList::default();
        assert_eq!(searcher.run_from(prefix, goal, &mut unchecked_tours).unwrap(), outcome);
        assert_eq!(unchecked_tours, tours);
        (outcome, dead)
    }

    fn pruned(board: &str, start: &str, closed: bool, order: MoveOrder) -> SearchSpec {
        SearchSpec { board: board.parse().unwrap(), start: start.parse().unwrap(), closed, order, prune: true }
    }

    #[test]
    fn tallied_dead_ends_match_the_board_scan_on_every_node() {
        for order in [MoveOrder::Fixed, MoveOrder::Warnsdorff] {
            for (board, start, closed, goal) in [
                ("5", "a1", false, Goal::CountAll),
                ("5", "c3", false, Goal::CountAll),
                ("5", "b2", false, Goal::CountAll),
                ("6x5", "a1", false, Goal::CountAll),
                ("6x5", "c2", false, Goal::First(50)),
                ("6x5", "a1", true, Goal::CountAll),
                ("6x5", "b3", true, Goal::CountAll),
                ("6", "a1", true, Goal::First(200)),
                ("6", "c3", true, Goal::First(200)),
                ("5", "a1", true, Goal::CountAll),
                ("4x3", "a1", false, Goal::CountAll),
                ("3", "a1", false, Goal::CountAll),
                ("3", "b2", false, Goal::CountAll),
                ("1", "a1", false, Goal::CountAll),
                ("1", "a1", true, Goal::CountAll),
            ] {
                let spec = pruned(board, start, closed, order);
                let (outcome, dead) = checked_search(spec, &[spec.start], goal);
                let what = format!("{board} from {start} closed={closed} {order}");
                if outcome.nodes > 100 {
                    assert!(dead > 0, "{what}: no dead end in {} nodes", outcome.nodes);
                }
            }
        }
    }

    #[test]
    fn tallied_dead_ends_match_the_board_scan_below_prefixes() {
        for closed in [false, true] {
            let spec = pruned("6x5", "a1", closed, MoveOrder::Fixed);
            let mut first = TourList::default();
            Searcher::new(spec).unwrap().run(Goal::First(1), &mut first);
            let tour = &first.0[0];
            for length in [2, 5, 12, 20, tour.len()] {
                checked_search(spec, &tour[..length], Goal::CountAll);
            }
        }
    }

    #[test]
    fn known_pruned_counts() {
        let count = |spec| checked_search(spec, &[spec.start], Goal::CountAll).0;
        let open = count(pruned("5", "a1", false, MoveOrder::Fixed));
        assert_eq!((open.tours, open.nodes), (304, 8_855));
        let closed = count(pruned("6x5", "a1", true, MoveOrder::Fixed));
        assert_eq!((closed.tours, closed.nodes), (16, 14_934));
    }
}
