//! Independent placement: pieces that do not attack each other.

pub mod queens;
