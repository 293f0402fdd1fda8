//! Knight's-tour answers as text, JSON and SVG.

use std::fmt::Write;

use knights_model::board::file_name;
use knights_model::tours::SearchSpec;
use knights_model::{BoardSize, Goal, Square};
use serde_json::{json, Value};

use crate::device::ModeledTime;

use super::query::Answer;
use super::whole_board::WholeBoard;
use crate::render::{svg_board, svg_centre};

/// The board with each square's move number (1 = start), rank 1 at the bottom.
pub fn board_text(board: BoardSize, tour: &[Square]) -> String {
    let mut numbers = vec![0usize; board.area()];
    for (i, square) in tour.iter().enumerate() {
        numbers[square.index(board)] = i + 1;
    }
    let cell = board.area().to_string().len().max(file_name(board.width - 1).len()) + 1;
    let rank_label = board.height.to_string().len();
    let mut out = String::new();
    for rank in (0..board.height).rev() {
        write!(out, "{:>rank_label$} ", rank + 1).unwrap();
        for file in 0..board.width {
            match numbers[Square::new(file, rank).index(board)] {
                0 => write!(out, "{:>cell$}", ".").unwrap(),
                n => write!(out, "{n:>cell$}").unwrap(),
            }
        }
        out.push('\n');
    }
    write!(out, "{:>rank_label$} ", "").unwrap();
    for file in 0..board.width {
        write!(out, "{:>cell$}", file_name(file)).unwrap();
    }
    out.push('\n');
    out
}

/// The tour as algebraic square names separated by spaces.
pub fn moves_text(tour: &[Square]) -> String {
    tour.iter().map(Square::to_string).collect::<Vec<_>>().join(" ")
}

fn kind(spec: &SearchSpec) -> &'static str {
    if spec.closed {
        "closed"
    } else {
        "open"
    }
}

/// A one-line summary of the search.
pub fn summary(answer: &Answer) -> String {
    let spec = &answer.query.spec;
    let seconds = answer.elapsed.as_secs_f64();
    let mut line = format!(
        "{} {} tour{} of {} from {} ({} order{}, {} device): {} nodes in {:.3} s",
        answer.tour_count,
        kind(spec),
        if answer.tour_count == 1 { "" } else { "s" },
        spec.board,
        spec.start,
        spec.order,
        if spec.prune { ", pruned" } else { "" },
        answer.device,
        answer.nodes,
        seconds
    );
    // This run's rate: nodes an earlier run counted took no time here.
    let resumed_nodes = answer.shared.map_or(0, |s| s.resumed_nodes);
    if seconds > 0.0 && answer.nodes > resumed_nodes {
        write!(line, " ({:.1} M nodes/s)", (answer.nodes - resumed_nodes) as f64 / seconds / 1e6).unwrap();
    }
    if let Some(cycles) = answer.cycles {
        write!(line, ", {cycles} cycles").unwrap();
        if let (Some(engine), Some(link)) = (answer.engine_seconds(), answer.link) {
            write!(line, " = {:.4} s of engine time at {} MHz", engine, link.clock_hz as f64 / 1e6).unwrap();
        }
        if let Some(engines) = answer.engines.filter(|e| e.working() > 1) {
            write!(
                line,
                " on {} engines (jobs at level {}, load balance {:.1}%)",
                engines.working(),
                engines.split_level,
                100.0 * engines.load_balance(cycles)
            )
            .unwrap();
        }
        if let Some(modeled) = ModeledTime::of(answer.cycles, answer.link) {
            line.push_str(&modeled.link_text());
        }
    }
    if let Some(shared) = answer.shared {
        let devices = if shared.devices == 1 { "1 device".to_string() } else { format!("{} devices", shared.devices) };
        write!(line, "; {} paths from the start shared by {devices}", shared.jobs).unwrap();
        if shared.resumed_jobs > 0 {
            write!(line, ", {} of them counted before (the journal's)", shared.resumed_jobs).unwrap();
        }
        if let Some(seconds) = shared.modeled_seconds {
            write!(line, " ({seconds:.4} s modeled on them at once)").unwrap();
        }
    }
    if let Some(reason) = answer.impossible {
        write!(line, "; not searched: {reason}").unwrap();
    } else if answer.status == knights_model::Status::Aborted {
        line.push_str("; stopped before the search finished");
    }
    line
}

