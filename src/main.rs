//! `solve`: the command-line front end. Exit status: 0 solved, 1 proven to have no solution,
//! 2 bad input or usage, 3 stopped by a limit before the answer was proven.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so writing to a closed pipe (`solve compare ... | head -1`) would
    // fail on every print and panic; with the default action the run ends quietly there, as
    // Unix filters do.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A file-size limit (`ulimit -f`) would end the process at the write that passes it,
    // leaving a count's spill folder behind; ignored, the write fails and the run stops
    // saying so, its folder removed.
    #[cfg(unix)]
    // SAFETY: as above.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    ExitCode::from(boardsolve_cli::main(std::env::args_os().collect()))
}
