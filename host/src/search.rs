//! The CPU reference search: the golden model the RTL engine must match node
//! for node.
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
//! [`crate::moves`]. `warnsdorff` tries the free neighbours of the current
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
use crate::moves::{is_knight_move, KNIGHT_STEPS};

/// Order in which the moves out of a square are tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, clap::ValueEnum)]
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

/// When a search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Stop after this many tours (at least 1).
    First(u64),
    /// Search the whole tree.
    CountAll,
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The requested number of tours was found.
    Found,
    /// The whole tree was searched.
    Exhausted,
    /// The observer asked to stop.
    Aborted,
}

/// Counts at the end of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub tours: u64,
    pub nodes: u64,
    pub status: Status,
}

/// Whether a search goes on after a callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
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

    /// Searches the subtree below a fixed starting path (a prefix job). The
    /// prefix's squares count as nodes, so a one-square prefix is [`Self::run`].
    pub fn run_from(&self, prefix: &[Square], goal: Goal, observer: &mut dyn Observer) -> Result<Outcome> {
        self.check_prefix(prefix)?;
        if let Goal::First(0) = goal {
            bail!("a first-K search needs K of at least 1");
        }
        Ok(match self.spec.order {
            MoveOrder::Fixed => self.dfs::<FixedPending>(prefix, goal, observer),
            MoveOrder::Warnsdorff => self.dfs::<WarnsdorffPending>(prefix, goal, observer),
        })
    }

    fn check_prefix(&self, prefix: &[Square]) -> Result<()> {
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

    fn dfs<P: Pending>(&self, prefix: &[Square], goal: Goal, observer: &mut dyn Observer) -> Outcome {
        let total = self.spec.board.area();
        let limit = match goal {
            Goal::First(k) => k,
            Goal::CountAll => u64::MAX,
        };
        let mut cells = self.blank.clone();
        let mut frames: Vec<Frame<P>> = Vec::with_capacity(total);
        for &square in prefix {
            let cell = self.cell(square);
            mark(&mut cells, cell, 1);
            frames.push(Frame { cell, pending: P::empty() });
        }
        let base = prefix.len() - 1;
        let mut depth = base;
        frames[depth].pending = self.pending::<P>(&cells, frames[depth].cell);
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
                mark(&mut cells, cell, 1);
                let pending = self.pending::<P>(&cells, cell);
                if pending.is_empty() {
                    // A leaf: a tour when it fills the board. Undone at once
                    // rather than pushed and popped.
                    if depth + 2 == total && self.ends_tour(cell) {
                        tours += 1;
                        frames[depth] = top;
                        frames[depth + 1] = Frame { cell, pending };
                        if let Some(status) = found(&frames, observer, tours) {
                            return Outcome { tours, nodes, status };
                        }
                    }
                    mark(&mut cells, cell, 0);
                } else {
                    frames[depth] = top;
                    depth += 1;
                    top = Frame { cell, pending };
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
                mark(&mut cells, top.cell, 0);
                depth -= 1;
                top = frames[depth];
            }
        }
    }

    /// The moves to try from `at`, just entered: none when pruning finds the
    /// path cannot become a tour.
    #[inline(always)]
    fn pending<P: Pending>(&self, cells: &[u8], at: u32) -> P {
        if self.spec.prune && self.dead_end(cells, at) {
            P::empty()
        } else {
            P::new(cells, at, &self.offsets)
        }
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

/// Sets the visited flag of an on-board cell.
#[inline(always)]
fn mark(cells: &mut [u8], cell: u32, value: u8) {
    cells[cell as usize] = value;
}

/// The cell a knight step away from the on-board cell `at`.
#[inline(always)]
fn neighbour(cells: &[u8], at: u32, offset: i32) -> u8 {
    let index = at.wrapping_add_signed(offset) as usize;
    debug_assert!(index < cells.len());
    // SAFETY: `at` is an on-board cell and a knight step moves at most PAD
    // files and PAD ranks, so `index` stays inside the padded grid.
    unsafe { *cells.get_unchecked(index) }
}

/// One stack level: the square entered and the moves not yet tried from it.
#[derive(Clone, Copy)]
struct Frame<P> {
    cell: u32,
    pending: P,
}

/// The untried moves of a level, in the order the move rule tries them.
trait Pending: Copy {
    fn empty() -> Self;
    fn is_empty(&self) -> bool;
    /// The free moves out of `at`, with `at` itself already marked visited.
    fn new(cells: &[u8], at: u32, offsets: &[i32; 8]) -> Self;
    /// Takes the next move index to try.
    fn next(&mut self) -> Option<usize>;
}

/// Fixed order: a mask of free move indices, tried lowest first.
#[derive(Clone, Copy)]
struct FixedPending(u8);

impl Pending for FixedPending {
    fn empty() -> Self {
        FixedPending(0)
    }

    fn is_empty(&self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    fn new(cells: &[u8], at: u32, offsets: &[i32; 8]) -> Self {
        let mut mask = 0u8;
        for (m, &offset) in offsets.iter().enumerate() {
            mask |= u8::from(neighbour(cells, at, offset) == 0) << m;
        }
        FixedPending(mask)
    }

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let m = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(m)
    }
}

/// Warnsdorff order: free move indices sorted by (onward moves, index),
/// packed three bits each, next move in the low bits.
#[derive(Clone, Copy)]
struct WarnsdorffPending {
    queue: u32,
    len: u8,
}

impl Pending for WarnsdorffPending {
    fn empty() -> Self {
        WarnsdorffPending { queue: 0, len: 0 }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn new(cells: &[u8], at: u32, offsets: &[i32; 8]) -> Self {
        // Key degree * 8 + index orders by (degree, index) because index < 8.
        let mut keys = [0u8; 8];
        let mut len = 0;
        for (m, &offset) in offsets.iter().enumerate() {
            let candidate = at.wrapping_add_signed(offset);
            if neighbour(cells, at, offset) == 0 {
                let degree = offsets.iter().filter(|&&o| neighbour(cells, candidate, o) == 0).count();
                keys[len] = (degree * 8 + m) as u8;
                len += 1;
            }
        }
        keys[..len].sort_unstable();
        let queue = keys[..len].iter().rev().fold(0u32, |queue, &key| (queue << 3) | u32::from(key & 7));
        WarnsdorffPending { queue, len: len as u8 }
    }

    fn next(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let m = (self.queue & 7) as usize;
        self.queue >>= 3;
        self.len -= 1;
        Some(m)
    }
}
