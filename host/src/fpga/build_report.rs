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

/// Searches an N-Queens solver runs (`rtl/src/queens/ranks.rs`: a
/// two-stage pipeline, each stage a search's): each is an engine to the
/// platform and to build reports.
pub const QUEENS_SEARCHES_PER_SOLVER: u16 = 2;

/// A build's speed, measured: its design simulated (Verilator) on a
/// workload, node for node with the CPU reference. No constant models a
/// build's speed; a report without this has none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The workload, as the command that runs it: `knights count --size 6x6 --start a1`.
    pub workload: String,
    pub nodes: u64,
    /// Clocks from the search's start until its last engine finished (the
    /// device's search cycles).
    pub cycles: u64,
    /// Clocks the engines searched, summed over the engines.
    pub engine_cycles: u64,
    /// Bytes that crossed the link, both ways (the command, progress and
    /// the answer): what the UART adds at the build's baud rate.
    pub link_bytes: u64,
    /// When it was measured (UTC), and the CLI's version that measured it.
    pub measured_on: String,
}

impl Measured {
    /// Clocks an engine takes a node: its searching clocks over its nodes.
    pub fn cycles_per_node(&self) -> f64 {
        self.engine_cycles as f64 / self.nodes.max(1) as f64
    }

    /// Nodes a second at `clock_hz`, from the search's cycles alone.
    pub fn nodes_per_second(&self, clock_hz: u64) -> f64 {
        self.nodes as f64 * clock_hz as f64 / self.cycles.max(1) as f64
    }

    /// Seconds the link's bytes take at `baud`.
    pub fn link_seconds(&self, baud: u64) -> f64 {
        uart_seconds(self.link_bytes, baud)
    }
}

pub use knights_protocol::design::uart_seconds;

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
    /// The build's speed, from its design simulated (`knights build`
    /// measures it after place and route; `knights measure` measures an
    /// older build's).
    #[serde(default)]
    pub measured: Option<Measured>,
    /// The file to flash, in the same directory.
    pub bitstream: String,
    pub tools: Vec<String>,
    pub seconds: f64,
    /// SHA-256 of what the build was made from (the Verilog, the
    /// constraints, the tools' commands and versions) and of the bitstream
    /// it made: `knights build` runs the tools again only when either
    /// differs.
    #[serde(default)]
    pub inputs_sha256: Option<String>,
    #[serde(default)]
    pub bitstream_sha256: Option<String>,
    /// The build id its IDENTITY answers with (builds before protocol
    /// version 6 have none).
    #[serde(default)]
    pub build_id: Option<u32>,
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
    /// Nodes a second at the build's clock, from its measured workload
    /// (none when unmeasured).
    pub fn modeled_nodes_per_second(&self) -> Option<f64> {
        self.measured.as_ref().map(|m| m.nodes_per_second(self.design.clock_hz))
    }

    /// Writes the report to `dir/build.json`.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        use anyhow::Context;
        let path = dir.join("build.json");
        let text = serde_json::to_string_pretty(self)? + "\n";
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// A measured speed for messages and tables: `2.7 M`, or `not measured`.
fn speed(r: &BuildReport) -> String {
    r.modeled_nodes_per_second().map_or_else(|| "not measured".to_string(), |n| format!("{:.1} M", n / 1e6))
}

/// What the measurement says in a build's summary: the workload, its
/// clocks a node and what the link adds at the build's baud rate.
fn measured_line(r: &BuildReport) -> String {
    match &r.measured {
        None => "speed not measured: `knights measure --dir DIR` simulates the build on a workload".to_string(),
        Some(m) => format!(
            "{} nodes/s measured on `{}` ({} nodes, {:.2} clocks a node per engine, {:.3} s at {} MHz; \
             the UART adds {:.3} s at {} baud)",
            speed(r),
            m.workload,
            m.nodes,
            m.cycles_per_node(),
            m.cycles as f64 / r.design.clock_hz.max(1) as f64,
            mhz(r.design.clock_hz as f64),
            m.link_seconds(r.design.baud),
            r.design.baud
        ),
    }
}

