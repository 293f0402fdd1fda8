//! The commands that search: `solve` and `count`, on any device.

use std::io::Write;

use anyhow::Result;
use knights::error::UsageError;
use knights::query::{self, Answer, Query};
use knights::render;
use knights::search::Goal;

use super::args::{DeviceArgs, Format, SearchArgs};
use super::progress::Progress;

/// `knights solve`: the first `limit` tours.
pub fn solve(search: &SearchArgs, limit: u64, device: &DeviceArgs, format: Format, out: &mut dyn Write) -> Result<()> {
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
pub fn count(search: &SearchArgs, device: &DeviceArgs, format: Format, out: &mut dyn Write) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("count has no picture to draw: use --format text or json".into()).into());
    }
    let answer = search_on(device, Query { spec: search.spec(), goal: Goal::CountAll })?;
    match format {
        Format::Json => writeln!(out, "{}", render::json(&answer))?,
        _ => writeln!(out, "{}", render::summary(&answer))?,
    }
    Ok(())
}

fn search_on(device_args: &DeviceArgs, query: Query) -> Result<Answer> {
    let mut device = device_args.open()?;
    let mut progress = Progress::on_stderr();
    let answer = query::run(device.as_mut(), query, &mut |nodes, tours| progress.update(nodes, tours))?;
    progress.finish();
    Ok(answer)
}
