//! Parts on the command line: a part's record (`--record`, `--format json`), where records
//! go and how they are written, the command that runs a part, and what such a command may
//! hold.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use boardsolve::engine::Outcome;
use boardsolve::engine::merge::{Missing, Source, parse_lines};
use boardsolve::engine::record::{PartRecord, RecordContext};
use boardsolve::render::{self, Header};

use super::args::{SolveCli, common_args, shell_word};
use super::load::Loaded;
use super::merge::takes_together;

/// The record of a part's outcome (`None` when the run was not a part).
pub(crate) fn record_of(cli: &SolveCli, l: &Loaded, h: &Header, o: &Outcome) -> Option<PartRecord> {
    Some(PartRecord::of(
        o,
        l.task.part?,
        l.task.subpart,
        RecordContext {
            puzzle: l.spec.fingerprint(l.task.goal),
            file: cli.file(),
            args: common_args(&cli.common),
            title: h.title.clone(),
            kind: l.spec.kind().name(),
            goal: l.task.goal.name(),
            counted: h.counted.clone(),
        },
    ))
}

/// What `--record` did with a run's record.
pub(crate) enum Recorded {
    Written,
    /// The run stopped before its end, and the file already held this finished record of
    /// the same part: kept, since an unfinished record over it would send a part already
    /// counted back to the list of parts to run.
    Kept(Box<PartRecord>),
    /// The run stopped before its end and its record replaced this finished one, which was
    /// of another job or part, or which `solve merge` would refuse beside it.
    Replaced(Box<PartRecord>),
}

/// A record file larger than this is no single part's record (a record is a line of a few
/// hundred bytes, a part's subtree list a fingerprint): it is not read to be kept.
const MAX_KEPT_FILE: u64 = 1 << 20;

/// Write the record whole or not at all ([`write_whole`]), unless it is unfinished and the
/// file holds a finished record of the same part ([`Recorded::Kept`]).
pub(crate) fn write_record(path: &str, r: &PartRecord) -> Result<Recorded, String> {
    let what = format!("--record {path}");
    let (dir, _) = split_path(&what, path)?;
    make_folders(&what, &dir)?;
    // Runs of the same part that end at once take turns: a stopped one reads the file only
    // after a finished one has renamed its record in, or before it starts to.
    let _turn = FolderLock::take(&dir);
    let mut replaced = None;
    if !r.finished {
        match finished_record_at(path, r) {
            Held::Keep(old) => return Ok(Recorded::Kept(Box::new(old))),
            Held::Other(old) => replaced = Some(Box::new(old)),
            Held::Nothing => {}
        }
    }
    let mut line = r.to_line();
    line.push('\n');
    write_whole(&what, path, line.as_bytes())?;
    Ok(match replaced {
        Some(old) => Recorded::Replaced(old),
        None => Recorded::Written,
    })
}

/// What a record file held, against a stopped run's record.
enum Held {
    /// A finished record to keep.
    Keep(PartRecord),
    /// A finished record, but not one to keep.
    Other(PartRecord),
    Nothing,
}

/// What the regular file at `path` holds against `r`, a stopped run's record: a finished
/// record of the same part (the same puzzle, goal, strategy, part and subpart) that `solve
/// merge` takes together with the file's other records and `r` (the same subtree list,
/// options and build of record; nothing damaged, nothing twice) is kept. A file that cannot
/// be read as records holds nothing.
fn finished_record_at(path: &str, r: &PartRecord) -> Held {
    let Ok(m) = std::fs::symlink_metadata(path) else {
        return Held::Nothing;
    };
    if !m.file_type().is_file() || m.len() > MAX_KEPT_FILE {
        return Held::Nothing;
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Held::Nothing;
    };
    // Line by line, so that a finished record beside a damaged line is still seen (and
    // replaced, since merge refuses the file).
    let mut records = Vec::new();
    let mut whole = true;
    for (k, line) in text.lines().enumerate() {
        match parse_lines(path, line) {
            Ok(mut r) => records.extend(r.drain(..).map(|(mut at, r)| {
                at.line = k + 1;
                (at, r)
            })),
            Err(_) => whole = false,
        }
    }
    let Some(k) = records.iter().position(|(_, old)| old.finished) else {
        return Held::Nothing;
    };
    let same = records
        .iter()
        .position(|(_, old)| old.finished && same_part(old, r));
    let mut all = records.clone();
    all.push((
        Source {
            file: format!("{path} (this run)"),
            line: 1,
        },
        r.clone(),
    ));
    match same {
        Some(j) if whole && takes_together(all) => Held::Keep(records[j].1.clone()),
        Some(j) => Held::Other(records[j].1.clone()),
        None => Held::Other(records[k].1.clone()),
    }
}

