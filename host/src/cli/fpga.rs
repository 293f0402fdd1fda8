//! The FPGA flow's commands (feature `fpga`): `boards`, `constraints`,
//! `build`, `verilog`, `build-table` and `flash`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use knights::device::error::UsageError;
use knights::fpga::bitstream::{self, BuildOptions, Emit};
use knights::fpga::boards;
use knights::fpga::build_report::{self, BUILD_ROOT};
use knights::fpga::{Design, EngineKind, Features};
use knights::link::rates;

use super::args::{BuildArgs, ListFormat, VerilogArgs};
use super::build_status::BuildStatus;
use super::reports::{existing_build_dirs, read_reports};

/// `knights boards`: every build of every board.
pub fn list_boards(format: ListFormat, out: &mut dyn Write) -> Result<()> {
    let listings: Vec<boards::Listing> = boards::all().iter().map(boards::Listing::new).collect();
    match format {
        ListFormat::Text => write!(out, "{}", boards::table(&listings))?,
        ListFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&listings)?)?,
    }
    Ok(())
}

/// `knights constraints`: each board's pin constraint file, into `dir`.
pub fn constraints(dir: &Path, out: &mut dyn Write) -> Result<()> {
    for board in boards::all() {
        let path = dir.join(board.constraints_file());
        std::fs::write(&path, board.constraints()).with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(out, "{}", path.display())?;
    }
    Ok(())
}

/// `knights build`: the board's defaults, changed by the arguments.
pub fn build(args: BuildArgs, out: &mut dyn Write) -> Result<()> {
    let board = boards::find(&args.board)?;
    let mut options = BuildOptions::for_board(&board);
    let design = &mut options.build.design;
    if let Some(size) = args.max_size {
        (design.max_width, design.max_height) = (size.width, size.height);
    }
    design.engines = args.engines.unwrap_or(design.engines);
    if let Some(mhz) = args.clock_mhz {
        if !(mhz.is_finite() && mhz > 0.0) {
            return Err(UsageError(format!("--clock-mhz {mhz}: give a clock in MHz, e.g. 25")).into());
        }
        design.clock_hz = (mhz * 1e6).round() as u64;
    }
    // A new clock without --baud: the fastest rate that clock divides well.
    let max_baud = board.part.uart.max_baud;
    design.baud = match args.baud {
        Some(baud) => u64::from(baud),
        None if rates::unfit(design.clock_hz, design.baud, max_baud).is_some() => {
            rates::fastest(design.clock_hz, max_baud).map_or(design.baud, u64::from)
        }
        None => design.baud,
    };
    design.features.warnsdorff &= !args.no_warnsdorff;
    design.features.constellations = args.constellations.unwrap_or(design.features.constellations);
    if design.features.constellations && design.kind != EngineKind::Queens {
        return Err(UsageError("--constellations true: only N-Queens builds count from constellations".into()).into());
    }
    options.build.seed = args.seed.or(options.build.seed);
    options.build.map_delay_ps = args.map_delay_ps.or(options.build.map_delay_ps);
    options.out_dir = args.out.unwrap_or(options.out_dir);
    options.rebuild = args.rebuild;
    let mut status = BuildStatus::on_stderr();
    #[allow(unused_mut)]
    let mut report = bitstream::build(&board, &options, &mut status)?;
    status.finish();
    // Its speed, from its design simulated: no constant models a build.
    #[cfg(feature = "sim")]
    if !args.no_measure && report.measured.is_none() {
        report.measured = Some(super::sim::measured(&report, &mut |line| eprintln!("{line}"))?);
        report.write(&options.out_dir)?;
    }
    write!(out, "{}", build_report::summary(&report, &options.out_dir))?;
    Ok(())
}

/// `knights verilog`: the accelerator's or one engine's Verilog.
pub fn verilog(args: &VerilogArgs, out: &mut dyn Write) -> Result<()> {
    let (max_width, max_height) = (args.size.width, args.size.height);
    let kind = args.engine.parse().expect("clap takes only the kinds' names");
    let emit = if args.engine_only {
        Emit::Engine { kind, max_width, max_height }
    } else {
        Emit::Accelerator(Design {
            kind,
            max_width,
            max_height,
            engines: args.engines,
            features: Features { warnsdorff: !args.no_warnsdorff, constellations: args.constellations },
            clock_hz: args.clock,
            baud: args.baud,
            visited_in_block_ram: args.visited_in_block_ram,
        })
    };
    write!(out, "{}", bitstream::design_verilog(emit)?)?;
    Ok(())
}

/// `knights build-table`: the README's table from the reports in `dirs`
/// (default: every build).
pub fn build_table(dirs: Vec<PathBuf>, out: &mut dyn Write) -> Result<()> {
    let dirs = if dirs.is_empty() {
        let root = Path::new(BUILD_ROOT);
        let found = existing_build_dirs(root);
        if found.is_empty() {
            anyhow::bail!("no builds under {}: run knights build --board NAME first", root.display());
        }
        found
    } else {
        dirs
    };
    write!(out, "{}", build_report::markdown_table(&read_reports(&dirs)?))?;
    Ok(())
}

/// `knights flash`: the board's flasher on the bitstream (default: the
/// board's build, made first when missing or stale), into its flash or
/// (`sram`) its FPGA's SRAM, its phases shown as they come.
pub fn flash(name: &str, bitstream: Option<PathBuf>, sram: bool, dry_run: bool, out: &mut dyn Write) -> Result<()> {
    use knights::fpga::flasher::{self, Phase, Target};
    let board = boards::find(name)?;
    let options = BuildOptions::for_board(&board);
    let given = bitstream.is_some();
    let bitstream = bitstream.unwrap_or_else(|| options.out_dir.join(board.bitstream_file()));
    let target = if sram { Target::Sram } else { Target::Flash };
    let command =
        flasher::command(&board, &bitstream.to_string_lossy(), target).map_err(|e| UsageError(e.to_string()))?;
    if dry_run {
        writeln!(out, "{}", command.join(" "))?;
        return Ok(());
    }
    // The board's own build, made first when it is missing or stale.
    if !given {
        if let Some(why) = bitstream::why_rebuild(&board, &options)? {
            eprintln!("building {} first: {why}", board.name);
            let mut status = BuildStatus::on_stderr();
            bitstream::build(&board, &options, &mut status)?;
            status.finish();
        }
    }
    if !bitstream.is_file() {
        anyhow::bail!(
            "no bitstream at {}: build one with `knights build --board {}` or name it with --bitstream",
            bitstream.display(),
            board.name
        );
    }
    eprintln!("writing {} into {}: {}", bitstream.display(), target.describe(), command.join(" "));
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut show = |phase: Phase, percent: Option<f32>| {
        let percent = percent.map(|p| format!(" {p:.0}%")).unwrap_or_default();
        let phase = format!("{phase:?}").to_lowercase();
        if terminal {
            eprint!("\r\x1b[2K{phase}{percent}");
        } else if percent.is_empty() || percent == " 100%" {
            eprintln!("{phase}{percent}");
        }
    };
    let result = flasher::run(&command, &mut show);
    if terminal {
        eprintln!();
    }
    result?;
    writeln!(out, "{} written into {}", board.title, target.describe())?;
    Ok(())
}
