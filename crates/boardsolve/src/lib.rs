//! boardsolve: chessboard puzzles and exact cover on one engine.
//!
//! The flow: a puzzle file (TOML) is read into a validated [`spec::Spec`], compiled into a
//! model for its kind ([`kinds`]), solved by a named strategy under an [`engine::Run`], and
//! written by [`render`]. The engine and the Dancing Links core ([`dlx`]) know nothing of
//! files or boards.

pub mod board;
/// The Dancing Links core, a crate of its own (`boardsolve-dlx`) so that it depends on nothing.
pub use dlx;
pub mod engine;
pub mod kinds;
pub mod render;
pub mod spec;
pub mod util;

#[cfg(test)]
mod dlx_tests;
