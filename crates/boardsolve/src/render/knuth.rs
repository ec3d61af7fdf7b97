//! Knuth's exact-cover format, written: solutions as his DLX1 prints them (`--format knuth`),
//! and a cover problem as the input his programs read (`--format knuth-input`).
//!
//! DLX1 prints solution k as a line `k:` and then one line per chosen option, its item names
//! each after a space, and at the end one line of statistics, "Altogether N solutions,
//! I+M mems, U updates, B bytes, K nodes.". We print the same without the mems and bytes,
//! which we do not count. Two differences remain: DLX1 lists a solution's options in the
//! order they were chosen, each from the item it branched on, and adds where the option
//! stands in that item's list, "(2 of 3)"; we list the options in the order of the file,
//! each as written there.

use std::io::{self, Write};

use crate::dlx::Problem;
use crate::engine::Outcome;
use crate::spec::Kind;

use super::Picture;

/// The longest names Knuth's own programs read; ours read any length.
pub const KNUTH_NAME_MAX: usize = 8;

/// Solutions numbered from 1 as DLX1 numbers them, then its statistics line.
pub fn write_knuth_report(w: &mut dyn Write, o: &Outcome, solutions: &[Picture]) -> io::Result<()> {
    for (k, p) in solutions.iter().enumerate() {
        writeln!(w, "{}:", k + 1)?;
        if let Picture::Options(options) = p {
            for option in options {
                for name in option {
                    write!(w, " {name}")?;
                }
                writeln!(w)?;
            }
        }
    }
    writeln!(w, "{}", altogether_line(o))
}

/// The kinds `--format knuth-input` writes, as the kinds say they are, joined by `last`
/// ("and", "or") before the last: "independent, cover, tiling and sudoku".
pub(super) fn exact_cover_kinds_text(last: &str) -> String {
    let names: Vec<&str> = crate::kinds::exact_cover_kinds()
        .into_iter()
        .map(Kind::name)
        .collect();
    match names.split_last() {
        Some((tail, head)) if !head.is_empty() => format!("{} {last} {tail}", head.join(", ")),
        Some((tail, _)) => tail.to_string(),
        None => String::new(),
    }
}

/// Why `--format knuth` does not print a puzzle of `kind`: it prints the options of a cover
/// puzzle's solutions; what `--format knuth-input` writes instead is said, from what the
/// kinds say they write.
pub fn knuth_format_refused_text(kind: Kind) -> String {
    let input = if crate::kinds::writes_exact_cover(kind) {
        "`--format knuth-input` writes this puzzle as an exact cover, for Knuth's programs"
            .to_string()
    } else {
        format!(
            "`--format knuth-input` writes a puzzle of kind {} as an exact cover, for Knuth's \
             programs",
            exact_cover_kinds_text("or")
        )
    };
    format!(
        "--format knuth prints the chosen options of an exact cover (kind cover); kind \"{}\" \
         prints its own solutions ({input})",
        kind.name()
    )
}

/// "Altogether 92 solutions, 16680 updates, 1049 nodes.", as DLX1 ends a run (its mems and
/// bytes left out).
pub fn altogether_line(o: &Outcome) -> String {
    let count = o.answer.count.unwrap_or(o.stats.solutions);
    format!(
        "Altogether {count} solution{}, {} updates, {} nodes.",
        if count == 1 { "" } else { "s" },
        o.stats.counter("updates").unwrap_or(0),
        o.stats.nodes
    )
}

/// A name Knuth's format cannot hold, found before anything is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwritable {
    /// An item's name, or a colour's.
    pub of: NameOf,
    pub name: String,
}

/// Whose name a [`Unwritable`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameOf {
    Item,
    Colour,
}

/// Why a name cannot stand in Knuth's format, if it cannot.
fn unwritable(of: NameOf, name: &str) -> Option<Unwritable> {
    let bad = name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ':' || c == '|');
    bad.then(|| Unwritable {
        of,
        name: name.to_string(),
    })
}

/// "item \"a b\" cannot be written in Knuth's format: ...".
pub fn unwritable_text(u: &Unwritable) -> String {
    let what = match u.of {
        NameOf::Item => "item",
        NameOf::Colour => "colour",
    };
    if u.name.is_empty() {
        return format!("an empty {what} name cannot be written in Knuth's format");
    }
    format!(
        "{what} \"{}\" cannot be written in Knuth's format: names there hold no whitespace, \
         ':' or '|'",
        u.name
    )
}

