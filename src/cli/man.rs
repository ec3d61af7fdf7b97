//! `solve man`: the manual page (roff), clap_mangen's sections of `solve` with each command
//! in a section of the same page, so that the page names no page it does not print.

use std::io::Write;

use clap::CommandFactory;
use clap_mangen::Man;

use boardsolve::spec::options::OPTION_GROUPS;

use super::args::Cli;

/// A section rendered by clap_mangen without its `.SH` heading lines, to stand under a
/// heading of the page's own.
fn body(render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<String> {
    let mut buf = Vec::new();
    render(&mut buf)?;
    let text = String::from_utf8(buf).map_err(std::io::Error::other)?;
    Ok(text
        .lines()
        .filter(|l| !l.starts_with(".SH"))
        .map(|l| format!("{l}\n"))
        .collect())
}

/// The page, whole, into `w`.
pub(crate) fn write_man(w: &mut dyn Write) -> std::io::Result<()> {
    let mut page = Vec::new();
    write_sections(&mut page)?;
    let page = String::from_utf8(page).map_err(std::io::Error::other)?;
    // Each section clap_mangen renders defines the string `Aq` in two lines (`.ie`, `.el`);
    // the first definition is enough.
    let mut definitions = 0;
    for line in page.lines() {
        if is_aq_definition(line) {
            definitions += 1;
            if definitions > 2 {
                continue;
            }
        }
        writeln!(w, "{line}")?;
    }
    Ok(())
}

fn is_aq_definition(line: &str) -> bool {
    line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq")
}

fn write_sections(w: &mut dyn Write) -> std::io::Result<()> {
    let cmd = Cli::command();
    let man = Man::new(cmd.clone());
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    man.render_description_section(w)?;
    man.render_options_section(w)?;
    // The options of the tables, which the commands that read a puzzle share, are listed
    // above; each command lists its own.
    let shared: Vec<&str> = OPTION_GROUPS
        .iter()
        .flat_map(|g| g.options.iter().map(|o| o.flag))
        .collect();
    writeln!(w, ".SH COMMANDS")?;
    for sub in cmd.get_subcommands() {
        let name = format!("solve {}", sub.get_name());
        let mut own = sub
            .clone()
            .bin_name(&name)
            .display_name(&name)
            .disable_help_flag(true);
        let mut takes_shared = false;
        for flag in &shared {
            if own.get_arguments().any(|a| a.get_id() == *flag) {
                own = own.mut_arg(*flag, |a| a.hide(true));
                takes_shared = true;
            }
        }
        let page = Man::new(own);
        writeln!(w, ".SS \"{name}\"")?;
        w.write_all(body(|w| page.render_synopsis_section(w))?.as_bytes())?;
        if takes_shared {
            writeln!(w, "and the puzzle, solve and run options above.")?;
        }
        writeln!(w, ".PP")?;
        w.write_all(body(|w| page.render_description_section(w))?.as_bytes())?;
        w.write_all(body(|w| page.render_options_section(w))?.as_bytes())?;
        if sub.get_after_help().is_some() {
            writeln!(w, ".PP")?;
            w.write_all(body(|w| page.render_extra_section(w))?.as_bytes())?;
        }
    }
    man.render_extra_section(w)?;
    man.render_version_section(w)
}
