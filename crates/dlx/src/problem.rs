//! The problem as the caller states it: items (primary with their ranges, secondary), options
//! with colours, validated as they are added, and an independent check of a solution. Nothing
//! here knows how the search lays the problem out.

/// Why an item or option was refused. The crate has no dependencies, so its one error type
/// writes its own `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DlxError {
    EmptyOption,
    ItemOutOfRange { item: usize, count: usize },
    RepeatedItem { name: String },
    ColouredPrimary { name: String },
    NoPrimary,
    ColourTooLarge { colour: u32, max: u32 },
    BadRange { name: String, lo: u32, hi: u32 },
}

impl std::fmt::Display for DlxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DlxError::EmptyOption => write!(f, "an option must contain at least one item"),
            DlxError::ItemOutOfRange { item, count } => {
                write!(
                    f,
                    "item index {item} is out of range: the problem has {count} items"
                )
            }
            DlxError::RepeatedItem { name } => {
                write!(f, "item `{name}` appears twice in one option")
            }
            DlxError::ColouredPrimary { name } => write!(
                f,
                "primary item `{name}` cannot carry a colour (only secondary items can)"
            ),
            DlxError::NoPrimary => write!(
                f,
                "an option needs a primary item, or the search could never choose it"
            ),
            DlxError::ColourTooLarge { colour, max } => {
                write!(f, "colour {colour} is too large: colours go up to {max}")
            }
            DlxError::BadRange { name, lo, hi } => write!(
                f,
                "range [{lo}, {hi}] of item `{name}` is invalid: need lo <= hi and hi >= 1"
            ),
        }
    }
}

impl std::error::Error for DlxError {}

/// The largest colour an option may give a secondary item (colours are stored as `i32`,
/// with negative values reserved for the search's own marks).
pub const MAX_COLOUR: u32 = i32::MAX as u32;

/// An exact cover problem, built incrementally and validated as it grows. Items are numbered
/// in the order they are added, whatever their kind; options in the order they are added.
#[derive(Clone, Debug)]
pub struct Problem {
    names: Vec<String>,
    primary: Vec<bool>,
    range: Vec<(u32, u32)>,
    num_primary: usize,
    /// Option `k` is `opt_items[opt_start[k]..opt_start[k + 1]]`.
    opt_start: Vec<usize>,
    pub(super) opt_items: Vec<(usize, u32)>,
}

impl Default for Problem {
    fn default() -> Self {
        Problem::new()
    }
}

impl Problem {
    /// The bytes a problem of `items` items (names of about 8 characters), `options`
    /// options and `entries` item occurrences holds.
    pub fn bytes_for(items: usize, options: usize, entries: usize) -> u64 {
        48 * items as u64 + 8 * options as u64 + 16 * entries as u64
    }

    pub fn new() -> Problem {
        Problem {
            names: Vec::new(),
            primary: Vec::new(),
            range: Vec::new(),
            num_primary: 0,
            opt_start: vec![0],
            opt_items: Vec::new(),
        }
    }

    /// A primary item, to be covered exactly once.
    pub fn add_primary(&mut self, name: impl Into<String>) -> usize {
        self.push_item(name.into(), true, (1, 1))
    }

    /// A primary item to be covered between `lo` and `hi` times.
    ///
    /// # Panics
    /// If `lo > hi` or `hi == 0`; [`Problem::try_add_primary_range`] returns an error instead.
    pub fn add_primary_range(&mut self, name: impl Into<String>, lo: u32, hi: u32) -> usize {
        match self.try_add_primary_range(name, lo, hi) {
            Ok(i) => i,
            Err(e) => panic!("{e}"),
        }
    }

    pub fn try_add_primary_range(
        &mut self,
        name: impl Into<String>,
        lo: u32,
        hi: u32,
    ) -> Result<usize, DlxError> {
        let name = name.into();
        if lo > hi || hi == 0 {
            return Err(DlxError::BadRange { name, lo, hi });
        }
        Ok(self.push_item(name, true, (lo, hi)))
    }

    /// A secondary item, covered at most once (or shared by options agreeing on its colour).
    pub fn add_secondary(&mut self, name: impl Into<String>) -> usize {
        self.push_item(name.into(), false, (0, 1))
    }

    fn push_item(&mut self, name: String, primary: bool, range: (u32, u32)) -> usize {
        self.names.push(name);
        self.primary.push(primary);
        self.range.push(range);
        if primary {
            self.num_primary += 1;
        }
        self.names.len() - 1
    }

