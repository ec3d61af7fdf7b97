//! The library's layers point one way (the crates, `boardsolve-dlx` below `boardsolve` below
//! the `solve` binary, are kept apart by the compiler; this checks the modules inside the library). A module may use only the layers below it:
//! util < dlx < board < engine < spec < kinds < render (render says what the kinds found, in
//! their words); a kind never uses another kind; and the
//! files inside a kind use each other without a cycle (its mod.rs, the kind's front door that
//! lists the strategies, aside). Test code may use anything. The check reads the `crate::` and
//! `super::` paths of every source file, so a new knot fails here before it can grow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LAYERS: [&str; 7] = ["util", "dlx", "board", "engine", "spec", "kinds", "render"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/boardsolve/src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its comments and its test modules (`#[cfg(test)]` and what
/// follows: test modules come last by convention, or live in a file of their own).
fn library_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap_or(""));
        out.push('\n');
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Every path that starts with `prefix` in `code`, as its segments; a brace group
/// (`prefix{a, b::c}`) gives one path per member.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find(prefix) {
        let at = from + found;
        from = at + prefix.len();
        let rest = &code[from..];
        // `super::super::x` is read once, from its first `super::`; `a::crate::` is no path.
        if code[..at].ends_with("::")
            || code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let mut lead: Vec<String> = Vec::new();
        let mut s = rest;
        loop {
            if prefix == "super::" && s.starts_with("super::") {
                lead.push("super".into());
                s = &s["super::".len()..];
                continue;
            }
            if let Some(group) = s.strip_prefix('{') {
                let close = group.find('}').unwrap_or(group.len());
                for member in group[..close].split(',') {
                    let segs: Vec<String> = member
                        .trim()
                        .split("::")
                        .map(|x| ident_at(x.trim()).to_string())
                        .filter(|x| !x.is_empty())
                        .collect();
                    if !segs.is_empty() {
                        out.push([lead.clone(), segs].concat());
                    }
                }
                break;
            }
            let id = ident_at(s);
            if id.is_empty() {
                if !lead.is_empty() {
                    out.push(lead.clone());
                }
                break;
            }
            lead.push(id.to_string());
            s = &s[id.len()..];
            match s.strip_prefix("::") {
                Some(next) => s = next,
                None => {
                    out.push(lead.clone());
                    break;
                }
            }
        }
    }
    out
}

fn layer_of(rel: &Path) -> Option<usize> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let first = first.strip_suffix(".rs").unwrap_or(first);
    LAYERS.iter().position(|l| *l == first)
}

#[test]
fn layers_point_down() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut wrong = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let Some(own) = layer_of(rel) else { continue };
        if rel.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = library_code(&std::fs::read_to_string(f).unwrap());
        for path in paths_after(&code, "crate::") {
            let Some(used) = LAYERS.iter().position(|l| *l == path[0]) else {
                continue;
            };
            if used > own {
                wrong.push(format!(
                    "{}: uses crate::{}",
                    rel.display(),
                    path.join("::")
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a layer uses one above it:\n{}",
        wrong.join("\n")
    );
}

/// A source file as a module path below `src/kinds` (`["tour", "divide"]`, `["domination",
/// "bnb"]` for bnb/mod.rs), with its library code.
struct Module {
    path: Vec<String>,
    code: String,
}

fn kind_modules() -> Vec<Module> {
    let root = src().join("kinds");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().with_extension("");
            let mut path: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_str().unwrap().to_string())
                .collect();
            if path.last().is_some_and(|l| l == "mod") {
                path.pop();
            }
            Module {
                path,
                code: library_code(&std::fs::read_to_string(f).unwrap()),
            }
        })
        .filter(|m| m.path.last().is_none_or(|l| l != "tests"))
        .collect()
}

/// Every path a module names below `src/kinds`, resolved from its `super::` and
/// `crate::kinds::` prefixes to a full path (`["tour", "model", "Model"]`).
fn kind_paths(m: &Module) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for p in paths_after(&m.code, "super::") {
        let ups = 1 + p.iter().take_while(|s| *s == "super").count();
        if ups > m.path.len() {
            continue;
        }
        let mut full = m.path[..m.path.len() - ups].to_vec();
        full.extend(p.into_iter().skip(ups - 1));
        out.push(full);
    }
    for p in paths_after(&m.code, "crate::") {
        if p.len() > 1 && p[0] == "kinds" {
            out.push(p[1..].to_vec());
        }
    }
    out
}

