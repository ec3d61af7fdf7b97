//! Writing a solve's answer in the format asked for. Text and JSON go out as the search
//! finds solutions (the head before the search, each solution as it passes its check, the
//! tail after), so memory does not grow with the solutions shown; SVG draws every solution
//! at once and keeps them, up to `--limit` and within the memory budget (DOT keeps the
//! first alone); a part's record in JSON is one line at the end. Every picture is written
//! under the run's clock, so writing a board of 10^8 squares, or drawing thousands of
//! boards, stops at the deadline or an interrupt too, the output closed where it stopped.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::Duration;

use boardsolve::engine::record::PartRecord;
use boardsolve::engine::{Clock, Outcome, StopReason};
use boardsolve::kinds::Model;
use boardsolve::render::{self, Header, Picture, Stop, Unfinished};

use boardsolve::spec::options::OutputFormat;

/// Where the answer goes: standard output or the `--output` file, buffered.
pub(crate) type Out = std::io::BufWriter<Box<dyn Write + Send>>;

/// The longest a solution written waits in the buffer before a reader sees it.
pub(crate) const FLUSH_EVERY: Duration = Duration::from_millis(100);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Text or JSON, written as solutions come.
    Stream,
    /// SVG and DOT draw every solution at once: kept, up to the cap, for the end.
    Collect,
    /// A part's record in JSON: one line at the end, no solution.
    Record,
}

/// A solve's answer on its way out.
pub(crate) struct Report<'c> {
    out: Out,
    format: OutputFormat,
    mode: Mode,
    /// Solutions shown at most (`--limit`).
    keep: u64,
    /// Goal `all`: the answer says when fewer were shown than counted.
    all: bool,
    /// Solutions written, or kept to draw at the end (one cut short included).
    shown: u64,
    kept: Vec<Picture>,
    /// The memory budget ([`boardsolve::engine::Task::memory`]) and what the pictures kept
    /// will take, drawing included ([`kept_bytes`]).
    budget: Option<u64>,
    held: u64,
    /// The writing of a solution stopped: none is written after it.
    cut: Option<Unfinished>,
    /// Written since the last flush.
    dirty: bool,
    /// The first write error: the search stops, and the solve reports it.
    error: Option<std::io::Error>,
    clock: &'c Clock,
}

impl<'c> Report<'c> {
    /// A report in `format` (a part's record instead, for `record` in JSON), showing at most
    /// `keep` solutions (of goal `all` when `all`), its writing stopped by `clock`; the
    /// solutions kept for a drawing stop at `budget` bytes.
    pub(crate) fn new(
        out: Out,
        format: OutputFormat,
        record: bool,
        (keep, all): (u64, bool),
        budget: Option<u64>,
        clock: &'c Clock,
    ) -> Self {
        let mode = match format {
            OutputFormat::Json if record => Mode::Record,
            OutputFormat::Text | OutputFormat::Json => Mode::Stream,
            // `knuth-input` writes the puzzle before any search (cli/knuth.rs) and never
            // reaches a report; `knuth` prints DLX1's lines, the statistics after them.
            OutputFormat::Svg
            | OutputFormat::Dot
            | OutputFormat::Knuth
            | OutputFormat::KnuthInput => Mode::Collect,
        };
        Report {
            out,
            format,
            mode,
            keep,
            all,
            shown: 0,
            kept: Vec::new(),
            budget,
            held: 0,
            cut: None,
            dirty: false,
            error: None,
            clock,
        }
    }

    /// Whether solutions go out as they are found (and so the buffer wants flushing now and
    /// then).
    pub(crate) fn streams(&self) -> bool {
        self.mode == Mode::Stream
    }

    /// The opening, written before the search: the title (text), or the fields known before
    /// the search and the opening of the solutions (JSON).
    pub(crate) fn begin(&mut self, h: &Header, strategy: &str) -> std::io::Result<()> {
        match (self.mode, self.format) {
            (Mode::Stream, OutputFormat::Text) => render::write_text_head(&mut self.out, h)?,
            (Mode::Stream, _) => render::write_json_head(&mut self.out, h, strategy)?,
            _ => {}
        }
        self.flush()
    }

