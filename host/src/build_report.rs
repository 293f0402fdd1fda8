//! The FPGA builds' reports (`build.json`, one per build directory) and
//! their text: what `knights build` prints and the README's table. Plain
//! data, readable without the FPGA flow (`knights bench` models boards from
//! them).

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Where builds go by default: one directory per board below it.
pub const BUILD_ROOT: &str = "build";

/// Used and available cells of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub used: u64,
    pub available: u64,
}

fn wide() -> String {
    "wide".into()
}

/// Clocks a compact engine takes a node, for modeling a build's speed:
/// measured on the iCEBreaker's simulated build, one engine, from a1
/// (2026-11-25): 4.39 on the pruned 5x5 count, 4.76 unpruned, 4.12 on the
/// pruned closed 6x6 count, 3.72 on the first pruned 8x8 tour, 4.98 on the
/// first thousand Warnsdorff 7x7 tours. Shared by four engines, the same
/// within a few percent. (`knights bench` measures each build's own.)
pub const COMPACT_CYCLES_PER_NODE: f64 = 4.4;

/// Searches an N-Queens solver runs (`rtl/src/queens/ranks.rs`: a
/// two-stage pipeline, each stage a search's): each is an engine to the
/// platform and to build reports.
pub const QUEENS_SEARCHES_PER_SOLVER: u16 = 2;

/// Clocks an engine of `kind` (as board files name it) takes a node: the
/// wide engine enters one every clock, an N-Queens search every other (its
/// solver's other clocks are the other search's). (Build reports keep the
/// kind by name: this module is built without the board files'
/// `EngineKind`.)
pub fn cycles_per_node(kind: &str) -> f64 {
    match kind {
        "compact" => COMPACT_CYCLES_PER_NODE,
        "queens" => f64::from(QUEENS_SEARCHES_PER_SOLVER),
        _ => 1.0,
    }
}

/// A finished build, as `build.json` keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildReport {
    pub board: String,
    pub title: String,
    pub fpga: String,
    /// The engine kind, as board files name it (`wide`, `queens`; reports
    /// from before this field are of wide engines).
    #[serde(default = "wide")]
    pub engine: String,
    pub max_width: u16,
    pub max_height: u16,
    pub engines: u16,
    /// Warnsdorff's move order is built in (reports from before this field
    /// always had it).
    #[serde(default = "built_in")]
    pub warnsdorff: bool,
    /// An N-Queens build's generator of constellation jobs (reports from
    /// before this field had none).
    #[serde(default)]
    pub constellations: bool,
    pub board_clock_hz: u64,
    /// The design's clock (the PLL's output when there is one).
    pub clock_hz: u64,
    pub pll: Option<String>,
    pub baud: u32,
    /// nextpnr's timing target and the frequency it reached, for the design clock.
    pub target_mhz: f64,
    pub fmax_mhz: f64,
    /// nextpnr's placement seed, when one was given.
    #[serde(default)]
    pub seed: Option<u64>,
    /// ABC9's delay target, when one was given.
    #[serde(default)]
    pub map_delay_ps: Option<u64>,
    /// Logic cells as the placer counts them (iCE40 LCs: a LUT and a
    /// flip-flop each; ECP5 LUT4 slots).
    pub logic_cells: Usage,
    pub luts: u64,
    pub flip_flops: u64,
    pub block_rams: Usage,
    /// Engines × clock ÷ the engine kind's [`cycles_per_node`] when it was
    /// built (tables and summaries work it out again:
    /// [`BuildReport::modeled_nodes_per_second`]).
    pub modeled_nodes_per_second: f64,
    /// The file to flash, in the same directory.
    pub bitstream: String,
    pub tools: Vec<String>,
    pub seconds: f64,
}

/// Reports written before the `warnsdorff` field existed were all built with it.
impl BuildReport {
    /// The report in build directory `dir` (its `build.json`).
    pub fn read(dir: &Path) -> anyhow::Result<Self> {
        use anyhow::Context;
        let path = dir.join("build.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("no build report at {}: run knights build first", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a build report", path.display()))
    }
}

fn built_in() -> bool {
    true
}

