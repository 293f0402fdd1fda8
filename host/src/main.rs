//! The `knights` binary: the command line over the library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap itself exits with status 2 on malformed arguments.
    match cli::execute(cli::Cli::parse()) {
        // A count stopped by Ctrl-C printed what it counted, and failed.
        Ok(()) if cli::interrupted() => ExitCode::from(130),
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let failure = cli::Failure::from(error);
            eprintln!("error: {}", failure.message);
            failure.exit_code()
        }
    }
}