/// Whether the problem can be written in Knuth's format: every item and colour name must be
/// one word without `:` or `|`. Checked before anything is written.
pub fn knuth_input_check(problem: &Problem, colours: &[String]) -> Result<(), Unwritable> {
    for i in 0..problem.num_items() {
        if let Some(why) = unwritable(NameOf::Item, problem.item_name(i)) {
            return Err(why);
        }
    }
    for c in colours {
        if let Some(why) = unwritable(NameOf::Colour, c) {
            return Err(why);
        }
    }
    Ok(())
}

/// A note when names are longer than Knuth's programs read (his DLX1 stops at 8 characters).
pub fn knuth_input_note(problem: &Problem, colours: &[String]) -> Option<String> {
    let long = (0..problem.num_items())
        .map(|i| problem.item_name(i))
        .chain(colours.iter().map(String::as_str))
        .filter(|n| n.chars().count() > KNUTH_NAME_MAX)
        .count();
    (long > 0).then(|| {
        format!(
            "note: {long} item or colour name{} longer than {KNUTH_NAME_MAX} characters: solve \
             reads them, Knuth's DLX programs stop at {KNUTH_NAME_MAX}",
            if long == 1 { " is" } else { "s are" }
        )
    })
}

/// The problem in Knuth's format: the title as a comment line, the primary items (a range
/// as `a:b|name`, or `b|name` when a = b), `|` and the secondary items, then one option a
/// line. Items keep their order within each kind, and options theirs, so his programs and
/// ours choose alike. Call [`knuth_input_check`] first.
pub fn write_knuth_input(
    w: &mut dyn Write,
    title: Option<&str>,
    problem: &Problem,
    colours: &[String],
) -> io::Result<()> {
    if let Some(t) = title {
        writeln!(w, "| {}", t.replace(['\n', '\r'], " "))?;
    }
    let items = 0..problem.num_items();
    let mut first = true;
    for i in items.clone().filter(|&i| problem.is_primary(i)) {
        if !first {
            write!(w, " ")?;
        }
        first = false;
        match problem.range(i) {
            (1, 1) => {}
            (lo, hi) if lo == hi => write!(w, "{hi}|")?,
            (lo, hi) => write!(w, "{lo}:{hi}|")?,
        }
        write!(w, "{}", problem.item_name(i))?;
    }
    let mut secondary = items.filter(|&i| !problem.is_primary(i)).peekable();
    if secondary.peek().is_some() {
        write!(w, " |")?;
        for i in secondary {
            write!(w, " {}", problem.item_name(i))?;
        }
    }
    writeln!(w)?;
    for k in 0..problem.num_options() {
        for (j, &(item, c)) in problem.option(k).iter().enumerate() {
            if j > 0 {
                write!(w, " ")?;
            }
            write!(w, "{}", problem.item_name(item))?;
            if c > 0 {
                write!(w, ":{}", colours[c as usize - 1])?;
            }
        }
        writeln!(w)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_lines() {
        let mut p = Problem::new();
        let a = p.add_primary("a");
        let x = p.add_secondary("x");
        let b = p.add_primary_range("b", 2, 2);
        let c = p.add_primary_range("c", 0, 3);
        p.add_option(&[(a, 0), (x, 1)]).unwrap();
        p.add_option(&[(b, 0), (c, 0), (x, 2)]).unwrap();
        let colours = vec!["red".to_string(), "blue".to_string()];
        let mut out = Vec::new();
        write_knuth_input(&mut out, Some("two\nlines"), &p, &colours).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "| two lines\na 2|b 0:3|c | x\na x:red\nb c x:blue\n"
        );
        assert!(knuth_input_check(&p, &colours).is_ok());
        assert_eq!(knuth_input_note(&p, &colours), None);
        let mut q = Problem::new();
        q.add_primary("a|b");
        let e = knuth_input_check(&q, &[]).unwrap_err();
        assert_eq!((e.of, e.name.as_str()), (NameOf::Item, "a|b"));
        assert!(unwritable_text(&e).contains("\"a|b\""));
        let e = knuth_input_check(&p, &["dark red".into()]).unwrap_err();
        assert_eq!(e.of, NameOf::Colour);
        assert!(unwritable_text(&e).starts_with("colour \"dark red\""));
        let mut q = Problem::new();
        q.add_primary("position9");
        assert!(
            knuth_input_note(&q, &[])
                .unwrap()
                .contains("1 item or colour name is")
        );
    }
}