/// The human-readable answer: each tour as a board and as moves, then the summary.
pub fn text(answer: &Answer) -> String {
    let mut out = String::new();
    for (i, tour) in answer.tours.iter().enumerate() {
        writeln!(out, "Tour {}:", i + 1).unwrap();
        out.push_str(&board_text(answer.query.spec.board, tour));
        writeln!(out, "{}\n", moves_text(tour)).unwrap();
    }
    if let Goal::First(k) = answer.query.goal {
        if answer.tour_count < k && answer.impossible.is_none() {
            writeln!(
                out,
                "No {}: the whole tree was searched.",
                if answer.tour_count == 0 { "tour" } else { "more tours" }
            )
            .unwrap();
        }
    }
    out.push_str(&summary(answer));
    out.push('\n');
    out
}

/// The answer as one JSON object.
pub fn json(answer: &Answer) -> Value {
    let modeled = ModeledTime::of(answer.cycles, answer.link);
    let spec = &answer.query.spec;
    let (mode, limit, tours) = match answer.query.goal {
        Goal::First(k) => {
            let tours: Vec<Vec<String>> =
                answer.tours.iter().map(|t| t.iter().map(Square::to_string).collect()).collect();
            ("first", Some(k), json!(tours))
        }
        Goal::CountAll => ("count", None, json!(answer.tour_count)),
    };
    json!({
        "size": spec.board.to_string(),
        "width": spec.board.width,
        "height": spec.board.height,
        "start": spec.start.to_string(),
        "closed": spec.closed,
        "order": spec.order,
        "prune": spec.prune,
        "device": answer.device,
        "mode": mode,
        "limit": limit,
        "status": answer.status,
        "tours": tours,
        "tour_count": answer.tour_count,
        "nodes": answer.nodes,
        "cycles": answer.cycles,
        "cycles_per_node": answer.cycles.map(|c| c as f64 / answer.nodes.max(1) as f64),
        "engine_seconds": answer.engine_seconds().or(answer.shared.and_then(|s| s.engine_seconds)),
        "devices": answer.shared.map_or(1, |s| s.devices),
        "jobs": answer.shared.map(|s| s.jobs),
        "modeled_seconds": answer.shared.and_then(|s| s.modeled_seconds),
        "resumed_jobs": answer.shared.map(|s| s.resumed_jobs),
        "engines": answer.engines.map(|e| e.working()),
        "split_level": answer.engines.map(|e| e.split_level),
        "engine_cycles": answer.engines.map(|e| e.engine_cycles),
        "engine_cycles_per_node": answer.engines.map(|e| e.engine_cycles as f64 / answer.nodes.max(1) as f64),
        "load_balance": answer.engines.zip(answer.cycles).map(|(e, c)| e.load_balance(c)),
        "clock_hz": answer.link.map(|l| l.clock_hz),
        "link_bytes_sent": answer.link.map(|l| l.bytes_sent),
        "link_bytes_received": answer.link.map(|l| l.bytes_received),
        "baud": modeled.map(|m| m.baud),
        "link_seconds": modeled.map(|m| m.link_seconds),
        "engine_and_link_seconds": modeled.map(|m| m.total_seconds()),
        "link_share": modeled.map(|m| m.link_share()),
        "elapsed_seconds": answer.elapsed.as_secs_f64(),
        "impossible": answer.impossible,
    })
}

