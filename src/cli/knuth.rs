//! Knuth's exact-cover format on the command line's output: `--format knuth-input`, which
//! writes the puzzle instead of solving it, and the kinds `--format knuth` takes (which files
//! are read in his format is load's).

use std::io::Write;

use boardsolve::render;
use boardsolve::spec::Kind;
use boardsolve::spec::options::OutputFormat;

use super::args::SolveCli;
use super::fail;
use super::load::Loaded;

/// What the Knuth formats settle before a search: `knuth-input` writes the puzzle and ends
/// the run; `knuth` is refused for kinds whose solutions are not options. `None`: search.
pub(crate) fn before_search(cli: &SolveCli, l: &Loaded) -> Option<u8> {
    match cli.out.format {
        OutputFormat::KnuthInput => Some(write_input(cli, l)),
        OutputFormat::Knuth if l.spec.kind() != Kind::Cover => {
            Some(fail(render::knuth_format_refused_text(l.spec.kind())))
        }
        _ => None,
    }
}

/// The puzzle in Knuth's format, to `--output` or standard output: exit 0, or 2 when it has
/// no exact cover or a name his format cannot hold.
fn write_input(cli: &SolveCli, l: &Loaded) -> u8 {
    let cover = match l.model.exact_cover(l.task.goal, l.task.unique) {
        Ok(c) => c,
        Err(why) => {
            let why = render::refusal_text(&why);
            return fail(format!("--format knuth-input: {why}"));
        }
    };
    if let Err(name) = render::knuth_input_check(&cover.problem, cover.colours) {
        let why = render::unwritable_text(&name);
        return fail(format!("--format knuth-input: {why}"));
    }
    // The title as the text report shows it, with what the command line changed.
    let title = super::load::header(l).title;
    let title = title.as_deref();
    let write = |w: &mut dyn Write| {
        render::write_knuth_input(w, title, &cover.problem, cover.colours)?;
        w.flush()
    };
    let written = match &cli.out.output {
        Some(path) => std::fs::File::create(path)
            .and_then(|f| write(&mut std::io::BufWriter::with_capacity(1 << 20, f)))
            .map_err(|e| format!("{path}: {e}")),
        None => {
            let stdout = std::io::stdout();
            write(&mut std::io::BufWriter::with_capacity(
                1 << 20,
                stdout.lock(),
            ))
            .map_err(|e| e.to_string())
        }
    };
    if let Err(e) = written {
        return fail(e);
    }
    if !cli.out.quiet
        && let Some(note) = render::knuth_input_note(&cover.problem, cover.colours)
    {
        errln!("{note}");
    }
    0
}
