//! Command-line overrides and the document text they act on: `--set` edits the TOML text
//! before it is read, and the helpers here map a byte offset or a dotted key of that text
//! back to a line, a column and a key name, so that every error points into the document
//! as it was read.

use std::ops::Range;

use super::SpecError;

/// Command-line overrides applied on top of the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--set key.path=value`, applied to the document before it is read.
    pub set: Vec<String>,
    pub size: Option<usize>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    /// The `[solve]` keys as flags (`--goal`, `--strategy`, ...): each means exactly what its
    /// key means and is checked alike, so `--goal maximize` and `--set solve.goal=maximize`
    /// are one thing.
    pub solve: SolveOverrides,
}

/// `[solve]` values given as command-line flags; they win over the file's.
#[derive(Clone, Debug, Default)]
pub struct SolveOverrides {
    pub goal: Option<String>,
    pub strategy: Option<String>,
    /// `--unique` can only turn counting up to symmetry on.
    pub unique: bool,
    /// `--prefixes` likewise turns counting every prefix on.
    pub prefixes: bool,
    /// `--branch`: which item an exact-cover search branches on.
    pub branch: Option<String>,
    pub limit: Option<u64>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
}

impl Overrides {
    /// The flags given that set a key of the file, each with the flag and value as given
    /// (`--goal count`), by the flag's name in the option tables.
    fn flags_given(&self) -> Vec<(&'static str, String)> {
        let s = &self.solve;
        let text = |v: &Option<String>| v.clone();
        let shown = |v: Option<String>| v.map(|v| format!(" {v}"));
        [
            ("size", shown(self.size.map(|v| v.to_string()))),
            ("width", shown(self.width.map(|v| v.to_string()))),
            ("height", shown(self.height.map(|v| v.to_string()))),
            ("goal", shown(text(&s.goal))),
            ("strategy", shown(text(&s.strategy))),
            ("unique", s.unique.then(String::new)),
            ("prefixes", s.prefixes.then(String::new)),
            ("branch", shown(text(&s.branch))),
            ("limit", shown(s.limit.map(|v| v.to_string()))),
            ("time-limit", shown(s.time_limit.map(|v| v.to_string()))),
            ("threads", shown(s.threads.map(|v| v.to_string()))),
        ]
        .into_iter()
        .filter_map(|(flag, value)| value.map(|v| (flag, format!("--{flag}{v}"))))
        .collect()
    }

    /// `Err` when a flag and a `--set` give the same key (`--goal count --set
    /// solve.goal=maximize`): the flag would win unseen, so neither is taken.
    pub(super) fn check_flags_against_sets(&self, file: &str) -> Result<(), SpecError> {
        for (flag, given) in self.flags_given() {
            let Some(key) = super::options::run_option(flag).key else {
                continue;
            };
            let same = self.set.iter().find(|set| {
                let path = set.split_once('=').map_or(set.as_str(), |(p, _)| p);
                path.split('.').map(str::trim).eq(key.split('.'))
            });
            if let Some(set) = same {
                return Err(SpecError {
                    file: file.to_string(),
                    line: 0,
                    column: 0,
                    key: key.to_string(),
                    message: format!(
                        "given twice on the command line, by {given} and by --set {set}; \
                         accepted: one of them"
                    ),
                });
            }
        }
        Ok(())
    }
}

/// Where the value of a dotted key ("piece.moves") lies in the document, if it is there.
pub(super) fn span_of_key(source: &str, key: &str) -> Option<Range<usize>> {
    let doc = toml_edit::ImDocument::parse(source).ok()?;
    let mut item = doc.as_item();
    for part in key.split('.') {
        item = item.get(part)?;
    }
    item.span()
}

pub(super) fn located(
    file: &str,
    source: &str,
    span: Range<usize>,
    key: &str,
    message: String,
) -> SpecError {
    let (line, column) = line_col(source, span.start);
    SpecError {
        file: file.to_string(),
        line,
        column,
        key: key.to_string(),
        message,
    }
}

/// The TOML parser's message for an error at byte `offset`, or, where it gives none (a
/// control character in a comment), what stands there.
pub(super) fn parse_message(source: &str, offset: usize, message: &str) -> String {
    let message = message.trim();
    if !message.is_empty() {
        return message.to_string();
    }
    match source.get(offset..).and_then(|s| s.chars().next()) {
        Some(c) if c.is_control() => format!(
            "control character U+{0:04X} is not accepted here; accepted: tab, and in a string \
             the escape \\u{0:04X}",
            c as u32
        ),
        Some(c) => format!("character {c:?} is not accepted here"),
        None => "the file ends here, where TOML expects more".into(),
    }
}

