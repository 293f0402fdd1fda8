//! The visited set as the reference search keeps it: plain flags, or flags
//! with the tallies that dead-end pruning reads.

use super::Searcher;

/// Sets the visited flag of an on-board cell.
#[inline(always)]
pub(super) fn mark(cells: &mut [u8], cell: u32, value: u8) {
    cells[cell as usize] = value;
}

/// The cell a knight step away from the on-board cell `at`.
#[inline(always)]
pub(super) fn neighbour(cells: &[u8], at: u32, offset: i32) -> u8 {
    let index = at.wrapping_add_signed(offset) as usize;
    debug_assert!(index < cells.len());
    // SAFETY: `at` is an on-board cell and a knight step moves at most PAD
    // files and PAD ranks, so `index` stays inside the padded grid.
    unsafe { *cells.get_unchecked(index) }
}

/// The visited set as the search keeps it, with the dead-end test that goes
/// with it.
pub(super) trait VisitedSet {
    /// Every board cell free.
    fn new(searcher: &Searcher) -> Self;
    /// The padded grid: 1 for visited or off-board, 0 for free.
    fn cells(&self) -> &[u8];
    /// Marks the free on-board `cell` visited.
    fn visit(&mut self, cell: u32);
    /// Frees the visited on-board `cell` again.
    fn unvisit(&mut self, cell: u32);
    /// [`Searcher::dead_end`] once the free `cell` is entered, asked before it
    /// is visited; always false when the search does not prune.
    fn dead_end_entering(&self, cell: u32) -> bool;
}

/// The visited flags alone: the search without pruning.
#[derive(Clone)]
pub(super) struct PlainSet {
    cells: Vec<u8>,
}

impl VisitedSet for PlainSet {
    fn new(searcher: &Searcher) -> Self {
        PlainSet { cells: searcher.blank.clone() }
    }

    #[inline(always)]
    fn cells(&self) -> &[u8] {
        &self.cells
    }

    #[inline(always)]
    fn visit(&mut self, cell: u32) {
        mark(&mut self.cells, cell, 1);
    }

    #[inline(always)]
    fn unvisit(&mut self, cell: u32) {
        mark(&mut self.cells, cell, 0);
    }

    #[inline(always)]
    fn dead_end_entering(&self, _cell: u32) -> bool {
        false
    }
}

/// Added to the base ways of a visited or off-board cell, so that it never
/// counts among the cells with no way or one way.
pub(super) const VISITED: u8 = 16;

/// The visited flags plus the counts [`Searcher::dead_end`] looks at, kept up
/// to date as cells are visited and freed, so that the test costs the same on
/// any board.
///
/// A cell's *base ways* are its free on-board neighbours, plus one on a
/// closing cell in closed mode. Entering a free cell `at` takes one free
/// neighbour from each of its free neighbours and gives each one a way in
/// from `at`: so the ways in that [`Searcher::dead_end`] counts, with `at`
/// entered, are the base ways before `at` is visited. The test is therefore
/// the tallies of free cells by base ways with `at` itself left out.
/// Visiting or freeing a cell changes the base ways of its eight neighbours
/// only.
#[derive(Clone)]
pub(super) struct TalliedSet {
    cells: Vec<u8>,
    /// Base ways of every cell of the padded grid, plus [`VISITED`] on
    /// visited and off-board cells.
    ways: Vec<u8>,
    /// Free cells by base ways.
    tallies: Tallies,
    /// Free on-board cells.
    free: u32,
    offsets: [i32; 8],
    closed: bool,
    closes: Vec<bool>,
    /// The start square's cell: its base ways are the free cells a knight
    /// move from the start, the free closing cells (plus [`VISITED`] once
    /// the start is visited, which it is but while it is being entered).
    start: u32,
}

impl TalliedSet {
    fn free_closing_cells(&self) -> u32 {
        u32::from(self.ways[self.start as usize] % VISITED)
    }

    /// Adds `change` (plus or minus one) to the free neighbours of each of
    /// the cell's neighbours, updating the tallies as their base ways change.
    #[inline(always)]
    fn change_neighbours(&mut self, cell: u32, change: i8) {
        for offset in self.offsets {
            let index = cell.wrapping_add_signed(offset) as usize;
            debug_assert!(index < self.ways.len());
            // SAFETY: as in `neighbour`, a knight step from an on-board cell
            // stays inside the padded grid.
            let near = unsafe { self.ways.get_unchecked_mut(index) };
            self.tallies.add(*near, -1);
            *near = near.wrapping_add_signed(change);
            self.tallies.add(*near, 1);
        }
    }
}

impl VisitedSet for TalliedSet {
    fn new(searcher: &Searcher) -> Self {
        let closed = searcher.spec.closed;
        let mut ways: Vec<u8> = searcher.blank.iter().map(|&visited| visited * VISITED).collect();
        let mut tallies = Tallies::default();
        for &cell in &searcher.board_cells {
            for offset in searcher.offsets {
                ways[cell.wrapping_add_signed(offset) as usize] += 1;
            }
        }
        for &cell in &searcher.board_cells {
            let cell = cell as usize;
            ways[cell] += u8::from(closed && searcher.closes[cell]);
            tallies.add(ways[cell], 1);
        }
        TalliedSet {
            cells: searcher.blank.clone(),
            ways,
            tallies,
            free: searcher.board_cells.len() as u32,
            offsets: searcher.offsets,
            closed,
            closes: searcher.closes.clone(),
            start: searcher.cell(searcher.spec.start),
        }
    }

    #[inline(always)]
    fn cells(&self) -> &[u8] {
        &self.cells
    }

    #[inline(always)]
    fn visit(&mut self, cell: u32) {
        mark(&mut self.cells, cell, 1);
        self.free -= 1;
        self.tallies.add(self.ways[cell as usize], -1);
        self.ways[cell as usize] += VISITED;
        self.change_neighbours(cell, -1);
    }

    #[inline(always)]
    fn unvisit(&mut self, cell: u32) {
        self.change_neighbours(cell, 1);
        self.ways[cell as usize] -= VISITED;
        self.tallies.add(self.ways[cell as usize], 1);
        self.free += 1;
        mark(&mut self.cells, cell, 0);
    }

    #[inline(always)]
    fn dead_end_entering(&self, cell: u32) -> bool {
        let mut others = self.tallies;
        others.add(self.ways[cell as usize], -1);
        if self.closed {
            let closing_left = self.free_closing_cells() - u32::from(self.closes[cell as usize]);
            others.no_way + others.one_way > 0 || (self.free > 1 && closing_left == 0)
        } else {
            others.no_way > 0 || others.one_way >= 2
        }
    }
}

/// How many free cells have no way in and how many have exactly one.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tallies {
    no_way: i32,
    one_way: i32,
}

impl Tallies {
    /// Counts `count` more (or fewer, when negative) cells with `ways` base
    /// ways. Cells marked [`VISITED`] have too many ways to count.
    #[inline(always)]
    fn add(&mut self, ways: u8, count: i32) {
        self.no_way += count * i32::from(ways == 0);
        self.one_way += count * i32::from(ways == 1);
    }
}
