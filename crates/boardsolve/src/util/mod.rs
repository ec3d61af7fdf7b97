//! Leaf utilities shared by every layer above: bitsets in machine words, a bit-packed array
//! of small integers, unsigned integers of any size, numbers as people read them, one
//! seeded random generator and one hash for fingerprints.
//! Nothing here knows of boards, files or the engine.

pub mod bits;
pub mod fingerprint;
pub mod natural;
pub mod numbers;
pub mod packed;
pub mod rng;

pub use bits::{BitMatrix, Bits, ones};
pub use fingerprint::Fingerprint;
pub use natural::Natural;
pub use packed::Packed;
pub use rng::Rng;