pub(super) fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The dotted key whose value holds byte `offset`: the nearest `key =` at or before the
/// offset's line, inside the nearest `[table]` header above it. The files are line-oriented,
/// so this names the key the user has to look at.
pub(super) fn key_at(source: &str, offset: usize) -> String {
    let offset = offset.min(source.len());
    let upto = &source[..offset];
    let line_end = source[offset..]
        .find('\n')
        .map_or(source.len(), |p| offset + p);
    let mut key = None;
    let mut table = String::new();
    for line in source[..line_end].lines().rev() {
        let t = line.trim();
        if t.starts_with('[') {
            table = header_name(t).unwrap_or_else(|| {
                t.trim_start_matches('[')
                    .split(']')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string()
            });
            break;
        }
        if key.is_none()
            && let Some(eq) = t.find('=')
        {
            let k = t[..eq].trim();
            // A quoted key is what `--set` writes for a name that is not a bare key
            // (`--set '[rules]=1'`): named unquoted, as the argument gave it.
            let unquoted = ['"', '\'']
                .iter()
                .find_map(|&q| k.strip_prefix(q)?.strip_suffix(q))
                .filter(|u| !u.contains(['"', '\'']));
            if let Some(u) = unquoted {
                key = Some(u.to_string());
            } else if !k.is_empty()
                && k.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
            {
                key = Some(k.to_string());
            }
        }
    }
    let _ = upto;
    match (table.is_empty(), key) {
        (_, None) => table,
        (true, Some(k)) => k,
        (false, Some(k)) => format!("{table}.{k}"),
    }
}

/// The dotted name of a table header line (`[solve.options]`), its quoted parts unquoted
/// (`["[rules]"]`, which `--set '[rules].count=1'` makes, is `[rules]`); `None` when the
/// line is not a header TOML reads.
fn header_name(line: &str) -> Option<String> {
    let doc: toml_edit::DocumentMut = line.parse().ok()?;
    let mut names = Vec::new();
    let mut table = doc.as_table();
    while let Some((name, item)) = table.iter().next() {
        names.push(name.to_string());
        match item {
            toml_edit::Item::Table(t) => table = t,
            toml_edit::Item::ArrayOfTables(a) => match a.iter().next() {
                Some(t) => table = t,
                None => break,
            },
            _ => break,
        }
    }
    (!names.is_empty()).then(|| names.join("."))
}

/// The most parts a `--set` key path has: the deepest key of a puzzle file is a domination
/// tuning option, `solve.options.bnb.root_steps`.
pub const MAX_SET_DEPTH: usize = 4;
/// The longest `--set` key path, in bytes: the longest key of a puzzle file is a few tens.
pub const MAX_SET_KEY: usize = 256;
/// Characters of a `--set` argument an error shows.
const SHOWN_SET: usize = 60;

/// Apply `--set key.path=value` overrides to the document text. The value is read as TOML
/// (`8`, `true`, `"N"`, `[1, 2]`) and, failing that, as a plain string.
pub(super) fn apply_set(file: &str, text: &str, sets: &[String]) -> Result<String, SpecError> {
    if sets.is_empty() {
        return Ok(text.to_string());
    }
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        let span = e.span().unwrap_or(0..0);
        let message = parse_message(text, span.start, e.message());
        located(file, text, span, &key_at(text, 0), message)
    })?;
    for set in sets {
        // A long argument is named by its start: the message stays a line.
        let shown = match set.char_indices().nth(SHOWN_SET) {
            Some((end, _)) => format!("{}...", &set[..end]),
            None => set.clone(),
        };
        let err = |m: String| SpecError {
            file: file.to_string(),
            line: 0,
            column: 0,
            key: format!("--set {shown}"),
            message: m,
        };
        let (path, value) = set
            .split_once('=')
            .ok_or_else(|| err("accepted: key.path=value, e.g. rules.count=8".into()))?;
        // Checked before any table is built: each part of the path nests one.
        let path = path.trim();
        let parts = path.split('.').count();
        if parts > MAX_SET_DEPTH {
            return Err(err(format!(
                "the key path has {} parts; accepted: up to {MAX_SET_DEPTH}, as deep as a \
                 puzzle file's keys go (solve.options.bnb.root_steps)",
                crate::util::numbers::group(parts as u128)
            )));
        }
        if path.len() > MAX_SET_KEY {
            return Err(err(format!(
                "the key path is {} bytes long; accepted: up to {MAX_SET_KEY}",
                crate::util::numbers::group(path.len() as u128)
            )));
        }
        let keys: Vec<&str> = path.split('.').map(str::trim).collect();
        if keys.iter().any(|k| k.is_empty()) {
            return Err(err("the key path has an empty part".into()));
        }
        let value: toml_edit::Value = value
            .trim()
            .parse()
            .unwrap_or_else(|_| toml_edit::Value::from(value.trim()));
        let mut item = doc.as_item_mut();
        for k in &keys[..keys.len() - 1] {
            let table = item
                .as_table_like_mut()
                .ok_or_else(|| err(format!("`{k}` is inside a value that is not a table")))?;
            if table.get(k).is_none() {
                table.insert(k, toml_edit::Item::Table(toml_edit::Table::new()));
            }
            item = table.get_mut(k).expect("inserted above");
        }
        let table = item
            .as_table_like_mut()
            .ok_or_else(|| err("the key's parent is not a table".into()))?;
        let last = keys[keys.len() - 1];
        table.insert(last, toml_edit::Item::Value(value));
    }
    Ok(doc.to_string())
}