    /// items: (item index, colour) with colour 0 = no colour; an error if an item repeats,
    /// a primary item carries a colour, an index is out of range, the option is empty or has
    /// no primary item.
    pub fn add_option(&mut self, items: &[(usize, u32)]) -> Result<usize, DlxError> {
        /// Longer options are checked for a repeated item by sorting, not pair by pair.
        const LONG_OPTION: usize = 32;
        if items.is_empty() {
            return Err(DlxError::EmptyOption);
        }
        let count = self.names.len();
        let mut has_primary = false;
        for (k, &(item, colour)) in items.iter().enumerate() {
            if item >= count {
                return Err(DlxError::ItemOutOfRange { item, count });
            }
            // Options are short, so a quadratic scan beats a hash set here; a long one (a
            // large shape's placement) is checked sorted, below.
            if items.len() <= LONG_OPTION && items[..k].iter().any(|&(other, _)| other == item) {
                return Err(DlxError::RepeatedItem {
                    name: self.names[item].clone(),
                });
            }
            if self.primary[item] {
                if colour != 0 {
                    return Err(DlxError::ColouredPrimary {
                        name: self.names[item].clone(),
                    });
                }
                has_primary = true;
            } else if colour > MAX_COLOUR {
                return Err(DlxError::ColourTooLarge {
                    colour,
                    max: MAX_COLOUR,
                });
            }
        }
        if !has_primary {
            return Err(DlxError::NoPrimary);
        }
        if items.len() > LONG_OPTION {
            let mut sorted: Vec<usize> = items.iter().map(|&(item, _)| item).collect();
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Err(DlxError::RepeatedItem {
                    name: self.names[w[0]].clone(),
                });
            }
        }
        self.opt_items.extend_from_slice(items);
        self.opt_start.push(self.opt_items.len());
        Ok(self.opt_start.len() - 2)
    }

    pub fn item_name(&self, item: usize) -> &str {
        &self.names[item]
    }

    /// The index of the item with this name (a linear scan: for building, not searching).
    pub fn item_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn is_primary(&self, item: usize) -> bool {
        self.primary[item]
    }

    /// `[lo, hi]` of a primary item; `[0, 1]` for a secondary item.
    pub fn range(&self, item: usize) -> (u32, u32) {
        self.range[item]
    }

    pub fn num_items(&self) -> usize {
        self.names.len()
    }

    pub fn num_primary(&self) -> usize {
        self.num_primary
    }

    pub fn num_options(&self) -> usize {
        self.opt_start.len() - 1
    }

    pub fn option(&self, k: usize) -> &[(usize, u32)] {
        &self.opt_items[self.opt_start[k]..self.opt_start[k + 1]]
    }

    /// Whether some option colours a secondary item (Algorithm C is needed).
    pub fn has_colours(&self) -> bool {
        self.opt_items.iter().any(|&(_, c)| c != 0)
    }

    /// Whether some primary item has a range other than `[1, 1]` (Algorithm M is needed).
    pub fn has_multiplicities(&self) -> bool {
        (0..self.num_items()).any(|i| self.primary[i] && self.range[i] != (1, 1))
    }
}

/// Independent checker (used by tests and callers that distrust the solver): is this set of
/// options a valid solution? Options must be distinct; every primary item must be covered
/// within its range; a secondary item may be contained by at most one option, or by several
/// that all give it the same non-zero colour.
pub fn is_solution(problem: &Problem, options: &[usize]) -> bool {
    let n = problem.num_items();
    let mut seen_option = vec![false; problem.num_options()];
    let mut count = vec![0u64; n];
    // Colour of a secondary item's first occurrence; any later occurrence must repeat it.
    let mut colour = vec![0u32; n];
    for &k in options {
        if k >= problem.num_options() || seen_option[k] {
            return false;
        }
        seen_option[k] = true;
        for &(item, c) in problem.option(k) {
            count[item] += 1;
            if !problem.is_primary(item) {
                if count[item] == 1 {
                    colour[item] = c;
                } else if c == 0 || colour[item] != c {
                    return false;
                }
            }
        }
    }
    (0..n).all(|i| {
        if problem.is_primary(i) {
            let (lo, hi) = problem.range(i);
            (lo as u64..=hi as u64).contains(&count[i])
        } else {
            true
        }
    })
}
