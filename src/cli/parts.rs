//! Parts on the command line: a part's record (`--record`, `--format json`), and `solve merge`.

use std::io::{Read, Write};
use std::path::Path;

use boardsolve::engine::Outcome;
use boardsolve::engine::merge::{self, Missing};
use boardsolve::engine::record::{PartRecord, RecordContext};
use boardsolve::render::{self, Header};

use super::args::{Common, MergeCli, SolveCli, common_args, shell_word};
use super::load::{Loaded, load};
use super::{USAGE_ERROR, exit_code, fail};

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

pub(crate) fn merge(cli: MergeCli) -> u8 {
    let mut records = Vec::new();
    for file in &cli.records {
        let text = if file == "-" {
            let mut s = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut s) {
                return fail(format!("<stdin>: {e}"));
            }
            s
        } else {
            match std::fs::read_to_string(file) {
                Ok(s) => s,
                Err(e) => return fail(format!("{file}: cannot read the records: {e}")),
            }
        };
        let name = if file == "-" {
            "<stdin>"
        } else {
            file.as_str()
        };
        match merge::parse_lines(name, &text) {
            Ok(r) => records.extend(r),
            Err(e) => return fail(render::merge_error_text(&e)),
        }
    }
    let m = match merge::merge(&records) {
        Ok(m) => m,
        Err(e) => return fail(render::merge_error_text(&e)),
    };
    let (h, outcome) = render::merged_outcome(&m);
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    let mut out = String::new();
    if let Some(t) = &h.title {
        out.push_str(t);
        out.push('\n');
    }
    // The best solution drawn as a run draws it, where the puzzle is at hand and unchanged.
    if let Some(picture) = m.solution.as_ref().and_then(|s| picture_of(&m.first, s)) {
        out.push('\n');
        out.push_str(&picture);
        out.push('\n');
    }
    out.push_str(&render::merged_answer_line(&m));
    out.push('\n');
    if !m.complete() {
        // Records of one folder rerun into it; records read from standard input into results/.
        let dir = cli
            .records
            .iter()
            .find(|f| *f != "-")
            .and_then(|f| {
                Path::new(f)
                    .parent()
                    .map(|p| p.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "results".into());
        let program = program_name();
        for x in &m.missing {
            out.push_str(&part_command(
                &program,
                &m.first.file,
                &m.first.args,
                x,
                &dir,
            ));
            out.push('\n');
        }
    }
    if w.write_all(out.as_bytes()).and_then(|_| w.flush()).is_err() {
        return USAGE_ERROR;
    }
    if !cli.quiet {
        eprintln!("{}", render::merged_summary(&m));
        for s in &m.stopped {
            eprintln!("{s}: a part stopped before its end: not counted");
        }
    }
    exit_code(outcome.status)
}

/// The solution drawn from the puzzle file the records name, if it is there and is still the
/// puzzle they searched.
fn picture_of(r: &PartRecord, solution: &[usize]) -> Option<String> {
    let mut argv = vec!["solve".to_string(), r.file.clone()];
    argv.extend(r.args.iter().cloned());
    let cli = <SolveCli as clap::Parser>::try_parse_from(argv).ok()?;
    let common: &Common = &cli.common;
    if r.file == "-" || !Path::new(&r.file).exists() {
        return None;
    }
    let l = load(&r.file, common, None).ok()?;
    let goal = boardsolve::engine::Goal::parse(&r.goal)?;
    if boardsolve::engine::record::hex(l.spec.fingerprint(goal)) != r.puzzle {
        return None;
    }
    Some(render::text_picture(&l.model.picture(solution)))
}
