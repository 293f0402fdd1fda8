//! `knights build`'s steps in order: the Verilog, yosys, nextpnr and the
//! packer, each checked, then the [`BuildReport`] from their outputs.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};

use super::dfu;
use super::options::{check, BuildOptions, ClockPlan};
use super::tool_log;
use super::tool_report::{log_utilisation, nextpnr_gave_up, report_fmax, report_utilisation, stat_cells, GaveUp};
use super::tools::{log_tail, run_step, tool_version, tools, Phase, Step, Watch};
use super::verilog::{keep_engines_apart, wrapper_verilog, WRAPPER_TOP};
use crate::fpga::boards::{Board, Family};
use crate::fpga::build_report::{BuildReport, Usage};
use crate::fpga::{Design, EngineKind};

/// What a build is made from: the files the tools read and the tools'
/// commands and versions. A build whose report names the same digest, and
/// whose bitstream is the one it made, is not made again.
struct Inputs {
    accelerator: String,
    wrapper: String,
    constraints: String,
    yosys_script: String,
    nextpnr_args: Vec<String>,
    tools: Vec<String>,
    digest: String,
    /// IDENTITY's build id of the accelerator.
    build_id: u32,
}

impl Inputs {
    fn of(board: &Board, options: &BuildOptions, design: &Design, plan: &ClockPlan) -> Self {
        let link = knights_rtl::platform::LinkSettings::new(design.clock_hz, design.baud);
        let (rtl, build_id) =
            knights_rtl::verilog::named_accelerator_verilog(design, link).expect("size checked above");
        let tools = tools(board.part.family);
        let synth = match board.part.family {
            // ABC9 maps the iCE40 designs to ~2% fewer LUTs (the iCEBreaker's
            // build is near full).
            Family::Ice40 => "synth_ice40 -abc9",
            // Without wide LUTs (PFUMX) the N-Queens solvers map to a quarter
            // fewer LUTs (4,239 against 5,677 for four 17-queens solvers).
            Family::Ecp5 if design.kind == EngineKind::Queens => "synth_ecp5 -nowidelut",
            Family::Ecp5 => "synth_ecp5",
        };
        let yosys_script = format!(
            "{}{synth} -top {WRAPPER_TOP} -json design.json; tee -q -o stat.json stat -json",
            area_mapping(design.engines, design.clock_hz, options.build.map_delay_ps)
        );
        let constraints_file = board.constraints_file();
        let mut args = vec![format!("--{}", board.part.device), "--package".into(), board.part.package.clone()];
        args.extend(["--json".into(), "design.json".into(), "--report".into(), "report.json".into()]);
        args.extend(["--freq".into(), format!("{}", design.clock_hz as f64 / 1e6)]);
        if let Some(seed) = options.build.seed {
            args.extend(["--seed".into(), seed.to_string()]);
        }
        match board.part.family {
            Family::Ice40 => args.extend(["--pcf".into(), constraints_file, "--asc".into(), "design.asc".into()]),
            // The placed and routed netlist, for `knights check-build` (iCE40
            // builds are checked from their bitstream).
            Family::Ecp5 => args.extend(
                ["--lpf", &constraints_file, "--textcfg", "design.config", "--write", super::ROUTED_JSON]
                    .map(String::from),
            ),
        }
        let mut inputs = Inputs {
            accelerator: keep_engines_apart(&rtl, design.engines),
            wrapper: wrapper_verilog(board, plan),
            constraints: board.constraints(),
            yosys_script,
            nextpnr_args: args,
            tools: [tools.yosys, tools.nextpnr, tools.pack].iter().map(|t| tool_version(t)).collect(),
            digest: String::new(),
            build_id,
        };
        let mut hash = Sha256::new();
        for part in [&inputs.accelerator, &inputs.wrapper, &inputs.constraints, &inputs.yosys_script] {
            hash.update(part.len().to_le_bytes());
            hash.update(part);
        }
        for part in inputs.nextpnr_args.iter().chain(&inputs.tools) {
            hash.update(part.len().to_le_bytes());
            hash.update(part);
        }
        // The flow's own version: how it reads the tools' outputs.
        hash.update(env!("CARGO_PKG_VERSION"));
        inputs.digest = hex(&hash.finalize());
        inputs
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// SHA-256 of a file, hex; `None` when it cannot be read.
fn file_digest(path: &Path) -> Option<String> {
    std::fs::read(path).ok().map(|bytes| hex(&Sha256::digest(bytes)))
}

/// The build in `dir` when it is up to date with `inputs`: its report, or
/// why it is not.
fn up_to_date(board: &Board, dir: &Path, inputs: &Inputs) -> std::result::Result<BuildReport, &'static str> {
    let report = BuildReport::read(dir).map_err(|_| "no build report there")?;
    if report.inputs_sha256.as_deref() != Some(&inputs.digest) {
        return Err("its design, constraints, options or tools changed");
    }
    if report.bitstream_sha256.is_none() || file_digest(&dir.join(&report.bitstream)) != report.bitstream_sha256 {
        return Err("its bitstream is missing or changed");
    }
    if board.part.family == Family::Ecp5 && !dir.join(super::ROUTED_JSON).is_file() {
        return Err("its routed netlist is missing");
    }
    Ok(report)
}

/// Whether `knights build` would run the tools for these options: `None`
/// when the build in the output directory is up to date, else why not.
pub fn why_rebuild(board: &Board, options: &BuildOptions) -> Result<Option<&'static str>> {
    let plan = check(board, options)?;
    let design = Design { clock_hz: plan.clock_hz(board), ..options.build.design };
    let inputs = Inputs::of(board, options, &design, &plan);
    Ok(up_to_date(board, &options.out_dir, &inputs).err())
}

