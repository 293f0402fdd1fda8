//! N-Queens answers as text, JSON and SVG.

use std::fmt::Write;

use knights_model::board::file_name;
use knights_model::{BoardSize, Goal, Square};
use serde_json::{json, Value};

use crate::device::ModeledTime;

use super::query::QueensAnswer;
use crate::render::{svg_board, svg_centre, SVG_CELL};

/// An N-Queens solution as a board: rank N at the top, `Q` for a queen.
pub fn board_text(files: &[u8]) -> String {
    let n = files.len();
    let mut out = String::new();
    for rank in (0..n).rev() {
        write!(out, "{:>2} ", rank + 1).unwrap();
        for file in 0..n {
            out.push_str(if usize::from(files[rank]) == file { " Q" } else { " ." });
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..n {
        write!(out, " {}", file_name(file as u16)).unwrap();
    }
    out.push('\n');
    out
}

/// A solution as squares, rank 1 up (a1 c2 ...).
pub fn squares_text(files: &[u8]) -> String {
    files
        .iter()
        .enumerate()
        .map(|(rank, &file)| format!("{}{}", file_name(u16::from(file)), rank + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A one-line summary of an N-Queens search.
pub fn summary(answer: &QueensAnswer) -> String {
    let seconds = answer.elapsed.as_secs_f64();
    let mirror = answer.query.mirror && answer.query.goal == Goal::CountAll && answer.query.n > 1;
    let mut line = format!(
        "{} solution{} of {}-queens ({}{} device): {} nodes in {:.3} s",
        answer.solution_count,
        if answer.solution_count == 1 { "" } else { "s" },
        answer.query.n,
        if answer.query.constellations {
            "from constellations, "
        } else if mirror {
            "mirror-reduced, "
        } else {
            ""
        },
        answer.device,
        answer.nodes,
        seconds
    );
    // This run's rate: nodes an earlier run counted took no time here.
    if seconds > 0.0 && answer.nodes > answer.resumed_nodes {
        write!(line, " ({:.1} M nodes/s)", (answer.nodes - answer.resumed_nodes) as f64 / seconds / 1e6).unwrap();
    }
    if answer.resumed_parts > 0 {
        write!(line, "; {} of the parts counted before (the journal's)", answer.resumed_parts).unwrap();
    }
    if let Some(unique) = answer.unique_count {
        write!(line, "; {unique} unique under the board's eight symmetries").unwrap();
    }
    if let Some(cycles) = answer.cycles {
        write!(line, ", {cycles} cycles").unwrap();
        if let (Some(solver), Some(link)) = (answer.engine_seconds(), answer.link) {
            write!(line, " = {solver:.4} s of solver time at {} MHz", link.clock_hz as f64 / 1e6).unwrap();
        }
        if let Some(engines) = answer.engines.filter(|e| e.working() > 1) {
            if answer.query.constellations {
                write!(line, " on {} searches (jobs: constellations)", engines.working()).unwrap();
            } else {
                write!(line, " on {} searches (jobs of {} queens)", engines.working(), engines.split_level).unwrap();
            }
        }
        if let Some(modeled) = ModeledTime::of(answer.cycles, answer.link) {
            line.push_str(&modeled.link_text());
        }
    }
    if answer.status == knights_model::Status::Aborted {
        line.push_str("; stopped before the search finished");
    }
    line
}

/// The human-readable N-Queens answer: each solution as a board and as
/// squares, then the summary.
pub fn text(answer: &QueensAnswer) -> String {
    let mut out = String::new();
    for (i, files) in answer.solutions.iter().enumerate() {
        writeln!(out, "Solution {}:", i + 1).unwrap();
        out.push_str(&board_text(files));
        writeln!(out, "{}\n", squares_text(files)).unwrap();
    }
    if let Goal::First(k) = answer.query.goal {
        if answer.solution_count < k {
            let what = if answer.solution_count == 0 { "solution" } else { "more solutions" };
            writeln!(out, "No {what}: the whole tree was searched.").unwrap();
        }
    }
    out.push_str(&summary(answer));
    out.push('\n');
    out
}

/// The N-Queens answer as one JSON object.
pub fn json(answer: &QueensAnswer) -> Value {
    let modeled = ModeledTime::of(answer.cycles, answer.link);
    let (mode, limit, solutions) = match answer.query.goal {
        Goal::First(k) => ("first", Some(k), json!(answer.solutions)),
        Goal::CountAll => ("count", None, json!(answer.solution_count)),
    };
    json!({
        "problem": "queens",
        "n": answer.query.n,
        "symmetry": (answer.query.mirror || answer.query.constellations) && answer.query.goal == Goal::CountAll,
        "constellations": answer.query.constellations,
        "device": answer.device,
        "mode": mode,
        "limit": limit,
        "status": answer.status,
        "solutions": solutions,
        "solution_count": answer.solution_count,
        "unique_count": answer.unique_count,
        "nodes": answer.nodes,
        "parts": answer.parts,
        "cycles": answer.cycles,
        "cycles_per_node": answer.cycles.map(|c| c as f64 / answer.nodes.max(1) as f64),
        "engines": answer.engines.map(|e| e.working()),
        "split_level": answer.engines.filter(|_| !answer.query.constellations).map(|e| e.split_level),
        "engine_cycles": answer.engines.map(|e| e.engine_cycles),
        "engine_cycles_per_node": answer.engines.map(|e| e.engine_cycles as f64 / answer.nodes.max(1) as f64),
        "clock_hz": answer.link.map(|l| l.clock_hz),
        "engine_seconds": answer.engine_seconds(),
        "baud": modeled.map(|m| m.baud),
        "link_seconds": modeled.map(|m| m.link_seconds),
        "engine_and_link_seconds": modeled.map(|m| m.total_seconds()),
        "link_share": modeled.map(|m| m.link_share()),
        "elapsed_seconds": answer.elapsed.as_secs_f64(),
        "resumed_parts": answer.resumed_parts,
    })
}

/// One N-Queens solution drawn as an SVG picture.
pub fn svg(files: &[u8]) -> String {
    let board = BoardSize::square(files.len() as u16);
    let mut out = svg_board(board);
    for (rank, &file) in files.iter().enumerate() {
        let (cx, cy) = svg_centre(board, Square::new(u16::from(file), rank as u16));
        writeln!(out, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"#202020\" stroke=\"#ffffff\"/>", SVG_CELL / 3)
            .unwrap();
    }
    out.push_str("</svg>\n");
    out
}
