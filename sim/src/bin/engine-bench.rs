//! Cycles per node of the Verilated engine on fixed searches, and how fast
//! Verilator runs it: `cargo run --release -p knights-sim --bin engine-bench`.

use std::time::Instant;

use knights_sim::{EngineSim, Request};

fn main() {
    let cases = [
        (
            "count 5x5 a1 (open)",
            Request { width: 5, height: 5, start: (0, 0), closed: false, warnsdorff: false, limit: None },
        ),
        (
            "count 6x5 a1 (open)",
            Request { width: 6, height: 5, start: (0, 0), closed: false, warnsdorff: false, limit: None },
        ),
        (
            "count 6x5 a1 (closed)",
            Request { width: 6, height: 5, start: (0, 0), closed: true, warnsdorff: false, limit: None },
        ),
        (
            "first tour 8x8 a1",
            Request { width: 8, height: 8, start: (0, 0), closed: false, warnsdorff: false, limit: Some(1) },
        ),
        (
            "count 5x5 a1 warnsdorff",
            Request { width: 5, height: 5, start: (0, 0), closed: false, warnsdorff: true, limit: None },
        ),
        (
            "first 8x8 warnsdorff",
            Request { width: 8, height: 8, start: (0, 0), closed: false, warnsdorff: true, limit: Some(1) },
        ),
    ];
    let (max_width, max_height) = EngineSim::max_board();
    println!("engine build: boards up to {max_width}x{max_height}");
    let mut sim = EngineSim::new();
    for (name, request) in cases {
        let started = Instant::now();
        let summary = sim.search(&request, u64::MAX, &mut |_| true);
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{name:<22} {:>10} nodes {:>10} cycles  {:.4} cycles/node  {:>6} tours  (Verilator {:.1} M cycles/s)",
            summary.nodes,
            summary.cycles,
            summary.cycles as f64 / summary.nodes as f64,
            summary.tours,
            summary.cycles as f64 / seconds / 1e6
        );
    }
}
