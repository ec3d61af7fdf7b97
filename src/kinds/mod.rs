//! One module per puzzle kind.

pub mod independent;