/// Whether two records are of the same part of the same job.
fn same_part(a: &PartRecord, b: &PartRecord) -> bool {
    let sub = |r: &PartRecord| r.subpart.as_ref().map(|s| (s.index, s.fingerprint.clone()));
    a.puzzle == b.puzzle
        && a.goal == b.goal
        && a.counted == b.counted
        && a.strategy == b.strategy
        && a.part == b.part
        && sub(a) == sub(b)
}

/// How long a record's write waits for the folder's lock. A writer holds it for the
/// milliseconds of a read and a rename; a lock held longer is another program's, and the
/// write goes on without it rather than hang at the end of a part.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// An exclusive lock on a folder, held until dropped. Where the system takes no lock on a
/// folder (some network file systems), or another program holds it past [`LOCK_WAIT`], the
/// write goes on without one.
struct FolderLock(Option<std::fs::File>);

impl FolderLock {
    fn take(dir: &Path) -> FolderLock {
        use std::os::fd::AsRawFd;
        let Ok(f) = std::fs::File::open(dir) else {
            return FolderLock(None);
        };
        let start = std::time::Instant::now();
        loop {
            // SAFETY: flock takes a file descriptor that `f` keeps open, and nothing else.
            if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                return FolderLock(Some(f));
            }
            let busy = std::io::Error::last_os_error().raw_os_error() == Some(libc::EWOULDBLOCK);
            if !busy || start.elapsed() > LOCK_WAIT {
                return FolderLock(None);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        if let Some(f) = &self.0 {
            // SAFETY: as in `take`; closing the file would release the lock too.
            unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_UN) };
        }
    }
}

/// A temporary file older than this, beside its target, was left by a writer killed before
/// it renamed it (SIGKILL, a machine gone down): a write takes milliseconds, so no live
/// writer's file is this old.
const STALE_TEMPORARY: Duration = Duration::from_secs(60);

/// Refuse a target that exists and is not a regular file. A rename replaces a symbolic
/// link, a device or a fifo by the new file (a record "written" to /dev/null would replace
/// the device for every program), so only a regular file, or nothing yet, is accepted.
/// `what` names the target in the error (`--record PATH`).
pub(crate) fn check_target(what: &str, path: &str) -> Result<(), String> {
    let kind = match std::fs::symlink_metadata(path) {
        Ok(m) => m.file_type(),
        // A file where a folder of the path should be: making the folders says which.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(());
        }
        Err(e) => return Err(format!("{what}: {e}")),
    };
    if kind.is_file() {
        return Ok(());
    }
    use std::os::unix::fs::FileTypeExt;
    let is = if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a fifo"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    };
    Err(format!(
        "{what}: {is}: accepted: a regular file, or a path where none exists yet (it is \
         replaced whole, not written through)"
    ))
}

/// Make folder `dir` and those above it, saying which is not a folder where a file is in the
/// way (the system says only that something exists).
fn make_folders(what: &str, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotADirectory => {
            let file = dir
                .ancestors()
                .find(|a| a.exists() && !a.is_dir())
                .unwrap_or(dir);
            format!("{what}: {} is a file, not a folder", file.display())
        }
        _ => format!("{what}: {e}"),
    })
}