/// MHz for messages: `25`, `12.5`, `29.62`.
pub(crate) fn mhz(hz: f64) -> String {
    let text = format!("{:.2}", hz / 1e6);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `used` as a percentage of `available`.
fn percent(u: Usage) -> f64 {
    if u.available == 0 {
        0.0
    } else {
        100.0 * u.used as f64 / u.available as f64
    }
}

impl BuildReport {
    /// Engines × clock ÷ the engine kind's [`cycles_per_node`].
    pub fn modeled_nodes_per_second(&self) -> f64 {
        f64::from(self.engines) * self.clock_hz as f64 / cycles_per_node(&self.engine)
    }
}

/// What `knights build` prints when it succeeds.
pub fn summary(r: &BuildReport, dir: &Path) -> String {
    format!(
        "{}: {}\n  \
         boards up to {}x{}, {} engine(s){}, {} MHz{}: Fmax {:.2} MHz against {:.2} MHz, met{}\n  \
         logic cells {}/{} ({:.0}%), LUT4 {}, flip-flops {}, block RAM {}/{}{}\n  \
         modeled {:.1} M nodes/s; {:.0} s; flash it with `knights flash --board {}`\n",
        r.title,
        dir.join(&r.bitstream).display(),
        r.max_width,
        r.max_height,
        r.engines,
        if r.warnsdorff { "" } else { " without Warnsdorff" },
        mhz(r.clock_hz as f64),
        r.pll.as_ref().map(|p| format!(" ({p})")).unwrap_or_default(),
        r.fmax_mhz,
        r.target_mhz,
        r.seed.map(|seed| format!(" (placement seed {seed})")).unwrap_or_default(),
        r.logic_cells.used,
        r.logic_cells.available,
        percent(r.logic_cells),
        r.luts,
        r.flip_flops,
        r.block_rams.used,
        r.block_rams.available,
        r.map_delay_ps.map(|ps| format!(" (mapped for {ps} ps)")).unwrap_or_default(),
        r.modeled_nodes_per_second() / 1e6,
        r.seconds,
        r.board
    )
}

/// The README's table of builds, one row per `build.json`.
pub fn markdown_table(reports: &[BuildReport]) -> String {
    let mut out = String::from(
        "| board | FPGA | max board | engine | engines | cycles/node | logic cells | LUT4 | FF | block RAM | clock | Fmax | modeled nodes/s |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        writeln!(
            out,
            "| {} | {} | {}x{} | {} | {}{} | {} | {} / {} ({:.0}%) | {} | {} | {} / {} | {} MHz{} | {:.2} MHz | {:.1} M |",
            r.title,
            r.fpga,
            r.max_width,
            r.max_height,
            r.engine,
            r.engines,
            if r.warnsdorff || r.engine != "wide" { "" } else { " (no Warnsdorff)" },
            cycles_per_node(&r.engine),
            r.logic_cells.used,
            r.logic_cells.available,
            percent(r.logic_cells),
            r.luts,
            r.flip_flops,
            r.block_rams.used,
            r.block_rams.available,
            mhz(r.clock_hz as f64),
            if r.pll.is_some() { " (PLL)" } else { "" },
            r.fmax_mhz,
            r.modeled_nodes_per_second() / 1e6
        )
        .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_a_row_per_build() {
        let report = BuildReport {
            board: "icebreaker".into(),
            title: "1BitSquared iCEBreaker".into(),
            fpga: "up5k-sg48".into(),
            engine: "wide".into(),
            max_width: 6,
            max_height: 6,
            engines: 1,
            warnsdorff: true,
            constellations: false,
            board_clock_hz: 12_000_000,
            clock_hz: 12_000_000,
            pll: None,
            baud: 115_200,
            target_mhz: 12.0,
            fmax_mhz: 13.54,
            seed: None,
            map_delay_ps: None,
            logic_cells: Usage { used: 4645, available: 5280 },
            luts: 4400,
            flip_flops: 900,
            block_rams: Usage { used: 4, available: 30 },
            modeled_nodes_per_second: 12e6,
            bitstream: "icebreaker.bin".into(),
            tools: vec![],
            seconds: 60.0,
        };
        let table = markdown_table(std::slice::from_ref(&report));
        assert_eq!(table.lines().count(), 3);
        assert!(
            table.contains("| 1BitSquared iCEBreaker | up5k-sg48 | 6x6 | wide | 1 | 1 | 4645 / 5280 (88%) |"),
            "{table}"
        );
        assert!(table.contains("| 12 MHz | 13.54 MHz | 12.0 M |"), "{table}");
        // A compact build is modeled at its clocks per node.
        let compact = BuildReport { engine: "compact".into(), engines: 2, ..report.clone() };
        assert!(markdown_table(&[compact]).contains("| compact | 2 | 4.4 |"), "{table}");
        assert!(markdown_table(&[BuildReport { engine: "compact".into(), ..report.clone() }]).contains("| 2.7 M |"));
        // A build without Warnsdorff's order says so; a report written
        // before the field existed had it.
        let without = BuildReport { warnsdorff: false, engines: 18, ..report.clone() };
        assert!(markdown_table(&[without]).contains("| 6x6 | wide | 18 (no Warnsdorff) |"));
        let mut old: serde_json::Value = serde_json::to_value(&report).unwrap();
        old.as_object_mut().unwrap().remove("warnsdorff");
        assert!(serde_json::from_value::<BuildReport>(old).unwrap().warnsdorff);
    }
}
