//! `solve`: the command-line front end. Exit status: 0 solved, 1 proven to have no solution,
//! 2 bad input or usage, 3 stopped by a limit before the answer was proven.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(cli::main(std::env::args_os().collect()))
}
