//! Opening a puzzle file by its path without hanging on it. A fifo that no program writes to
//! yet blocks a plain `open` for good, past the time limit and Ctrl-C; so a file that is not
//! a regular one (a fifo, the pipe of `solve <(gen)`, a terminal) is opened without blocking
//! and waited on under the clock until it has something to say.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;

use boardsolve::engine::{StopReason, TICK};

/// A file opened for reading, in blocking mode.
pub(crate) struct Opened {
    pub(crate) file: File,
    /// A regular file: its size is known and reading it cannot wait on another program.
    pub(crate) regular: bool,
}

/// Why a file was not opened.
pub(crate) enum OpenFault {
    Io(io::Error),
    /// The time limit or an interrupt came while nothing could be read yet.
    Stopped(StopReason),
}

/// Open `path` for reading. A file that is not a regular one is waited on until it can be
/// read (data, or a writer come and gone: its end), with `expired` asked before the first
/// wait and every [`TICK`] after; then it reads as any file does.
pub(crate) fn open_input(
    path: &str,
    expired: &dyn Fn() -> Option<StopReason>,
) -> Result<Opened, OpenFault> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(OpenFault::Io)?;
    let regular = file.metadata().map_err(OpenFault::Io)?.is_file();
    if !regular {
        // A fifo opened without blocking reads as ended until a writer comes: only poll
        // tells the two apart (it waits for the first writer, then reports its data or its
        // end).
        wait_readable(&file, expired)?;
    }
    set_blocking(&file).map_err(OpenFault::Io)?;
    Ok(Opened { file, regular })
}

fn wait_readable(file: &File, expired: &dyn Fn() -> Option<StopReason>) -> Result<(), OpenFault> {
    let tick = i32::try_from(TICK.as_millis()).unwrap_or(i32::MAX);
    loop {
        if let Some(r) = expired() {
            return Err(OpenFault::Stopped(r));
        }
        let mut fd = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, alive for the call, on a descriptor `file` owns.
        let n = unsafe { libc::poll(&mut fd, 1, tick) };
        if n > 0 {
            // Readable, ended or failed: the read that follows says which.
            return Ok(());
        }
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(OpenFault::Io(e));
            }
        }
    }
}

fn set_blocking(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor `file` owns, its flags read and written back.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
