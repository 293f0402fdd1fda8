//! The FPGA builds' reports (`build.json`, one per build directory) and
//! their text: what `knights build` prints and the README's table. Plain
//! data, readable without the FPGA flow (`knights bench` models boards from
//! them).

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Design, EngineKind};

/// Where builds go by default: one directory per board below it.
pub const BUILD_ROOT: &str = "build";

/// Used and available cells of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub used: u64,
    pub available: u64,
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

/// Clocks an engine of `kind` takes a node: the wide engine enters one
/// every clock, an N-Queens search every other (its solver's other clocks
/// are the other search's).
pub fn cycles_per_node(kind: EngineKind) -> f64 {
    match kind {
        EngineKind::Wide => 1.0,
        EngineKind::Compact => COMPACT_CYCLES_PER_NODE,
        EngineKind::Queens => f64::from(QUEENS_SEARCHES_PER_SOLVER),
    }
}

/// A finished build, as `build.json` keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildReport {
    pub board: String,
    pub title: String,
    pub fpga: String,
    /// What the bitstream holds (its clock the PLL's output when there is
    /// one).
    #[serde(flatten)]
    pub design: Design,
    pub board_clock_hz: u64,
    pub pll: Option<String>,
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
        f64::from(self.design.engines) * self.design.clock_hz as f64 / cycles_per_node(self.design.kind)
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
        r.design.max_width,
        r.design.max_height,
        r.design.engines,
        if r.design.features.warnsdorff { "" } else { " without Warnsdorff" },
        mhz(r.design.clock_hz as f64),
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
            r.design.max_width,
            r.design.max_height,
            r.design.kind,
            r.design.engines,
            if r.design.features.warnsdorff || r.design.kind != EngineKind::Wide { "" } else { " (no Warnsdorff)" },
            cycles_per_node(r.design.kind),
            r.logic_cells.used,
            r.logic_cells.available,
            percent(r.logic_cells),
            r.luts,
            r.flip_flops,
            r.block_rams.used,
            r.block_rams.available,
            mhz(r.design.clock_hz as f64),
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
    use crate::fpga::Features;

    #[test]
    fn table_has_a_row_per_build() {
        let report = BuildReport {
            board: "icebreaker".into(),
            title: "1BitSquared iCEBreaker".into(),
            fpga: "up5k-sg48".into(),
            design: Design {
                kind: EngineKind::Wide,
                max_width: 6,
                max_height: 6,
                engines: 1,
                features: Features { warnsdorff: true, constellations: false },
                clock_hz: 12_000_000,
                baud: 115_200,
            },
            board_clock_hz: 12_000_000,
            pll: None,
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
        let with = |design: Design| BuildReport { design, ..report.clone() };
        let compact = Design { kind: EngineKind::Compact, ..report.design };
        assert!(markdown_table(&[with(Design { engines: 2, ..compact })]).contains("| compact | 2 | 4.4 |"), "{table}");
        assert!(markdown_table(&[with(compact)]).contains("| 2.7 M |"));
        // A build without Warnsdorff's order says so.
        let without = Features { warnsdorff: false, constellations: false };
        let without = with(Design { features: without, engines: 18, ..report.design });
        assert!(markdown_table(&[without]).contains("| 6x6 | wide | 18 (no Warnsdorff) |"));
    }

    /// Reports keep the fields they have always had (`engine`, `max_width`,
    /// `warnsdorff`, ...), and reports written before a field existed read
    /// as what they were: wide engines, with Warnsdorff's order, without
    /// constellations.
    #[test]
    fn reports_read_back_and_old_reports_read_as_built() {
        let report = BuildReport {
            board: "ulx3s-85f-queens".into(),
            title: "Radiona ULX3S (LFE5U-85F), N-Queens".into(),
            fpga: "85k-cabga381".into(),
            design: Design {
                kind: EngineKind::Queens,
                max_width: 17,
                max_height: 17,
                engines: 62,
                features: Features { warnsdorff: false, constellations: true },
                clock_hz: 62_500_000,
                baud: 115_200,
            },
            board_clock_hz: 25_000_000,
            pll: Some("EHXPLLL".into()),
            target_mhz: 62.5,
            fmax_mhz: 64.24,
            seed: Some(1),
            map_delay_ps: None,
            logic_cells: Usage { used: 49_537, available: 83_640 },
            luts: 49_537,
            flip_flops: 20_000,
            block_rams: Usage { used: 65, available: 208 },
            modeled_nodes_per_second: 1.0,
            bitstream: "ulx3s-85f-queens.bit".into(),
            tools: vec![],
            seconds: 1.0,
        };
        let mut json = serde_json::to_value(&report).unwrap();
        let fields = json.as_object_mut().unwrap();
        for (field, value) in [("engine", "queens"), ("constellations", "true"), ("clock_hz", "62500000")] {
            assert_eq!(fields[field].to_string().trim_matches('"'), value, "{field}");
        }
        assert_eq!(serde_json::from_value::<BuildReport>(json.clone()).unwrap(), report);
        for field in ["engine", "warnsdorff", "constellations"] {
            json.as_object_mut().unwrap().remove(field);
        }
        let old = serde_json::from_value::<BuildReport>(json).unwrap().design;
        assert_eq!((old.kind, old.features), (EngineKind::Wide, Features { warnsdorff: true, constellations: false }));
    }
}
