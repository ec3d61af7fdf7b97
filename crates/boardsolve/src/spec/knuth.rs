//! Knuth's exact-cover format, as his programs DLX1, DLX2, DLX3 and SSXCC read it, read into
//! the same checked [`Problem`] that a `kind = "cover"` TOML file gives.
//!
//! The first line that is neither blank nor a comment names the primary items, then `|`, then
//! the secondary items; every further line is an option, its item names separated by
//! whitespace. A line whose first non-blank character is `|` is a comment. In an option,
//! `name:colour` gives a secondary item a colour (DLX2); on the first line `a:b|name` gives a
//! primary item the multiplicity range [a, b], and `b|name` the range [b, b] (DLX3). Names
//! hold no whitespace, `:` or `|`, and may be longer than Knuth's 8 characters.
//!
//! The reader is one pass over the bytes: item and colour names are looked up as slices of
//! the text, so a name costs an allocation once, where it is declared, not where it is used.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hasher;
use std::sync::Arc;
use std::time::Instant;

use crate::dlx::Problem;
use crate::util::Fingerprint;

use super::{CoverSpec, Document, Kind, KindSpec, Overrides, Spec, SpecError};

/// Beyond this many item occurrences in the options the file is refused (as a TOML cover).
pub const MAX_ENTRIES: usize = 50_000_000;

/// The largest upper bound of a multiplicity range (as a TOML cover's).
pub const MAX_MULTIPLICITY: u32 = (1 << 30) - 1;

const RANGE_ACCEPTED: &str = "accepted: a:b|name or b|name before the `|`, whole numbers with \
                              0 <= a <= b and 1 <= b < 2^30";

/// A cover read from Knuth's format: the problem built and checked as it was read, and the
/// names of its colours (colour code k + 1 is `colours[k]`). Shared, so that compiling the
/// puzzle does not copy a large problem.
#[derive(Clone)]
pub struct ExactCover {
    pub problem: Arc<Problem>,
    pub colours: Arc<Vec<String>>,
}

impl ExactCover {
    /// A digest of everything the search sees: items, ranges, options, colours.
    pub fn digest(&self) -> u64 {
        let p = &self.problem;
        let mut f = Fingerprint::default();
        for i in 0..p.num_items() {
            f.eat_bytes(p.item_name(i).as_bytes());
            let (lo, hi) = p.range(i);
            f.eat(u64::from(p.is_primary(i)) << 62 | u64::from(lo) << 31 | u64::from(hi));
        }
        for k in 0..p.num_options() {
            let opt = p.option(k);
            f.eat(opt.len() as u64);
            for &(item, colour) in opt {
                f.eat((item as u64) << 32 | u64::from(colour));
            }
        }
        for c in self.colours.iter() {
            f.eat_bytes(c.as_bytes());
        }
        f.value()
    }
}

/// Its digest stands for it: the puzzle's fingerprint is taken from the debug form of the
/// rules, and a million options need not be spelled out for that.
impl fmt::Debug for ExactCover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ExactCover({:016x})", self.digest())
    }
}

/// The memory the reader takes beside the text: per item occurrence, the problem's (item,
/// colour) pair; per option, where it starts; per item or colour name (besides the name's own
/// bytes), its string's allocation and its slots in the problem's lists and in the table of
/// names. Measured: `/usr/bin/time -v solve check` on 1,000 items and 1 to 5 million
/// occurrences peaks at the text, 16 bytes an occurrence and 8 an option, above the process's
/// own 5 MiB; the bytes a name are counted from the structures.
const NAME_BYTES: u64 = 160;
const ENTRY_BYTES: u64 = 16;
const OPTION_BYTES: u64 = 8;

/// The capacity a list of `n` elements holds once it has grown by doubling to take them.
fn grown(n: u64) -> u64 {
    n.max(4).next_power_of_two()
}

/// The memory reading a text of `text` bytes takes once it holds `names` bytes of names,
/// `options` options and `entries` item occurrences.
fn reading_bytes(text: u64, names: u64, options: u64, entries: u64) -> u64 {
    text.saturating_add(names)
        .saturating_add(OPTION_BYTES.saturating_mul(grown(options + 1)))
        .saturating_add(ENTRY_BYTES.saturating_mul(grown(entries)))
}