/// Builds the bitstream, telling `watch` each step and its progress; or,
/// when the output directory holds this very build (the same inputs, its
/// bitstream untouched) and `options.rebuild` is off, takes that build's
/// report without running any tool.
pub fn build(board: &Board, options: &BuildOptions, watch: &mut dyn Watch) -> Result<BuildReport> {
    let started = Instant::now();
    let plan = check(board, options)?;
    let clock_hz = plan.clock_hz(board);
    // The design as built: at the clock the plan makes.
    let design = Design { clock_hz, ..options.build.design };
    let tools = tools(board.part.family);
    let dir = &options.out_dir;
    let inputs = Inputs::of(board, options, &design, &plan);
    if !options.rebuild {
        match up_to_date(board, dir, &inputs) {
            Ok(report) => {
                watch.say(&format!(
                    "up to date: {} was built from these inputs (--rebuild runs the tools again)",
                    dir.display()
                ));
                return Ok(report);
            }
            Err(why) if dir.join("build.json").is_file() => watch.say(&format!("building again: {why}")),
            Err(_) => {}
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = |name: &str| dir.join(name);
    // The report goes first and comes back last: a build stopped half way
    // (its netlist new, its bitstream old) is never taken as a made one.
    let _ = std::fs::remove_file(path("build.json"));

    write(&path("accelerator.v"), &inputs.accelerator)?;
    write(&path("board.v"), &inputs.wrapper)?;
    let constraints = board.constraints_file();
    write(&path(&constraints), &inputs.constraints)?;
    if let Some(pll) = plan.describe(board) {
        watch.say(&format!("clock: {pll}"));
    }

    watch.say(&format!("synthesis: {} (log {})", tools.yosys, path("yosys.log").display()));
    let yosys_args = ["-q", "-l", "yosys.log", "-p", &inputs.yosys_script, "board.v", "accelerator.v"];
    let synthesis =
        Step { phase: Phase::Synthesis, read: |line| tool_log::yosys_pass(line).map(|pass| (Phase::Synthesis, pass)) };
    run_step(tools.yosys, &yosys_args, dir, "yosys.log", synthesis, watch)?.success_or_log(dir, "yosys.log")?;

    watch.say(&format!("place and route: {} (log {})", tools.nextpnr, path("nextpnr.log").display()));
    let args = &inputs.nextpnr_args;
    let _ = std::fs::remove_file(path("report.json"));
    let place_and_route = Step { phase: Phase::Place, read: tool_log::nextpnr_progress };
    let placed = run_step(tools.nextpnr, args, dir, "nextpnr.log", place_and_route, watch)?;
    let log = std::fs::read_to_string(path("nextpnr.log")).unwrap_or_default();
    let logic_kind = match board.part.family {
        Family::Ice40 => "ICESTORM_LC",
        Family::Ecp5 => "TRELLIS_COMB",
    };
    let report_text = std::fs::read_to_string(path("report.json")).ok();
    let utilisation = match &report_text {
        Some(text) => report_utilisation(text)?,
        None => log_utilisation(&log),
    };
    let utilisation = within_the_part(&board.part.device, utilisation);
    for (kind, usage) in &utilisation {
        if usage.used > usage.available {
            bail!(
                "the design does not fit the {}: it needs {} {kind} and the part has {}; \
                 build a smaller board (--max-size) or fewer engines (logs in {})",
                board.title,
                usage.used,
                usage.available,
                dir.display()
            );
        }
    }
    let usage = |kind: &str| utilisation.iter().find(|(k, _)| k == kind).map(|(_, u)| *u);
    let Some(report_text) = report_text else {
        // (The part's logic taken, when the log says it: the measure of how
        // full it was.)
        let taken = usage(logic_kind)
            .map(|u| format!(", with {} of its {} {logic_kind} taken", u.used, u.available))
            .unwrap_or_default();
        let hint = "build fewer engines (--engines) or a smaller board (--max-size)";
        let (nextpnr, title, tail) = (tools.nextpnr, &board.title, log_tail(&log, dir, "nextpnr.log"));
        match nextpnr_gave_up(&log) {
            Some(GaveUp::Placing) => {
                bail!("{nextpnr} could not place the design on the {title}{taken}; {hint}; {tail}")
            }
            Some(GaveUp::Routing) => bail!(
                "{nextpnr} could not route the design on the {title}{taken}: the fabric is congested; {hint}; {tail}"
            ),
            None => bail!("{nextpnr} failed ({placed}) before writing its report; {tail}"),
        }
    };
    let (fmax_mhz, constraint_mhz) = report_fmax(&report_text)?;
    if fmax_mhz < constraint_mhz {
        bail!(
            "timing missed: the design clock reaches {fmax_mhz:.2} MHz and the build needs {constraint_mhz:.2} MHz; \
             try another placement seed (--seed), a lower clock (--clock-mhz) or a smaller board (--max-size) (logs in {})",
            dir.display()
        );
    }
    placed.success_or_log(dir, "nextpnr.log")?;

    let bitstream = board.bitstream_file();
    watch.say(&format!("pack: {} -> {}", tools.pack, path(&bitstream).display()));
    let pack = Step { phase: Phase::Pack, read: |_| None };
    match board.part.family {
        Family::Ice40 => run_step(tools.pack, &["design.asc", &bitstream], dir, "pack.log", pack, watch)?,
        Family::Ecp5 => {
            let bit = format!("{}.bit", board.name);
            let packed = run_step(tools.pack, &["--compress", "design.config", &bit], dir, "pack.log", pack, watch)?;
            if let (true, Some(ids)) = (packed.success(), &board.part.flash.dfu) {
                let (vendor, product) = dfu::parse_ids(ids).with_context(|| format!("bad DFU ids {ids:?}"))?;
                let image = std::fs::read(path(&bit))?;
                write_bytes(&path(&bitstream), &dfu::with_suffix(&image, vendor, product))?;
            }
            packed
        }
    }
    .success_or_log(dir, "pack.log")?;

    let stat = std::fs::read_to_string(path("stat.json")).context("yosys wrote no stat.json")?;
    let cells = stat_cells(&stat)?;
    let count = |prefix: &str| cells.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, n)| n).sum::<u64>();
    let logic_cells = usage(logic_kind).unwrap_or(Usage { used: 0, available: 0 });
    let (luts, flip_flops, rams) = match board.part.family {
        Family::Ice40 => (count("SB_LUT4"), count("SB_DFF"), "ICESTORM_RAM"),
        Family::Ecp5 => (logic_cells.used, usage("TRELLIS_FF").map_or(0, |u| u.used), "DP16KD"),
    };
    let report = BuildReport {
        board: board.name.clone(),
        title: board.title.clone(),
        fpga: format!("{}-{}", board.part.device, board.part.package).to_lowercase(),
        design,
        board_clock_hz: board.part.clock.hz,
        pll: plan.describe(board),
        target_mhz: constraint_mhz,
        fmax_mhz,
        seed: options.build.seed,
        map_delay_ps: options.build.map_delay_ps,
        logic_cells,
        luts,
        flip_flops,
        block_rams: usage(rams).unwrap_or(Usage { used: 0, available: 0 }),
        // (`knights build` measures it next, from the design simulated.)
        measured: None,
        bitstream_sha256: file_digest(&path(&bitstream)),
        bitstream,
        tools: inputs.tools,
        seconds: started.elapsed().as_secs_f64(),
        inputs_sha256: Some(inputs.digest),
        build_id: Some(inputs.build_id),
    };
    report.write(dir)?;
    Ok(report)
}