#[test]
fn a_kind_never_uses_another() {
    let modules = kind_modules();
    let kinds: BTreeSet<&String> = modules
        .iter()
        .filter(|m| m.path.len() == 1 && src().join("kinds").join(&m.path[0]).is_dir())
        .map(|m| &m.path[0])
        .collect();
    let mut wrong = Vec::new();
    for m in modules.iter().filter(|m| !m.path.is_empty()) {
        for p in kind_paths(m) {
            if let Some(other) = p.first()
                && *other != m.path[0]
                && kinds.contains(other)
            {
                wrong.push(format!(
                    "kinds/{} uses kinds::{}",
                    m.path.join("/"),
                    p.join("::")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Inside each module folder of a kind (the kind's own, and folders such as
/// domination/bnb), the files and subfolders use each other without a cycle. The folder's
/// mod.rs, its front door, is left out: it names every file it declares.
#[test]
fn no_cycle_inside_a_kind() {
    let modules = kind_modules();
    let folders: BTreeSet<Vec<String>> = modules
        .iter()
        .filter(|m| !m.path.is_empty())
        .map(|m| m.path.clone())
        .filter(|p| src().join("kinds").join(p.join("/")).is_dir())
        .collect();
    for folder in &folders {
        let depth = folder.len();
        let units: BTreeSet<String> = modules
            .iter()
            .filter(|m| m.path.len() > depth && m.path[..depth] == folder[..])
            .map(|m| m.path[depth].clone())
            .collect();
        // What the folder's mod.rs re-exports, and from which unit: `super::Model` is model.
        let front = &modules.iter().find(|m| m.path == *folder).unwrap().code;
        let mut owner: BTreeMap<String, String> = BTreeMap::new();
        for p in paths_after(&front.replace("pub use ", "pub use crate::"), "crate::") {
            if p.len() >= 2 && units.contains(&p[0]) {
                owner.insert(p[p.len() - 1].clone(), p[0].clone());
            }
        }
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in modules
            .iter()
            .filter(|m| m.path.len() > depth && m.path[..depth] == folder[..])
        {
            let from = &m.path[depth];
            for p in kind_paths(m) {
                if p.len() <= depth || p[..depth] != folder[..] {
                    continue;
                }
                let name = &p[depth];
                let to = if units.contains(name) {
                    Some(name.clone())
                } else {
                    owner.get(name).cloned()
                };
                if let Some(to) = to.filter(|t| t != from) {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
        // Depth-first search; a unit met again while on the stack closes a cycle.
        fn visit(
            n: &str,
            edges: &BTreeMap<String, BTreeSet<String>>,
            state: &mut BTreeMap<String, u8>,
            stack: &mut Vec<String>,
        ) -> Option<Vec<String>> {
            match state.get(n) {
                Some(2) => return None,
                Some(1) => {
                    let at = stack.iter().position(|s| s == n).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(n.to_string());
                    return Some(cycle);
                }
                _ => {}
            }
            state.insert(n.to_string(), 1);
            stack.push(n.to_string());
            for m in edges.get(n).into_iter().flatten() {
                if let Some(c) = visit(m, edges, state, stack) {
                    return Some(c);
                }
            }
            stack.pop();
            state.insert(n.to_string(), 2);
            None
        }
        let mut state = BTreeMap::new();
        for u in &units {
            let cycle = visit(u, &edges, &mut state, &mut Vec::new());
            assert!(
                cycle.is_none(),
                "kinds/{}: files use each other in a cycle: {}",
                folder.join("/"),
                cycle.unwrap_or_default().join(" -> ")
            );
        }
    }
}

#[test]
fn the_path_reader_sees_groups_and_nested_supers() {
    let code = "use crate::{board::Board, util::ones};\nlet x = super::super::warnsdorff::W;\nuse super::{Existence, model::Model};";
    assert_eq!(
        paths_after(code, "crate::"),
        vec![vec!["board", "Board"], vec!["util", "ones"]]
    );
    assert_eq!(
        paths_after(code, "super::"),
        vec![
            vec!["super", "warnsdorff", "W"],
            vec!["Existence"],
            vec!["model", "Model"]
        ]
    );
}

#[test]
fn only_spec_reads_toml() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let readers: Vec<String> = files
        .iter()
        .filter(|f| !f.strip_prefix(&root).unwrap().starts_with("spec"))
        .filter(|f| {
            let code = library_code(&std::fs::read_to_string(f).unwrap());
            code.contains("toml::") || code.contains("toml_edit::")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(readers.is_empty(), "TOML read outside spec: {readers:?}");
}