/// The memory budget of a reading, and the advice a refusal ends with, given what the whole
/// file would take.
pub type ReadBudget<'a> = (u64, &'a dyn Fn(u64) -> String);

impl Spec {
    /// A puzzle file in Knuth's format: kind cover, the goal and strategy from the command
    /// line only (the format has no place for them), the title from the first comment line
    /// above the items.
    pub fn parse_knuth(file: &str, text: &str, overrides: &Overrides) -> Result<Spec, SpecError> {
        Spec::parse_knuth_within(file, text, overrides, None, None)
    }

    /// [`Spec::parse_knuth`] within a memory budget and a deadline (`--time-limit`): reading
    /// stops with an error where what it has built would pass the budget, or at the deadline.
    pub fn parse_knuth_within(
        file: &str,
        text: &str,
        overrides: &Overrides,
        budget: Option<ReadBudget<'_>>,
        deadline: Option<Instant>,
    ) -> Result<Spec, SpecError> {
        let flag_error = |key: &str, message: &str| SpecError {
            file: file.to_string(),
            line: 0,
            column: 0,
            key: key.to_string(),
            message: message.to_string(),
        };
        if let Some(set) = overrides.set.first() {
            return Err(flag_error(
                "--set",
                &format!(
                    "{set}: a file in Knuth's format has no keys to set; the goal, strategy and \
                     limits have flags of their own (--goal, --strategy, --limit, ...)"
                ),
            ));
        }
        let board_flag = [
            ("--size", overrides.size),
            ("--width", overrides.width),
            ("--height", overrides.height),
        ]
        .into_iter()
        .find_map(|(flag, n)| n.map(|n| format!("{flag} {n}")));
        if let Some(flag) = board_flag {
            return Err(flag_error(
                &flag,
                "an exact cover takes no board: its items and options say everything",
            ));
        }
        let limits = Limits {
            budget,
            deadline,
            time_limit: overrides.solve.time_limit,
        };
        let (cover, title) = read(file, text, &limits)?;
        let doc = Document {
            file: file.to_string(),
            source: String::new(),
            original: None,
            sets: Vec::new(),
            board_flags: Vec::new(),
        };
        let solve = doc.parse_solve(Kind::Cover, None, &overrides.solve)?;
        Ok(Spec {
            file: file.to_string(),
            doc,
            title,
            board: None,
            rules: KindSpec::Cover(CoverSpec::Knuth(cover)),
            solve,
        })
    }

    /// What reading a file in Knuth's format of `file_bytes` bytes would take, estimated from
    /// its first bytes, `sample` (the whole file, or a part of it ending anywhere): the bytes,
    /// and what they are for in words.
    pub fn knuth_reading_estimate(sample: &[u8], file_bytes: u64) -> (u64, String) {
        let c = count(sample);
        let scale = |n: u64| {
            if sample.is_empty() {
                0
            } else {
                (n as u128 * file_bytes as u128 / sample.len() as u128).min(u64::MAX as u128) as u64
            }
        };
        // Items are all on one line: a sample that ends within it holds a share of them.
        let names = if c.items_done {
            c.names
        } else {
            scale(c.names)
        };
        let (options, entries) = (scale(c.options), scale(c.entries));
        let bytes = reading_bytes(file_bytes, names, options, entries);
        let what = format!(
            "the text, and about {} item occurrences in {} options",
            crate::util::numbers::group(entries as u128),
            crate::util::numbers::group(options as u128)
        );
        (bytes, what)
    }
}

/// What a text in Knuth's format holds, counted without reading it: the bytes its item names
/// take, whether the item line ends within it, its options and item occurrences.
struct Counts {
    names: u64,
    items_done: bool,
    options: u64,
    entries: u64,
}

