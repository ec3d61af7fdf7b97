//! The command line of boardsolve as a library: `solve` is [`main`] on the process's
//! arguments, and the Python package runs the same function for `python -m boardsolve`
//! ([`main_as`], named by its interpreter and module). [`shared`] holds what the Python
//! package's calls take from `solve`: the memory budget and the bounded reading of a puzzle
//! file.

mod cli;

pub use cli::{main, main_as, shared};
