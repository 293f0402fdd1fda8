//! The `knights` binary: the command line over the library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap itself exits with status 2 on malformed arguments.
    match cli::execute(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let failure = cli::Failure::from(error);
            eprintln!("error: {}", failure.message);
            failure.exit_code()
        }
    }
}