fn count(text: &[u8]) -> Counts {
    let mut c = Counts {
        names: 0,
        items_done: false,
        options: 0,
        entries: 0,
    };
    let mut seen_items = false;
    let mut at = 0;
    for line in text.split(|&b| b == b'\n') {
        at += line.len() + 1;
        let Some(first) = line.iter().position(|&b| !is_blank(b)) else {
            continue;
        };
        if line[first] == b'|' {
            continue;
        }
        let words = line[first..]
            .split(|&b| is_space(b))
            .filter(|w| !w.is_empty());
        if seen_items {
            c.options += 1;
            c.entries += words.count() as u64;
        } else {
            seen_items = true;
            // `|` parts the primary items from the secondary ones, alone or glued to a name.
            c.names = words
                .map(|w| w.strip_prefix(b"|").unwrap_or(w))
                .filter(|w| !w.is_empty())
                .map(|w| w.len() as u64 + NAME_BYTES)
                .sum();
            // A line break after it: the line is whole.
            c.items_done = at <= text.len();
        }
    }
    c
}

/// What a reading keeps to.
struct Limits<'a> {
    budget: Option<ReadBudget<'a>>,
    deadline: Option<Instant>,
    /// `--time-limit`, for the message of a reading it stops.
    time_limit: Option<f64>,
}

/// Options read between two looks at the clock: a look costs about as much as reading an
/// option of a few items.
const CLOCK_EVERY: u32 = 256;

/// Whitespace as C's `isspace` has it, which Knuth's programs use.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whitespace within a line.
fn is_blank(b: u8) -> bool {
    b != b'\n' && is_space(b)
}

/// The last 1 to 7 bytes of a name as a word, shifted in byte by byte (a copy through memory
/// would stall the load that follows it).
fn tail_word(rest: &[u8]) -> u64 {
    rest.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b))
}

/// A name as a slice of the text, compared 8 bytes at a time: most names are short, and a
/// call to `memcmp` for each would cost more than the comparison.
#[derive(Clone, Copy)]
struct Name<'a>(&'a [u8]);

impl PartialEq for Name<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        if a.len() != b.len() {
            return false;
        }
        let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
        for (x, y) in (&mut ca).zip(&mut cb) {
            if x != y {
                return false;
            }
        }
        tail_word(ca.remainder()) == tail_word(cb.remainder())
    }
}

impl Eq for Name<'_> {}

impl std::hash::Hash for Name<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.0);
    }
}

/// The names hash with `rustc-hash`: fast on short byte strings; the input is the user's own
/// file, so resistance to chosen keys buys nothing here.
type Names<'a> = HashMap<Name<'a>, u32, rustc_hash::FxBuildHasher>;

/// One pass over the text, line by line and word by word, with where it stands: no line is
/// scanned twice, and nothing is searched for per line or per word.
struct Scanner<'a> {
    file: &'a str,
    text: &'a str,
    pos: usize,
    line_no: usize,
    line_start: usize,
}