    /// A solution that passed its check: written (or kept, for SVG and DOT) while fewer than
    /// the cap were; counted only after. `Break` once writing failed: the search stops.
    pub(crate) fn solution(&mut self, model: &Model, solution: &[usize]) -> ControlFlow<()> {
        if self.error.is_some() {
            return ControlFlow::Break(());
        }
        if self.shown >= self.keep || self.cut.is_some() {
            return ControlFlow::Continue(());
        }
        match self.mode {
            Mode::Record => {}
            // The move graph takes the first tour's numbers alone.
            Mode::Collect if self.format == OutputFormat::Dot && !self.kept.is_empty() => {}
            Mode::Collect => self.keep_picture(model.picture(solution)),
            Mode::Stream => {
                let written = self.write(&model.picture(solution));
                self.note(written);
            }
        }
        if self.error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Keep a picture for the drawing, unless it would take the pictures kept past the
    /// memory budget: then it and the later ones are left out, the search going on to its
    /// count, and the answer says where the drawing stops.
    fn keep_picture(&mut self, p: Picture) {
        let bytes = kept_bytes(&p);
        if let Some(budget) = self.budget
            && self.held.saturating_add(bytes) > budget
        {
            self.cut = Some(Unfinished::Cut {
                solution: self.shown + 1,
                at: Stop {
                    reason: StopReason::Memory,
                    done: 0,
                    of: p.squares(),
                    unit: "squares",
                },
            });
            return;
        }
        self.held += bytes;
        self.kept.push(p);
        self.shown += 1;
    }

    /// Write one solution under the clock; a stop inside it ends the solutions shown. The
    /// clock is watched from the picture's start, so one begun after the deadline (the best
    /// placement of a search the deadline stopped) still has a tick to be written in: only
    /// a picture longer to write than that is cut.
    fn write(&mut self, p: &Picture) -> std::io::Result<()> {
        let mut watch = self.clock.watch();
        let mut stop = || watch.stop();
        let index = self.shown;
        let stopped: Option<Stop> = match self.format {
            OutputFormat::Text => render::write_text_solution(&mut self.out, p, &mut stop)?,
            _ => render::write_json_solution(&mut self.out, index, p, &mut stop)?,
        };
        self.shown += 1;
        self.dirty = true;
        if let Some(at) = stopped {
            self.cut = Some(Unfinished::Cut {
                solution: self.shown,
                at,
            });
        }
        Ok(())
    }

    fn note(&mut self, r: std::io::Result<()>) {
        if let Err(e) = r
            && self.error.is_none()
        {
            self.error = Some(e);
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.dirty = false;
        self.out.flush()
    }

    /// Flush what was written since the last time, so that a reader sees solutions within
    /// [`FLUSH_EVERY`] of their finding; an error stops the search at its next solution.
    pub(crate) fn flush_if_dirty(&mut self) {
        if self.dirty && self.error.is_none() {
            let r = self.flush();
            self.note(r);
        }
    }

    /// The end of the answer, after the search: `more` (the best solution of an
    /// optimisation, a tour in its compact form) written as the others, then the answer line
    /// and the rest of the report, or the whole of a drawing or the part's record. What was
    /// not written whole comes back (a cut, or the solution found left out because its check
    /// was stopped: `unchecked`).
    pub(crate) fn finish(
        mut self,
        h: &Header,
        outcome: &Outcome,
        more: Vec<Picture>,
        unchecked: Option<StopReason>,
        model: &Model,
        record: Option<&PartRecord>,
    ) -> std::io::Result<Option<Unfinished>> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        for p in &more {
            if self.cut.is_some() {
                break;
            }
            match self.mode {
                Mode::Stream => self.write(p)?,
                Mode::Collect => self.keep_picture(p.clone()),
                Mode::Record => {}
            }
        }
        let mut unfinished = self.cut.or(unchecked.map(Unfinished::Unchecked));
        let w = &mut self.out;
        match (self.mode, self.format) {
            (Mode::Record, _) => {
                if let Some(r) = record {
                    writeln!(w, "{}", r.to_line())?;
                }
            }
            (Mode::Stream, OutputFormat::Text) => {
                render::write_text_tail(w, h, outcome, self.shown, self.all, unfinished.as_ref())?
            }
            (Mode::Stream, _) => {
                render::write_json_tail(w, outcome, self.shown, unfinished.as_ref())?
            }
            (Mode::Collect, OutputFormat::Svg) => {
                // A drawing stopped by the clock ends before the first solution it left out.
                unfinished = write_svg(w, h, &self.kept, self.clock)?.or(unfinished);
            }
            (Mode::Collect, OutputFormat::Knuth | OutputFormat::KnuthInput) => {
                render::write_knuth_report(w, outcome, &self.kept)?
            }
            (Mode::Collect, _) => {
                let numbers = self.kept.iter().find_map(|p| match p {
                    Picture::Tour { number, .. } => Some(number),
                    _ => None,
                });
                match model.move_graph(numbers) {
                    Ok(g) => w.write_all(render::dot_graph(&g).as_bytes())?,
                    Err(e) => return Err(std::io::Error::other(render::no_graph_text(&e))),
                }
            }
        }
        self.out.flush()?;
        Ok(unfinished)
    }
}

/// Bytes a picture kept for a drawing takes: its squares (or its options' names), each held
/// once as the picture and twice as SVG text (the body, then the document around it), at
/// most about 300 bytes of SVG a square (a sudoku cell with its symbol and borders).
fn kept_bytes(p: &Picture) -> u64 {
    const PER_SQUARE: u64 = 700;
    const PER_PICTURE: u64 = 1024;
    let names: u64 = match p {
        Picture::Options(options) => options.iter().flatten().map(|n| n.len() as u64 + 1).sum(),
        _ => 0,
    };
    PER_PICTURE + (p.squares() as u64) * PER_SQUARE + names * 3
}

/// The drawing of `pictures`, stopped by `clock` between two pictures: the document closes
/// with those drawn, and the stop comes back as the first one left out.
fn write_svg(
    w: &mut dyn Write,
    h: &Header,
    pictures: &[Picture],
    clock: &Clock,
) -> std::io::Result<Option<Unfinished>> {
    if let Some(big) = pictures
        .iter()
        .map(Picture::squares)
        .find(|&s| s > render::SVG_MAX_SQUARES)
    {
        return Err(std::io::Error::other(format!(
            "--format svg draws boards of up to {} squares, and this one has {}; use text or \
             json",
            render::group(render::SVG_MAX_SQUARES as u128),
            render::group(big as u128)
        )));
    }
    let mut watch = clock.watch();
    let (svg, drawn, stopped) = render::svg_report_until(h, pictures, &mut || watch.stop());
    w.write_all(svg.as_bytes())?;
    Ok(stopped.map(|reason| Unfinished::Cut {
        solution: drawn as u64 + 1,
        at: Stop {
            reason,
            done: 0,
            of: pictures[drawn].squares(),
            unit: "squares",
        },
    }))
}