/// nextpnr places an LFE5U-12F on the 25F die it shares, and reports that
/// die's resources; the part is sold, and specified, with 12K LUTs and 32
/// block RAMs (ECP5 family data sheet, FPGA-DS-02012, table 1.1), so a
/// build is held to those.
fn within_the_part(device: &str, utilisation: Vec<(String, Usage)>) -> Vec<(String, Usage)> {
    let limit = |kind: &str| match (device, kind) {
        ("12k", "TRELLIS_COMB") => Some(12_000),
        ("12k", "DP16KD") => Some(32),
        _ => None,
    };
    utilisation
        .into_iter()
        .map(|(kind, usage)| {
            let available = limit(&kind).map_or(usage.available, |l| l.min(usage.available));
            (kind, Usage { used: usage.used, available })
        })
        .collect()
}

fn write(path: &Path, text: &str) -> Result<()> {
    write_bytes(path, text.as_bytes())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// The yosys command that makes ABC9 map for area, for builds with several
/// engines (those fill the part, so area buys engines). By default ABC9 maps
/// for the least logic depth and spends LUTs on it; given a delay target it
/// takes the fewest LUTs its delay model puts within it. The model leaves
/// out routing, the larger share of a path here, so the target is half the
/// clock period unless the board gives one; nextpnr then checks the real
/// timing. Measured on two 6x6 engines at 30 MHz: 9,944 logic cells instead
/// of 14,937, and 34.3 MHz instead of 36.7. Between the two, the target
/// trades LUTs for depth (a 6x6 worker placed alone, see `map_delay_ps` in
/// boards/ulx3s.toml).
fn area_mapping(engines: u16, clock_hz: u64, delay_ps: Option<u64>) -> String {
    if engines <= 1 {
        return String::new();
    }
    let delay_ps = delay_ps.unwrap_or(500_000_000_000 / clock_hz.max(1));
    format!("scratchpad -set abc9.D {delay_ps}; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_engines_are_mapped_for_area_within_half_the_period() {
        assert_eq!(area_mapping(1, 30_000_000, None), "");
        assert_eq!(area_mapping(10, 30_000_000, None), "scratchpad -set abc9.D 16666; ");
        assert_eq!(area_mapping(2, 12_000_000, None), "scratchpad -set abc9.D 41666; ");
        assert_eq!(area_mapping(2, 12_000_000, Some(10_000)), "scratchpad -set abc9.D 10000; ");
    }

    #[test]
    fn a_12f_build_is_held_to_the_part_not_the_die_nextpnr_uses() {
        let die = |used| vec![("DP16KD".to_string(), Usage { used, available: 56 })];
        assert_eq!(within_the_part("12k", die(31))[0].1, Usage { used: 31, available: 32 });
        assert_eq!(within_the_part("25k", die(45))[0].1, Usage { used: 45, available: 56 });
        let luts = vec![("TRELLIS_COMB".to_string(), Usage { used: 9_000, available: 24_288 })];
        assert_eq!(within_the_part("12k", luts)[0].1.available, 12_000);
    }
}