impl<'a> Scanner<'a> {
    fn new(file: &'a str, text: &'a str) -> Scanner<'a> {
        Scanner {
            file,
            text,
            pos: 0,
            line_no: 0,
            line_start: 0,
        }
    }

    /// Moves to the next line that is neither blank nor a comment, handing each comment's
    /// text to `comment` on the way; `false` at the end of the text.
    fn next_line(&mut self, comment: &mut dyn FnMut(&'a str)) -> bool {
        let b = self.text.as_bytes();
        while self.pos < b.len() {
            self.line_no += 1;
            self.line_start = self.pos;
            let mut i = self.pos;
            while i < b.len() && is_blank(b[i]) {
                i += 1;
            }
            if i == b.len() {
                self.pos = i;
                return false;
            }
            match b[i] {
                b'\n' => self.pos = i + 1,
                b'|' => {
                    let end = b[i..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(b.len(), |k| i + k);
                    comment(&self.text[i + 1..end]);
                    self.pos = (end + 1).min(b.len());
                }
                _ => {
                    self.pos = i;
                    return true;
                }
            }
        }
        false
    }

    /// The next word of the current line and its byte offset in the text; `None` at the end
    /// of the line, the scanner then standing at the start of the next one.
    fn word(&mut self) -> Option<(usize, &'a str)> {
        let b = self.text.as_bytes();
        let mut i = self.pos;
        while i < b.len() && is_blank(b[i]) {
            i += 1;
        }
        if i == b.len() || b[i] == b'\n' {
            self.pos = (i + 1).min(b.len());
            return None;
        }
        let start = i;
        while i < b.len() && !is_space(b[i]) {
            i += 1;
        }
        self.pos = i;
        Some((start, &self.text[start..i]))
    }

    /// The error of an allocation the system refused at byte `offset`, with `names` bytes of
    /// names read.
    fn no_memory(&self, offset: usize, names: u64) -> SpecError {
        let held = self.text.len() as u64 + names;
        let mut e = self.err(
            offset,
            format!(
                "reading stopped here: the system gave no more memory, with about {} taken; \
                 accepted: a memory budget (--memory) that the system can give",
                crate::util::numbers::bytes(held)
            ),
        );
        e.key = "--memory".into();
        e
    }

    /// An error at byte `offset` of the text, on the current line.
    fn err(&self, offset: usize, message: String) -> SpecError {
        SpecError {
            file: self.file.to_string(),
            line: self.line_no,
            column: self.text[self.line_start..offset].chars().count() + 1,
            key: String::new(),
            message,
        }
    }
}

/// The byte offset of `b` in `s`, by a plain scan (names are short).
fn find_byte(s: &str, b: u8) -> Option<usize> {
    s.bytes().position(|c| c == b)
}

/// Read the whole file: the cover, and the title (the first comment line above the items).
fn read(
    file: &str,
    text: &str,
    limits: &Limits<'_>,
) -> Result<(ExactCover, Option<String>), SpecError> {
    let mut scan = Scanner::new(file, text);
    let mut title: Option<String> = None;
    let mut title_of = |c: &str| {
        let t = c.trim();
        if title.is_none() && !t.is_empty() {
            title = Some(t.to_string());
        }
    };
    if !scan.next_line(&mut title_of) {
        return Err(SpecError {
            file: file.to_string(),
            line: text.bytes().filter(|&b| b == b'\n').count() + 1,
            column: 1,
            key: String::new(),
            message: "no items: every line is blank or a comment; accepted: a first line \
                      that names the primary items, then `|` and the secondary items"
                .into(),
        });
    }
    let item_line = scan.line_no;
    let mut problem = Problem::new();
    let mut names: Names = HashMap::default();
    let mut name_bytes = read_items(&mut scan, &mut problem, &mut names)?;

    let mut colours: Vec<String> = Vec::new();
    let mut colour_code: Names = HashMap::default();
    // stamp[item] = the number of the last option that named it: a repeat in one option is
    // seen in constant time.
    let mut stamp: Vec<u32> = Vec::new();
    stamp
        .try_reserve_exact(problem.num_items())
        .map_err(|_| scan.no_memory(scan.pos, name_bytes))?;
    stamp.resize(problem.num_items(), 0);
    let mut option_no: u32 = 0;
    let mut entries = 0usize;
    let mut buf: Vec<(usize, u32)> = Vec::new();
    while scan.next_line(&mut |_| {}) {
        option_no += 1;
        buf.clear();
        let mut has_primary = false;
        let first_offset = scan.pos;
        if option_no.is_multiple_of(CLOCK_EVERY)
            && let Some(deadline) = limits.deadline
            && Instant::now() >= deadline
        {
            return Err(stopped(&scan, first_offset, limits.time_limit));
        }
        while let Some((offset, word)) = scan.word() {
            let (name, colour) = match find_byte(word, b':') {
                Some(c) => (&word[..c], Some((c, &word[c + 1..]))),
                None => (word, None),
            };
            let Some(&item) = names.get(&Name(name.as_bytes())) else {
                let message = if name.is_empty() {
                    format!("\"{word}\": no item name before ':'; accepted: name or name:colour")
                } else {
                    format!(
                        "\"{name}\" is not an item: the items are those on line {item_line} \
                         (primary, then `|` and the secondary ones)"
                    )
                };
                return Err(scan.err(offset, message));
            };
            let item = item as usize;
            if stamp[item] == option_no {
                return Err(scan.err(
                    offset,
                    format!("item \"{name}\" appears twice in this option; accepted: each once"),
                ));
            }
            stamp[item] = option_no;
            let primary = problem.is_primary(item);
            has_primary |= primary;
            let code = match colour {
                None => 0,
                Some((c, _)) if primary => {
                    return Err(scan.err(
                        offset + c,
                        format!(
                            "\"{word}\": \"{name}\" is a primary item and takes no colour; \
                             colours are for the secondary items (after the `|` on line \
                             {item_line})"
                        ),
                    ));
                }
                Some((c, "")) => {
                    return Err(scan.err(
                        offset + c,
                        format!("\"{word}\": the colour after ':' is empty; accepted: name:colour"),
                    ));
                }
                Some((c, colour)) if colour.contains([':', '|']) => {
                    return Err(scan.err(
                        offset + c + 1,
                        format!(
                            "\"{word}\" (option {option_no}): an item takes one colour, and a \
                             colour holds no ':' or '|'; accepted: name:colour"
                        ),
                    ));
                }
                Some((_, colour)) => match colour_code.get(&Name(colour.as_bytes())) {
                    Some(&code) => code,
                    None => {
                        let full = || scan.no_memory(offset, name_bytes);
                        colours.try_reserve(1).map_err(|_| full())?;
                        colour_code.try_reserve(1).map_err(|_| full())?;
                        colours.push(colour.to_string());
                        name_bytes += colour.len() as u64 + NAME_BYTES;
                        let code = colours.len() as u32;
                        colour_code.insert(Name(colour.as_bytes()), code);
                        code
                    }
                },
            };
            buf.try_reserve(1)
                .map_err(|_| scan.no_memory(offset, name_bytes))?;
            buf.push((item, code));
        }
        if !has_primary {
            return Err(scan.err(
                first_offset,
                "this option has no primary item; accepted: options that name at least one \
                 (Knuth's programs skip such an option with a warning)"
                    .into(),
            ));
        }
        entries += buf.len();
        if entries > MAX_ENTRIES {
            return Err(scan.err(
                first_offset,
                format!(
                    "more than {MAX_ENTRIES} item occurrences in the options; accepted: at most \
                     that"
                ),
            ));
        }
        if let Some((budget, advice)) = limits.budget {
            let need = reading_bytes(
                text.len() as u64,
                name_bytes,
                u64::from(option_no),
                entries as u64,
            );
            if need > budget {
                return Err(over_budget(&scan, first_offset, need, budget, advice));
            }
        }
        problem
            .add_option(&buf)
            .map_err(|e| scan.err(first_offset, e.to_string()))?;
    }
    let cover = ExactCover {
        problem: Arc::new(problem),
        colours: Arc::new(colours),
    };
    Ok((cover, title))
}

/// The error of a reading whose problem would pass the budget at the option at `offset`: what
/// it would take there and, at the same rate, for the whole file.
fn over_budget(
    scan: &Scanner<'_>,
    offset: usize,
    need: u64,
    budget: u64,
    advice: &dyn Fn(u64) -> String,
) -> SpecError {
    // The text is whole already; what was built grows with the share of it read.
    let text = scan.text.len() as u64;
    let built = need.saturating_sub(text) as u128 * text as u128 / offset.max(1) as u128;
    let whole = (text as u128 + built).clamp(need as u128, u64::MAX as u128) as u64;
    scan.err(
        offset,
        format!(
            "reading stopped at this option: the file's text and the problem read so far take \
             {}, more than the memory budget of {} (--memory); the whole file would take about \
             {}: {}",
            crate::util::numbers::bytes(need),
            crate::util::numbers::bytes(budget),
            crate::util::numbers::bytes(whole),
            advice(whole)
        ),
    )
}

/// The error of a reading that the time limit stopped at the option at `offset`.
fn stopped(scan: &Scanner<'_>, offset: usize, time_limit: Option<f64>) -> SpecError {
    let share = offset as f64 / scan.text.len().max(1) as f64 * 100.0;
    let limit = time_limit.map_or(String::new(), |t| format!(" of {t} s"));
    let mut e = scan.err(
        offset,
        format!(
            "reading stopped here at the time limit{limit}, {share:.0}% of the file read; \
             nothing was solved (exit status 2); accepted: a time limit that leaves time to \
             read the file"
        ),
    );
    e.key = "--time-limit".into();
    e
}

/// The first line: primary items (each perhaps with a range), `|`, secondary items.
fn read_items<'a>(
    scan: &mut Scanner<'a>,
    problem: &mut Problem,
    names: &mut Names<'a>,
) -> Result<u64, SpecError> {
    let mut secondary = false;
    let mut name_bytes = 0u64;
    let line_start = scan.pos;
    while let Some((offset, word)) = scan.word() {
        let (offset, word) = if let Some(rest) = word.strip_prefix('|') {
            if secondary {
                return Err(scan.err(
                    offset,
                    "a second `|` on the item line; accepted: primary items, `|`, secondary items"
                        .into(),
                ));
            }
            secondary = true;
            if rest.is_empty() {
                continue;
            }
            (offset + 1, rest)
        } else {
            (offset, word)
        };
        let (name_at, name, range) = match find_byte(word, b'|') {
            Some(bar) if secondary => {
                return Err(scan.err(
                    offset + bar,
                    format!(
                        "\"{word}\": a multiplicity range is for a primary item (before the `|`); \
                         secondary items take none"
                    ),
                ));
            }
            Some(bar) => {
                let range = range(&word[..bar]).map_err(|why| {
                    scan.err(offset, format!("\"{word}\": {why}; {RANGE_ACCEPTED}"))
                })?;
                (offset + bar + 1, &word[bar + 1..], Some(range))
            }
            None => (offset, word, None),
        };
        if name.is_empty() {
            return Err(scan.err(
                offset,
                format!("\"{word}\": the range names no item; {RANGE_ACCEPTED}"),
            ));
        }
        if let Some(c) = find_byte(name, b':') {
            return Err(scan.err(
                name_at + c,
                format!(
                    "\"{name}\": an item name holds no ':' or '|' (':' gives a colour, in an \
                     option); a range is written a:b|name"
                ),
            ));
        }
        if names.contains_key(&Name(name.as_bytes())) {
            return Err(scan.err(
                name_at,
                format!("item \"{name}\" is declared twice; accepted: distinct names"),
            ));
        }
        names
            .try_reserve(1)
            .map_err(|_| scan.no_memory(name_at, name_bytes))?;
        name_bytes += name.len() as u64 + NAME_BYTES;
        let item = match (secondary, range) {
            (true, _) => problem.add_secondary(name),
            (false, None) => problem.add_primary(name),
            (false, Some((lo, hi))) => problem.add_primary_range(name, lo, hi),
        };
        names.insert(Name(name.as_bytes()), item as u32);
    }
    if problem.num_primary() == 0 {
        return Err(scan.err(
            line_start,
            "no primary item on the item line; accepted: at least one before the `|`".into(),
        ));
    }
    Ok(name_bytes)
}

