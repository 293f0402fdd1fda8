//! The commands that search: `solve` and `count`, on any device.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Result;
use knights::device::error::UsageError;
use knights::tours::query::{self, Answer, Query};
use knights::tours::{render, whole_board, TourDevice};
use knights_model::Goal;

use super::args::{DeviceArgs, Format, ProgressArgs, ProgressKind, SearchArgs, Start};
use super::progress::{self, warn_of_failures, Progress};

/// `knights solve`: the first `limit` tours.
pub fn solve(search: &SearchArgs, limit: u64, device: &DeviceArgs, format: Format, out: &mut dyn Write) -> Result<()> {
    if search.start() == Start::All {
        return Err(UsageError("--start all counts from every square: use it with `knights count`".into()).into());
    }
    let answer = search_on(device, Query { spec: search.spec(), goal: Goal::First(limit) })?;
    match format {
        Format::Text => write!(out, "{}", render::text(&answer))?,
        Format::Json => writeln!(out, "{}", render::json(&answer))?,
        Format::Svg => match answer.tours.first() {
            Some(tour) => write!(out, "{}", render::svg(answer.query.spec.board, tour, answer.query.spec.closed))?,
            None => anyhow::bail!("{}", render::summary(&answer)),
        },
    }
    Ok(())
}

/// `knights count`: every tour.
pub fn count(
    search: &SearchArgs,
    device: &DeviceArgs,
    progress: &ProgressArgs,
    journal: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("count has no picture to draw: use --format text or json".into()).into());
    }
    if journal.is_some() {
        progress::stop_on_interrupt()?;
    }
    if search.start() == Start::All {
        return count_every_start(search, device, progress, journal, format, out);
    }
    let mut devices = device.open_all_tours()?;
    let answer = if devices.len() == 1 && journal.is_none() {
        search_with(devices.remove(0), Query { spec: search.spec(), goal: Goal::CountAll }, Some(progress))?
    } else {
        // Several devices (or one, journaled) share the count's paths from
        // the start.
        let progress = Mutex::new(Progress::from_args(progress)?);
        let (answer, failures) = knights::tours::jobs::count_shared(
            devices,
            search.spec(),
            &|tally| progress.lock().expect("progress is not poisoned").update_jobs(tally),
            journal,
        )?;
        progress.into_inner().expect("progress is not poisoned").finish();
        warn_of_failures(&failures);
        progress::tell_of_journal(journal, answer.status);
        answer
    };
    match format {
        Format::Json => writeln!(out, "{}", render::json(&answer))?,
        _ => writeln!(out, "{}", render::summary(&answer))?,
    }
    Ok(())
}

/// `knights count --start all`.
fn count_every_start(
    search: &SearchArgs,
    device_args: &DeviceArgs,
    progress: &ProgressArgs,
    journal: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    let devices = device_args.open_all_tours()?;
    let progress = Mutex::new(Progress::from_args(progress)?);
    let whole = whole_board::count_every_start(
        devices,
        search.spec(),
        &|tally| progress.lock().expect("progress is not poisoned").update_jobs(tally),
        journal,
    )?;
    progress.into_inner().expect("progress is not poisoned").finish();
    warn_of_failures(&whole.failures);
    progress::tell_of_journal(journal, whole.status);
    match format {
        Format::Json => writeln!(out, "{}", render::whole_board_json(&whole))?,
        _ => write!(out, "{}", render::whole_board_text(&whole))?,
    }
    Ok(())
}

fn search_on(device_args: &DeviceArgs, query: Query) -> Result<Answer> {
    search_with(device_args.open_tours()?, query, None)
}

/// Runs `query` with the progress `--progress` asks for (a bar without it),
/// its clock started once the device is connected.
fn search_with(
    mut device: Box<dyn TourDevice + Send>,
    query: Query,
    progress: Option<&ProgressArgs>,
) -> Result<Answer> {
    let mut progress = match progress {
        Some(args) => Progress::from_args(args)?,
        None => Progress::new(ProgressKind::Bar),
    };
    let answer = query::run(device.as_mut(), query, &mut |nodes, tours| progress.update(nodes, tours))?;
    progress.finish();
    Ok(answer)
}
