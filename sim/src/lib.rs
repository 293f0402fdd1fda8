//! The engine's emitted Verilog under Verilator, driven from Rust.
//!
//! [`EngineSim`] clocks the Verilated engine through one search at a time and
//! returns what its ports report: the streamed tours and the done counters.
//! Squares are `(file, rank)` pairs with `(0, 0)` = a1.

use std::ffi::c_void;

include!(concat!(env!("OUT_DIR"), "/max_board.rs"));

extern "C" {
    fn ksim_new() -> *mut c_void;
    fn ksim_free(sim: *mut c_void);
    fn ksim_start(
        sim: *mut c_void,
        width: u32,
        height: u32,
        start: u32,
        closed: i32,
        warnsdorff: i32,
        count_all: i32,
        limit: u64,
        prefix: *const u32,
        prefix_length: u32,
    );
    fn ksim_run(sim: *mut c_void, max_clocks: u64) -> u64;
    fn ksim_take(sim: *mut c_void, last: *mut i32) -> u32;
    fn ksim_cancel(sim: *mut c_void);
    fn ksim_done(sim: *mut c_void) -> i32;
    fn ksim_tour_valid(sim: *mut c_void) -> i32;
    fn ksim_status(sim: *mut c_void) -> u32;
    fn ksim_tours(sim: *mut c_void) -> u64;
    fn ksim_nodes(sim: *mut c_void) -> u64;
    fn ksim_cycles(sim: *mut c_void) -> u64;
}

/// A square as `(file, rank)`, `(0, 0)` = a1.
pub type EngineSquare = (u16, u16);

/// A search request in the engine's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub width: u16,
    pub height: u16,
    pub start: EngineSquare,
    pub closed: bool,
    /// Warnsdorff's move order instead of the canonical one.
    pub warnsdorff: bool,
    /// `None` counts every tour; `Some(k)` streams the first `k`.
    pub limit: Option<u64>,
}

impl Request {
    /// A request from the start square alone.
    pub fn new(
        width: u16,
        height: u16,
        start: EngineSquare,
        closed: bool,
        warnsdorff: bool,
        limit: Option<u64>,
    ) -> Self {
        Request { width, height, start, closed, warnsdorff, limit }
    }
}

/// How a search ended, as the engine's `status` port says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineStatus {
    Found,
    Exhausted,
    Aborted,
}

/// The engine's counters when a search ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub status: EngineStatus,
    pub tours: u64,
    pub nodes: u64,
    pub cycles: u64,
}

/// One Verilated engine.
pub struct EngineSim {
    raw: *mut c_void,
}

impl Default for EngineSim {
    fn default() -> Self {
        Self::new()
    }
}

impl EngineSim {
    pub fn new() -> Self {
        // SAFETY: ksim_new returns a fresh model owned by this value.
        EngineSim { raw: unsafe { ksim_new() } }
    }

    /// The largest board this build searches: (files, ranks).
    pub fn max_board() -> (u16, u16) {
        MAX_BOARD
    }

    /// Runs one search to its end. `on_tour` gets each streamed tour and
    /// returns whether to go on; `max_clocks` bounds the whole run, after
    /// which the search is cancelled.
    pub fn search(
        &mut self,
        request: &Request,
        max_clocks: u64,
        on_tour: &mut dyn FnMut(&[EngineSquare]) -> bool,
    ) -> Summary {
        self.search_from(request, &[], max_clocks, on_tour)
    }

    /// As [`Self::search`], below a fixed starting path: `prefix` holds the
    /// squares after the start square (a prefix job). Node counts include
    /// the prefix's squares, as the reference's `run_from` does.
    pub fn search_from(
        &mut self,
        request: &Request,
        prefix: &[EngineSquare],
        max_clocks: u64,
        on_tour: &mut dyn FnMut(&[EngineSquare]) -> bool,
    ) -> Summary {
        let (max_width, max_height) = MAX_BOARD;
        assert!(request.width <= max_width && request.height <= max_height, "board larger than the build");
        let index = |(file, rank): EngineSquare| u32::from(rank) * u32::from(max_width) + u32::from(file);
        let start = index(request.start);
        let prefix: Vec<u32> = prefix.iter().map(|&square| index(square)).collect();
        // SAFETY: `raw` is a live model for the lifetime of `self`.
        unsafe {
            ksim_start(
                self.raw,
                request.width.into(),
                request.height.into(),
                start,
                request.closed.into(),
                request.warnsdorff.into(),
                request.limit.is_none().into(),
                request.limit.unwrap_or(0),
                prefix.as_ptr(),
                prefix.len() as u32,
            )
        };
        let mut tour = Vec::new();
        let mut budget = max_clocks;
        loop {
            // SAFETY: as above.
            let clocks = unsafe { ksim_run(self.raw, budget) };
            budget -= clocks;
            if unsafe { ksim_done(self.raw) } != 0 {
                break;
            }
            if budget == 0 {
                unsafe { ksim_cancel(self.raw) };
                continue;
            }
            if unsafe { ksim_tour_valid(self.raw) } != 0 {
                let mut last = 0;
                let index = unsafe { ksim_take(self.raw, &mut last) };
                budget = budget.saturating_sub(1);
                tour.push(((index % u32::from(max_width)) as u16, (index / u32::from(max_width)) as u16));
                if last != 0 {
                    let go_on = on_tour(&tour);
                    tour.clear();
                    if !go_on {
                        unsafe { ksim_cancel(self.raw) };
                    }
                }
            }
        }
        let status = match unsafe { ksim_status(self.raw) } {
            1 => EngineStatus::Found,
            2 => EngineStatus::Exhausted,
            _ => EngineStatus::Aborted,
        };
        // SAFETY: as above.
        unsafe {
            Summary { status, tours: ksim_tours(self.raw), nodes: ksim_nodes(self.raw), cycles: ksim_cycles(self.raw) }
        }
    }
}

impl Drop for EngineSim {
    fn drop(&mut self) {
        // SAFETY: `raw` came from ksim_new and is freed once.
        unsafe { ksim_free(self.raw) };
    }
}