/// What is wrong with the `a:b` of a ranged item.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RangeError {
    NotWhole(String),
    TooLarge(String),
    UpperZero,
    LowerAboveUpper(u32, u32),
}

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RangeError::NotWhole(s) => write!(f, "\"{s}\" is not a whole number"),
            RangeError::TooLarge(s) => write!(f, "{s} is too large"),
            RangeError::UpperZero => f.write_str("the upper bound is 0"),
            RangeError::LowerAboveUpper(lo, hi) => {
                write!(f, "the lower bound {lo} exceeds the upper bound {hi}")
            }
        }
    }
}

/// `b` or `a:b` before the `|` of a ranged item: `(a, b)`, or why not.
fn range(prefix: &str) -> Result<(u32, u32), RangeError> {
    let number = |s: &str| -> Result<u32, RangeError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(RangeError::NotWhole(s.to_string()));
        }
        s.parse::<u32>()
            .ok()
            .filter(|&v| v <= MAX_MULTIPLICITY)
            .ok_or_else(|| RangeError::TooLarge(s.to_string()))
    };
    let (lo, hi) = match prefix.split_once(':') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let b = number(prefix)?;
            (b, b)
        }
    };
    if hi == 0 {
        return Err(RangeError::UpperZero);
    }
    if lo > hi {
        return Err(RangeError::LowerAboveUpper(lo, hi));
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests;
