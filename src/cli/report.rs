//! Writing a solve's answer in the format asked for.

use std::io::Write;

use boardsolve::engine::{Goal, Outcome};
use boardsolve::render::{self, Header, Picture};

use super::args::{Format, SolveCli};
use super::load::Loaded;

pub(crate) fn write_report(
    w: &mut dyn Write,
    cli: &SolveCli,
    l: &Loaded,
    h: &Header,
    outcome: &Outcome,
    solutions: &[Vec<usize>],
    pictures: &[Picture],
) -> std::io::Result<()> {
    match cli.format {
        Format::Text => {
            if let Some(t) = &h.title {
                writeln!(w, "{t}")?;
            }
            for p in pictures {
                writeln!(w)?;
                render::write_text_picture(w, p)?;
            }
            if !pictures.is_empty() {
                writeln!(w)?;
            }
            writeln!(w, "{}", render::answer_line(h, outcome))?;
            if let Some(c) = outcome.answer.count
                && l.task.goal == Goal::All
                && (pictures.len() as u128) < c
            {
                writeln!(
                    w,
                    "(showing the first {} of them; --limit N shows more)",
                    render::group(pictures.len() as u128)
                )?;
            }
            Ok(())
        }
        Format::Json => render::write_json_report(w, h, outcome, pictures),
        Format::Svg => {
            let big = pictures.iter().any(|p| match p {
                Picture::Tour { number, .. } => number.len() > render::SVG_MAX_SQUARES,
                Picture::Placement { holes, .. } | Picture::Stones { holes, .. } => {
                    holes.len() > render::SVG_MAX_SQUARES
                }
                Picture::Options(_) => false,
            });
            if big {
                return Err(std::io::Error::other(format!(
                    "--format svg draws boards up to {} squares; use text or json",
                    render::SVG_MAX_SQUARES
                )));
            }
            w.write_all(render::svg_report(h, pictures).as_bytes())
        }
        Format::Knuth => render::write_knuth_report(w, outcome, pictures),
        // Written before any search (cli/knuth.rs); a report never gets here.
        Format::KnuthInput => Err(std::io::Error::other(
            "--format knuth-input writes the puzzle, not an answer",
        )),
        Format::Dot => {
            let numbers = match (&outcome.answer.compact, solutions.first()) {
                (Some(c), _) => Some(c.clone()),
                (None, Some(s)) => match l.model.picture(s) {
                    Picture::Tour { number, .. } => Some(number),
                    _ => None,
                },
                _ => None,
            };
            match l.model.dot(numbers.as_ref()) {
                Ok(d) => w.write_all(d.as_bytes()),
                Err(e) => Err(std::io::Error::other(e)),
            }
        }
    }
}
