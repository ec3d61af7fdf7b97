//! Merging part records into the answer one run would give.
//!
//! A record is read from outside and may be cut off, edited or forged, so none is trusted
//! for more than it can show. Every record must be of the current fingerprint scheme and of
//! one puzzle, strategy, goal and subtree list (the file and arguments that name the puzzle
//! are the caller's to check against its fingerprint); its fields must fit one
//! another (a finished part of a count says its count; a part takes its share of the list,
//! no more and no less; a part proved at the root cut no list); a part counts as searched
//! only when its record says it finished (a part stopped by a limit or a signal stands for
//! nothing); a part split into subparts counts when all M subparts of one sublist finished;
//! a part run twice, whole or in subparts, must agree with itself, and one run's record read
//! twice is refused (it would stand for work done twice). A count is the exact sum
//! of the parts' counts, at any size; an optimum is proven only when every part is searched,
//! and is then the least (the greatest, maximising) of the values the parts proved none
//! better than. A count of the largest placements (goal count without a size to place)
//! takes each part's largest size and its count at that size: the size is the largest of
//! the parts', and the count the sum of the parts' that reach it. What no record can show (that its count is the count of its subtrees) is
//! what `solve merge --verify` checks, by running parts again.

mod check;
mod gather;

use super::record::{PartRecord, RECORD_TAG};
use crate::util::Natural;

pub use gather::merge;

/// Parts (and subparts) a search is cut into at most, as `--part` takes them.
pub const MAX_PARTS: usize = 100_000;

/// Decimal digits a record's count may have: far more than any count a search reaches, and
/// few enough that a forged one costs nothing to read.
const MAX_COUNT_DIGITS: usize = 10_000;

/// Where a record came from, for errors: a file (or "-") and a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub file: String,
    pub line: usize,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// Records that cannot be merged: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError {
    pub at: Source,
    pub what: MergeFault,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeFault {
    /// Not a part record (cut off midway, another file, another format).
    NotARecord(String),
    /// A record of another fingerprint scheme (`None`: scheme 1, which had no number).
    Scheme { found: Option<u32> },
    /// A field differs from the first record's.
    Differs {
        field: &'static str,
        first: Source,
        theirs: String,
        ours: String,
    },
    /// A record of another puzzle than the first record's: the commands that ran the two.
    OtherPuzzle {
        first: Source,
        theirs: RunWords,
        ours: RunWords,
    },
    /// A field that does not fit the record's other fields or its kind of search.
    Invalid { field: &'static str, why: String },
    /// A part number out of range.
    PartOutOfRange { part: usize, parts: usize },
    /// The same part (or subpart) run twice, with different results, or a part's subparts
    /// that do not add up to its whole run.
    Disagree {
        other: Source,
        part: String,
        theirs: String,
        ours: String,
    },
    /// A record identical to an earlier one, field for field: the same run's record read
    /// twice (a file given twice, a copy of one). A part run again writes a record of its
    /// own, which stands beside the first.
    SameRecord { first: Source },
    /// No records at all.
    Empty,
}

/// What a record says ran its part: the puzzle file as given, the arguments besides the file
/// and the part, and the puzzle's fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunWords {
    pub file: String,
    pub args: Vec<String>,
    pub puzzle: String,
}

/// A part (or subpart) still to run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Missing {
    pub part: (usize, usize),
    pub subpart: Option<(usize, usize)>,
}

impl Missing {
    /// The share of the whole search it stands for, in parts: 1, or 1/M for a subpart.
    pub fn weight(&self) -> f64 {
        self.subpart.map_or(1.0, |(_, m)| 1.0 / m as f64)
    }
}

/// The merged answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The first record: what the puzzle, strategy and list are.
    pub first: PartRecord,
    pub parts: usize,
    /// Parts searched (whole, or by all their subparts).
    pub done: usize,
    pub missing: Vec<Missing>,
    /// Records of parts stopped by a limit or a signal: not counted.
    pub stopped: Vec<Source>,
    /// The exact sum of the searched parts' counts (counting).
    pub count: Option<Natural>,
    /// The optimum (optimising): proven when nothing is missing.
    pub optimum: Option<u64>,
    /// A record's placement of value `optimum`, and where it stands.
    pub solution: Option<(Source, Vec<usize>)>,
    /// The searched parts' nodes added up, when every record counted its nodes.
    pub nodes: Option<u128>,
    /// The searched parts' seconds added up (each part counted once).
    pub seconds: f64,
    /// Every record's nodes and seconds, those stopped or run twice included: the work
    /// spent so far.
    pub spent_nodes: u128,
    pub spent_seconds: f64,
    pub records: usize,
    /// The builds that ran the parts, as "version (commit)", each once.
    pub builds: Vec<String>,
    /// The count is of the largest placements (goal count without a size to place), and
    /// `optimum` their size: the largest any part searched holds, proven when none is
    /// missing.
    pub largest: bool,
}

impl Merged {
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// What is left, in seconds of one part's run: the mean time of the parts searched
    /// times the parts (a subpart 1/M of one) still to run. `None` before any part is done.
    pub fn remaining_seconds(&self) -> Option<f64> {
        if self.done == 0 || self.missing.is_empty() {
            return None;
        }
        let left: f64 = self.missing.iter().map(Missing::weight).sum();
        Some(self.seconds / self.done as f64 * left)
    }
}

/// One record per line; blank lines are skipped.
// An error ends the merge: its size costs nothing worth a box.
#[allow(clippy::result_large_err)]
pub fn parse_lines(file: &str, text: &str) -> Result<Vec<(Source, PartRecord)>, MergeError> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = Source {
            file: file.to_string(),
            line: k + 1,
        };
        match serde_json::from_str::<PartRecord>(line) {
            Ok(r) if r.record == RECORD_TAG => out.push((at, r)),
            Ok(r) => {
                return Err(MergeError {
                    at,
                    what: MergeFault::NotARecord(format!(
                        "\"record\" is {:?}, not \"{RECORD_TAG}\"",
                        r.record
                    )),
                });
            }
            Err(e) => {
                return Err(MergeError {
                    at,
                    what: MergeFault::NotARecord(e.to_string()),
                });
            }
        }
    }
    Ok(out)
}