/// A count from every start square: the total and its search in one line,
/// then a line per class of start squares.
pub fn whole_board_text(whole: &WholeBoard) -> String {
    let spec = &whole.spec;
    let seconds = whole.elapsed.as_secs_f64();
    let mut out = format!(
        "{} {} tour{} of {} from every start square ({} classes of start squares under the board's symmetries; {} order{}, {} device): {} nodes in {:.3} s",
        whole.tour_count(),
        kind(spec),
        if whole.tour_count() == 1 { "" } else { "s" },
        spec.board,
        whole.classes.len(),
        spec.order,
        if spec.prune { ", pruned" } else { "" },
        whole.device(),
        whole.nodes(),
        seconds
    );
    if let Some(cycles) = whole.cycles() {
        write!(out, ", {cycles} cycles").unwrap();
    }
    if let (Some(seconds), true) = (whole.modeled_seconds(), whole.devices.len() > 1) {
        write!(out, " ({:.4} s modeled on the {} devices at once)", seconds, whole.devices.len()).unwrap();
    }
    if whole.resumed_jobs > 0 {
        write!(out, "; {} of the classes counted before (the journal's)", whole.resumed_jobs).unwrap();
    }
    if let Some(reason) = whole.impossible() {
        write!(out, "; not searched: {reason}").unwrap();
    } else if whole.status == knights_model::Status::Aborted {
        out.push_str("; stopped before the count finished");
    }
    out.push('\n');
    for class in &whole.classes {
        writeln!(
            out,
            "  {:>4} ({} square{}): {} tours from each, {} nodes",
            class.start.to_string(),
            class.weight,
            if class.weight == 1 { "" } else { "s" },
            class.result.count,
            class.result.nodes
        )
        .unwrap();
    }
    out
}

/// A count from every start square as one JSON object: the total as
/// `tours` and `tour_count` (as for one start), and `classes`.
pub fn whole_board_json(whole: &WholeBoard) -> Value {
    let spec = &whole.spec;
    let classes: Vec<Value> = whole
        .classes
        .iter()
        .map(|c| {
            json!({
                "start": c.start.to_string(),
                "weight": c.weight,
                "tours": c.result.count,
                "nodes": c.result.nodes,
                "cycles": c.result.cycles,
                "engine_seconds": c.result.engine_seconds,
                "elapsed_seconds": c.result.elapsed_seconds,
                "device": c.result.device,
                "device_number": c.result.device_number,
            })
        })
        .collect();
    json!({
        "size": spec.board.to_string(),
        "width": spec.board.width,
        "height": spec.board.height,
        "start": "all",
        "closed": spec.closed,
        "order": spec.order,
        "prune": spec.prune,
        "device": whole.device(),
        "devices": whole.devices.len(),
        "failed_devices": whole.failures,
        "mode": "count",
        "status": whole.status,
        "tours": whole.tour_count(),
        "tour_count": whole.tour_count(),
        "nodes": whole.nodes(),
        "cycles": whole.cycles(),
        "engine_seconds": whole.classes.iter().map(|c| c.result.engine_seconds).sum::<Option<f64>>(),
        "modeled_seconds": whole.modeled_seconds(),
        "elapsed_seconds": whole.elapsed.as_secs_f64(),
        "resumed_jobs": whole.resumed_jobs,
        "impossible": whole.impossible(),
        "classes": classes,
    })
}

/// One tour drawn as an SVG picture: the board, the knight's path, and the
/// start (green) and end (red) squares.
pub fn svg(board: BoardSize, tour: &[Square], closed: bool) -> String {
    let centre = |s: &Square| svg_centre(board, *s);
    let mut out = svg_board(board);
    let mut points: Vec<String> = tour.iter().map(|s| format!("{},{}", centre(s).0, centre(s).1)).collect();
    if closed {
        points.push(points[0].clone());
    }
    writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f3a93\" stroke-width=\"3\" stroke-linejoin=\"round\"/>",
        points.join(" ")
    )
    .unwrap();
    for (square, colour) in [(tour.first(), "#2e8b57"), (tour.last(), "#c0392b")] {
        if let Some(square) = square {
            let (x, y) = centre(square);
            writeln!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"8\" fill=\"{colour}\"/>").unwrap();
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_text_numbers_the_moves() {
        let board = BoardSize::new(3, 2);
        let tour = [Square::new(0, 0), Square::new(2, 1)];
        assert_eq!(board_text(board, &tour), "2  . . 2\n1  1 . .\n   a b c\n");
        assert_eq!(moves_text(&tour), "a1 c2");
    }

    #[test]
    fn svg_draws_every_square_and_the_path() {
        let board = BoardSize::new(3, 4);
        let tour = [Square::new(0, 0), Square::new(1, 2)];
        let picture = svg(board, &tour, false);
        assert_eq!(picture.matches("<rect").count(), 12);
        assert!(picture.contains("<polyline points=\"40,160 80,80\""));
    }
}
