use std::process::ExitCode;

use clap::Parser;
use knights::cli::{execute, Cli};
use knights::query::UsageError;

fn main() -> ExitCode {
    // clap itself exits with status 2 on malformed arguments.
    let cli = Cli::parse();
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            if error.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
