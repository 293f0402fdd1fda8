//! `knights queens`: N-Queens on any device.

use std::io::Write;

use anyhow::Result;
use knights::device::Problem;
use knights::error::UsageError;
use knights::queens_query::{self, QueensQuery};
use knights::render;
use knights::search::Goal;

use super::args::{DeviceArgs, Format};
use super::progress::Progress;

pub fn queens(query: QueensQuery, device_args: &DeviceArgs, format: Format, out: &mut dyn Write) -> Result<()> {
    if format == Format::Svg && query.goal == Goal::CountAll {
        return Err(UsageError("a count has no solution to draw: use --format text or json".into()).into());
    }
    let mut device = device_args.open_for(Problem::Queens)?;
    let mut progress = Progress::on_stderr();
    let answer = queens_query::run(device.as_mut(), query, &mut |nodes, solutions| progress.update(nodes, solutions))?;
    progress.finish();
    match format {
        Format::Text => write!(out, "{}", render::queens_text(&answer))?,
        Format::Json => writeln!(out, "{}", render::queens_json(&answer))?,
        Format::Svg => match answer.solutions.first() {
            Some(files) => write!(out, "{}", render::queens_svg(files))?,
            None => anyhow::bail!("{}", render::queens_summary(&answer)),
        },
    }
    Ok(())
}