/// `--record PATH` checked before the search, so that a part is not run for hours to a
/// record it cannot write; checked again when it is written ([`write_whole`]).
pub(crate) fn check_record(path: &str) -> Result<(), String> {
    let what = format!("--record {path}");
    check_target(&what, path)?;
    // The folder must take a new file: made (with the folders above it) and removed again.
    let (dir, name) = split_path(&what, path)?;
    make_folders(&what, &dir)?;
    // As long a name as the write's temporary file (its nanoseconds have 19 digits until
    // the year 2286), so that a name too long for the file system is refused now.
    let probe = dir.join(format!(".{name}.{}.{:020}.tmp", std::process::id(), 0));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&probe)
        .map_err(|e| format!("{what}: cannot write in {}: {e}", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The folder `path` is in, and its file name.
fn split_path(what: &str, path: &str) -> Result<(PathBuf, String), String> {
    let target = Path::new(path);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{what}: accepted: a path that names a file"))?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name))
}

/// Whether `entry` is a temporary file of `name`'s writes: `.{name}.{pid}.{nanos}.tmp`.
fn is_temporary_of(entry: &str, name: &str) -> bool {
    let Some(rest) = entry
        .strip_prefix('.')
        .and_then(|e| e.strip_prefix(name))
        .and_then(|e| e.strip_prefix('.'))
        .and_then(|e| e.strip_suffix(".tmp"))
    else {
        return false;
    };
    let numbers: Vec<&str> = rest.split('.').collect();
    numbers.len() == 2
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Remove the temporary files of `name` in `dir` that writers killed midway left behind.
fn remove_stale(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for e in entries.flatten() {
        let entry = e.file_name().to_string_lossy().into_owned();
        if !is_temporary_of(&entry, name) {
            continue;
        }
        let Ok(m) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        let old = m
            .modified()
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > STALE_TEMPORARY);
        if m.file_type().is_file() && old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Write `bytes` to `path` whole or not at all: to a new temporary file in the target's
/// folder, created exclusively and without following a link (a link planted at its name
/// cannot redirect the write), synced, then renamed over the target and the folder synced,
/// so that a writer killed midway leaves no file cut off. Folders are created. `what` names
/// the target in errors.
pub(crate) fn write_whole(what: &str, path: &str, bytes: &[u8]) -> Result<(), String> {
    let (dir, name) = split_path(what, path)?;
    make_folders(what, &dir)?;
    check_target(what, path)?;
    remove_stale(&dir, &name);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&tmp)
        .map_err(|e| format!("{what}: {}: {e}", tmp.display()))?;
    let written = file
        .write_all(bytes)
        .and_then(|_| file.sync_all())
        .and_then(|_| std::fs::rename(&tmp, path));
    drop(file);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{what}: {e}"));
    }
    // The rename lasts through a crash only once the folder is synced; a file system that
    // cannot sync a folder (EINVAL) has the file renamed all the same.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
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

/// A relative path that starts with `-` as `./-...`, so that no command reads it as an option.
fn not_an_option(path: &str) -> String {
    if path.starts_with('-') {
        format!("./{path}")
    } else {
        path.to_string()
    }
}

/// The command that runs one part: the program's words, the puzzle, the run's own options,
/// the part and where its record goes.
pub(crate) fn part_command(
    program: &[String],
    file: &str,
    args: &[String],
    x: &Missing,
    dir: &str,
) -> String {
    let mut words = program.to_vec();
    words.push(not_an_option(file));
    words.extend(args.iter().cloned());
    words.extend([
        "--part".into(),
        render::part_arg(x),
        "--record".into(),
        not_an_option(&record_path(dir, x)),
    ]);
    command_line(&words)
}

/// Words as one shell command, each quoted where it needs it.
pub(crate) fn command_line(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
    quoted.join(" ")
}

/// The words that run this command line, as the commands it prints name it: `program` as the
/// entry point gave it (`solve`; `python3 -m boardsolve`), none: `solve`. The first, the
/// program itself, as it was called when found on the PATH, else by the path it was called
/// by, made absolute against the current folder so that the commands run from any folder.
/// Links on the way are kept: a link that names the current build (a `solve` in a shared
/// bin/ pointing at the newest release) keeps doing so when the parts run. Every word must
/// be UTF-8 and hold no control character ([`check_command_word`]).
pub(crate) fn program_words(program: &[OsString]) -> Result<Vec<String>, String> {
    program_words_in(program, std::env::current_dir().ok().as_deref())
}

/// [`program_words`] with `cwd` the current folder.
fn program_words_in(program: &[OsString], cwd: Option<&Path>) -> Result<Vec<String>, String> {
    if program.is_empty() {
        return Ok(vec!["solve".into()]);
    }
    let mut words = Vec::with_capacity(program.len());
    for (k, word) in program.iter().enumerate() {
        let what = match k {
            0 => "the program's path".to_string(),
            _ => format!("the program's word {}", k + 1),
        };
        let Some(text) = word.to_str() else {
            return Err(format!(
                "{what} \"{}\" is not UTF-8 (the bytes that are not UTF-8 shown as U+FFFD); \
                 accepted: words in UTF-8, as they go into the commands printed",
                word.to_string_lossy()
            ));
        };
        let text = match k {
            0 => program_path(text, cwd),
            _ => text.to_string(),
        };
        check_command_word(&what, &text)?;
        words.push(text);
    }
    Ok(words)
}

/// The program's path `called` as [`program_words`] writes it, `cwd` the current folder.
fn program_path(called: &str, cwd: Option<&Path>) -> String {
    if !called.contains('/') {
        return called.to_string();
    }
    let path = Path::new(called);
    let absolute = match cwd {
        Some(cwd) if path.is_relative() => cwd.join(path),
        _ => path.to_path_buf(),
    };
    // Rebuilt from its components: `./` and doubled slashes go, `..` stays (through a link
    // it is not the lexical parent).
    let clean: PathBuf = absolute.components().collect();
    clean.to_string_lossy().into_owned()
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn program_path_is_made_absolute_without_resolving_links() {
        let cwd = Path::new("/home/a/job");
        assert_eq!(program_path("solve", Some(cwd)), "solve");
        assert_eq!(
            program_path("./bin/solve", Some(cwd)),
            "/home/a/job/bin/solve"
        );
        assert_eq!(
            program_path("../bin//solve", Some(cwd)),
            "/home/a/job/../bin/solve"
        );
        assert_eq!(program_path("/opt/solve", Some(cwd)), "/opt/solve");
    }

    #[test]
    fn program_words_are_checked_and_the_first_made_absolute() {
        use std::os::unix::ffi::OsStringExt;
        let cwd = Path::new("/home/a/job");
        let words = |w: &[&str]| -> Vec<OsString> { w.iter().map(OsString::from).collect() };
        assert_eq!(program_words_in(&[], Some(cwd)).unwrap(), ["solve"]);
        assert_eq!(
            program_words_in(
                &words(&["./venv/bin/python3", "-m", "boardsolve"]),
                Some(cwd)
            )
            .unwrap(),
            ["/home/a/job/venv/bin/python3", "-m", "boardsolve"]
        );
        // Only the first word is a path: the others go as they are.
        assert_eq!(
            program_words_in(&words(&["python3", "-m", "./x"]), Some(cwd)).unwrap(),
            ["python3", "-m", "./x"]
        );
        let e =
            program_words_in(&words(&["python3", "-m", "board\nsolve"]), Some(cwd)).unwrap_err();
        assert!(e.starts_with("the program's word 3 "), "{e}");
        assert!(e.contains("control character"), "{e}");
        let e = program_words_in(&[OsString::from_vec(b"/opt/py\xff".to_vec())], Some(cwd))
            .unwrap_err();
        assert!(
            e.starts_with("the program's path \"/opt/py\u{FFFD}\" is not UTF-8"),
            "{e}"
        );
    }

    /// What a command line runs: its words, as a program at `fake` receives them.
    pub(crate) fn words_run(fake: &Path, line: &str, shell: &str) -> Vec<String> {
        let got = fake.with_file_name("args.txt");
        let _ = std::fs::remove_file(&got);
        let status = std::process::Command::new(shell)
            .arg("-c")
            .arg(line)
            .env("ARGS_OUT", &got)
            .env_remove("SLURM_CPUS_PER_TASK")
            .env("SLURM_ARRAY_TASK_ID", "1")
            .status()
            .unwrap();
        assert!(status.success(), "{line}");
        let text = std::fs::read_to_string(&got).unwrap();
        text.split('\0')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// A program at a path that needs quoting, which writes the words it was given to the
    /// file `$ARGS_OUT` (NUL after each).
    pub(crate) fn fake_program(name: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!(
            "boardsolve-program {name} it's-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("py thon");
        std::fs::write(&fake, "#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$ARGS_OUT\"\n").unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        fake
    }

    #[test]
    fn a_part_command_runs_the_program_words_given() {
        let fake = fake_program("part");
        let program = vec![
            fake.to_str().unwrap().to_string(),
            "-m".to_string(),
            "board solve".to_string(),
        ];
        let x = Missing {
            part: (2, 3),
            subpart: None,
        };
        let args = ["--goal".to_string(), "count".to_string()];
        let line = part_command(&program, "-a b.toml", &args, &x, "my results");
        assert_eq!(
            words_run(&fake, &line, "sh"),
            [
                "-m",
                "board solve",
                "./-a b.toml",
                "--goal",
                "count",
                "--part",
                "2/3",
                "--record",
                "my results/part-2.jsonl"
            ]
        );
        let _ = std::fs::remove_dir_all(fake.parent().unwrap());
    }

    #[test]
    fn record_targets_are_regular_files_or_nothing_yet() {
        let e = check_target("--record /dev/null", "/dev/null").unwrap_err();
        assert!(
            e.starts_with("--record /dev/null: a device: accepted"),
            "{e}"
        );
        let e = check_target("--record /", "/").unwrap_err();
        assert!(e.starts_with("--record /: a folder"), "{e}");
        assert!(check_target("--record", "/boardsolve-nothing-here/part-1.jsonl").is_ok());
        assert!(check_target("--record", file!()).is_ok());
        // A file where a folder of the path should be is named.
        let under = format!("{}/part-1.jsonl", file!());
        let e = check_record(&under).unwrap_err();
        assert!(
            e.ends_with(&format!("{} is a file, not a folder", file!())),
            "{e}"
        );
    }

    #[test]
    fn temporary_names_match_only_their_targets() {
        assert!(is_temporary_of(
            ".part-1.jsonl.42.1700000000.tmp",
            "part-1.jsonl"
        ));
        assert!(!is_temporary_of(".part-1.jsonl.42.tmp", "part-1.jsonl"));
        assert!(!is_temporary_of(".part-11.jsonl.42.17.tmp", "part-1.jsonl"));
        assert!(!is_temporary_of(".part-1.jsonl.4x.17.tmp", "part-1.jsonl"));
        assert!(!is_temporary_of("part-1.jsonl", "part-1.jsonl"));
    }

    #[test]
    fn control_characters_are_refused_in_command_words() {
        for bad in ["a\nb", "a\rb", "a\tb", "a\0b", "a\u{7f}b"] {
            let e = check_command_word("--results", bad).unwrap_err();
            assert!(e.starts_with("--results "), "{e}");
            assert!(e.contains("control character"), "{e}");
        }
        assert!(check_command_word("--results", "my results/ü 1").is_ok());
    }
}
