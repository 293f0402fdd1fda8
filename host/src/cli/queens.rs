//! `knights queens`: N-Queens on any device; a count on several devices
//! shares its jobs among them.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Result;
use knights::device::error::UsageError;
use knights::queens::query::{self, QueensQuery};
use knights::queens::render;
use knights_model::Goal;

use super::args::{DeviceArgs, Format, ProgressArgs};
use super::progress::{self, warn_of_failures, Progress};

pub fn queens(
    query: QueensQuery,
    device_args: &DeviceArgs,
    progress: &ProgressArgs,
    journal: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    if format == Format::Svg && query.goal == Goal::CountAll {
        return Err(UsageError("a count has no solution to draw: use --format text or json".into()).into());
    }
    let mut devices =
        if query.goal == Goal::CountAll { device_args.open_all_queens()? } else { vec![device_args.open_queens()?] };
    if journal.is_some() {
        progress::stop_on_interrupt()?;
    }
    let answer = if devices.len() > 1 || journal.is_some() {
        let progress = Mutex::new(Progress::from_args(progress)?);
        let shared = knights::queens::jobs::count_shared(
            devices,
            query,
            &|tally| progress.lock().expect("progress is not poisoned").update_jobs(tally),
            journal,
        )?;
        progress.into_inner().expect("progress is not poisoned").finish();
        warn_of_failures(&shared.failures);
        progress::tell_of_journal(journal, shared.answer.status);
        shared.answer
    } else {
        let mut progress = Progress::from_args(progress)?;
        let device = devices[0].as_mut();
        let answer = query::run(device, query, &mut |nodes, solutions| progress.update(nodes, solutions))?;
        progress.finish();
        answer
    };
    match format {
        Format::Text => write!(out, "{}", render::text(&answer))?,
        Format::Json => writeln!(out, "{}", render::json(&answer))?,
        Format::Svg => match answer.solutions.first() {
            Some(files) => write!(out, "{}", render::svg(files))?,
            None => anyhow::bail!("{}", render::summary(&answer)),
        },
    }
    Ok(())
}
