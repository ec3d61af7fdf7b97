//! Parts on the command line: a part's record (`--record`, `--format json`), where records
//! go, and the command that runs a part.

use std::path::Path;

use boardsolve::engine::Outcome;
use boardsolve::engine::merge::Missing;
use boardsolve::engine::record::{PartRecord, RecordContext};
use boardsolve::render::{self, Header};

use super::args::{SolveCli, common_args, shell_word};
use super::load::Loaded;

/// The record of a part's outcome (`None` when the run was not a part).
pub(crate) fn record_of(cli: &SolveCli, l: &Loaded, h: &Header, o: &Outcome) -> Option<PartRecord> {
    Some(PartRecord::of(
        o,
        l.task.part?,
        l.task.subpart,
        RecordContext {
            puzzle: l.spec.fingerprint(l.task.goal),
            file: &cli.file,
            args: common_args(&cli.common),
            title: h.title.clone(),
            kind: l.spec.kind.name(),
            goal: l.task.goal.name(),
            counted: h.counted.clone(),
        },
    ))
}

/// Write the record whole or not at all: to a file beside the target, then renamed over it,
/// so that a part killed while writing leaves no record cut off midway.
pub(crate) fn write_record(path: &str, r: &PartRecord) -> Result<(), String> {
    let target = Path::new(path);
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("--record {path}: {e}"))?;
    }
    let tmp = format!("{path}.{}.tmp", std::process::id());
    let mut line = r.to_line();
    line.push('\n');
    std::fs::write(&tmp, line.as_bytes())
        .and_then(|_| std::fs::rename(&tmp, target))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("--record {path}: {e}")
        })
}

/// The file a part's record goes to in a results folder: `part-3.jsonl`, `part-3-2of4.jsonl`.
pub(crate) fn record_path(dir: &str, x: &Missing) -> String {
    let name = match x.subpart {
        Some((j, m)) => format!("part-{}-{j}of{m}.jsonl", x.part.0),
        None => format!("part-{}.jsonl", x.part.0),
    };
    if dir.is_empty() {
        name
    } else {
        format!("{}/{name}", dir.trim_end_matches('/'))
    }
}

/// The command that runs one part: the program, the puzzle, the run's own options, the part
/// and where its record goes.
pub(crate) fn part_command(
    program: &str,
    file: &str,
    args: &[String],
    x: &Missing,
    dir: &str,
) -> String {
    let mut words = vec![program.to_string(), file.to_string()];
    words.extend(args.iter().cloned());
    words.extend([
        "--part".into(),
        render::part_arg(x),
        "--record".into(),
        record_path(dir, x),
    ]);
    let quoted: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
    quoted.join(" ")
}

/// How commands name this program: as it was called when found on the PATH, else by its
/// full path, so that the commands run from any folder.
pub(crate) fn program_name() -> String {
    let called = std::env::args().next().unwrap_or_else(|| "solve".into());
    if !called.contains('/') {
        return called;
    }
    std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or(called)
}

/// A word that goes into a printed command (a path, an argument): refused when it holds a
/// control character, since a newline or a carriage return splits a command for any runner
/// that reads commands a line at a time, quoted or not.
pub(crate) fn check_command_word(what: &str, s: &str) -> Result<(), String> {
    match s.chars().find(|c| c.is_control()) {
        Some(c) => Err(format!(
            "{what} {s:?} holds the control character {c:?}: accepted: names without control \
             characters, as they go into commands run a line at a time"
        )),
        None => Ok(()),
    }
}