/// What `knights build` prints when it succeeds.
pub fn summary(r: &BuildReport, dir: &Path) -> String {
    format!(
        "{}: {}\n  \
         boards up to {}x{}, {} engine(s){}, {} MHz{}: Fmax {:.2} MHz against {:.2} MHz, met{}\n  \
         logic cells {}/{} ({:.0}%), LUT4 {}, flip-flops {}, block RAM {}/{}{}\n  \
         {}\n  \
         built in {:.0} s; flash it with `knights flash --board {}`\n",
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
        measured_line(r),
        r.seconds,
        r.board
    )
}

/// The README's table of builds, one row per `build.json`.
pub fn markdown_table(reports: &[BuildReport]) -> String {
    let mut out = String::from(
        "| board | FPGA | max board | engine | engines | cycles/node | logic cells | LUT4 | FF | block RAM | clock | Fmax | measured nodes/s |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        writeln!(
            out,
            "| {} | {} | {}x{} | {} | {}{} | {} | {} / {} ({:.0}%) | {} | {} | {} / {} | {} MHz{} | {:.2} MHz | {} |",
            r.title,
            r.fpga,
            r.design.max_width,
            r.design.max_height,
            r.design.kind,
            r.design.engines,
            if r.design.features.warnsdorff || r.design.kind != EngineKind::Wide { "" } else { " (no Warnsdorff)" },
            r.measured.as_ref().map_or_else(|| "-".to_string(), |m| format!("{:.2}", m.cycles_per_node())),
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
            speed(r)
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
                visited_in_block_ram: false,
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
            measured: None,
            bitstream: "icebreaker.bin".into(),
            tools: vec![],
            seconds: 60.0,
            inputs_sha256: None,
            bitstream_sha256: None,
            build_id: None,
        };
        // Unmeasured, a build has no speed: no constant stands in for one.
        let table = markdown_table(std::slice::from_ref(&report));
        assert_eq!(table.lines().count(), 3);
        assert!(
            table.contains("| 1BitSquared iCEBreaker | up5k-sg48 | 6x6 | wide | 1 | - | 4645 / 5280 (88%) |"),
            "{table}"
        );
        assert!(table.contains("| 12 MHz | 13.54 MHz | not measured |"), "{table}");
        assert!(summary(&report, Path::new("build")).contains("speed not measured: `knights measure"));
        // Measured, its speed is the workload's nodes over its clocks, and
        // its clocks a node the engines' (two engines: 1.5 M engine clocks
        // for 0.5 M nodes).
        let measured = Measured {
            workload: "knights count --size 6x6 --start a1".into(),
            nodes: 500_000,
            cycles: 750_000,
            engine_cycles: 1_500_000,
            link_bytes: 11_520,
            measured_on: "2026-11-28".into(),
        };
        let with = |design: Design| BuildReport { design, measured: Some(measured.clone()), ..report.clone() };
        let compact = Design { kind: EngineKind::Compact, engines: 2, ..report.design };
        let table = markdown_table(&[with(compact)]);
        assert!(table.contains("| compact | 2 | 3.00 |"), "{table}");
        assert!(table.contains("| 12 MHz | 13.54 MHz | 8.0 M |"), "{table}");
        let line = summary(&with(compact), Path::new("build"));
        assert!(line.contains("8.0 M nodes/s measured on `knights count --size 6x6 --start a1`"), "{line}");
        assert!(line.contains("0.062 s at 12 MHz; the UART adds 1.000 s at 115200 baud"), "{line}");
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
                visited_in_block_ram: false,
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
            measured: None,
            bitstream: "ulx3s-85f-queens.bit".into(),
            tools: vec![],
            seconds: 1.0,
            inputs_sha256: None,
            bitstream_sha256: None,
            build_id: None,
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
