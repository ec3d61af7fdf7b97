//! `solve merge`: part records read, checked and merged into the answer one run would give.

use std::io::{Read, Write};
use std::path::Path;

use boardsolve::engine::merge;
use boardsolve::engine::record::PartRecord;
use boardsolve::render;

use super::args::{Common, MergeCli, SolveCli};
use super::load::load;
use super::parts::{part_command, program_name};
use super::{USAGE_ERROR, exit_code, fail};

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
