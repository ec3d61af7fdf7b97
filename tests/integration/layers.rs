//! The library's layers point one way. A module may use only the layers below it:
//! util < dlx < board < engine < spec < render < kinds; a kind never uses another kind; and the
//! files inside a kind use each other without a cycle (its mod.rs, the kind's front door that
//! lists the strategies, aside). Test code may use anything. The check reads the `crate::` and
//! `super::` paths of every source file, so a new knot fails here before it can grow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LAYERS: [&str; 7] = ["util", "dlx", "board", "engine", "spec", "render", "kinds"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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

/// The kinds' folders, each with its files' names.
fn kinds() -> BTreeMap<String, Vec<String>> {
    let dir = src().join("kinds");
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            let mut files = Vec::new();
            rust_files(&p, &mut files);
            let names = files
                .iter()
                .map(|f| f.file_stem().unwrap().to_str().unwrap().to_string())
                .collect();
            out.insert(p.file_name().unwrap().to_str().unwrap().to_string(), names);
        }
    }
    out
}

#[test]
fn a_kind_never_uses_another() {
    let all = kinds();
    let mut wrong = Vec::new();
    for (kind, files) in &all {
        for file in files {
            let path = src().join("kinds").join(kind).join(format!("{file}.rs"));
            let code = library_code(&std::fs::read_to_string(&path).unwrap());
            let mut used: Vec<String> = paths_after(&code, "crate::")
                .into_iter()
                .filter(|p| p.len() > 1 && p[0] == "kinds")
                .map(|p| p[1].clone())
                .collect();
            // From a kind's file, super::super:: is the kinds folder.
            let depth = if file == "mod" { 1 } else { 2 };
            used.extend(
                paths_after(&code, "super::")
                    .into_iter()
                    .filter(|p| p.len() > depth && p[..depth - 1].iter().all(|s| s == "super"))
                    .map(|p| p[depth - 1].clone()),
            );
            for other in used {
                if other != *kind && all.contains_key(&other) {
                    wrong.push(format!("kinds/{kind}/{file}.rs uses kinds::{other}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_cycle_inside_a_kind() {
    for (kind, files) in kinds() {
        let dir = src().join("kinds").join(&kind);
        let names: BTreeSet<String> = files.iter().cloned().collect();
        // What the kind's mod.rs re-exports, and from which file: `super::Model` is model.rs.
        let front = library_code(&std::fs::read_to_string(dir.join("mod.rs")).unwrap());
        let mut owner: BTreeMap<String, String> = BTreeMap::new();
        for p in paths_after(&front.replace("pub use ", "pub use crate::"), "crate::") {
            if p.len() >= 2 && names.contains(&p[0]) {
                owner.insert(p[p.len() - 1].clone(), p[0].clone());
            }
        }
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in files.iter().filter(|f| *f != "mod") {
            let code =
                library_code(&std::fs::read_to_string(dir.join(format!("{file}.rs"))).unwrap());
            let mut targets: Vec<String> = paths_after(&code, "super::")
                .into_iter()
                .filter(|p| p[0] != "super")
                .map(|p| p[0].clone())
                .collect();
            targets.extend(
                paths_after(&code, "crate::")
                    .into_iter()
                    .filter(|p| p.len() > 2 && p[0] == "kinds" && p[1] == kind)
                    .map(|p| p[2].clone()),
            );
            for t in targets {
                let t = if names.contains(&t) {
                    Some(t)
                } else {
                    owner.get(&t).cloned()
                };
                if let Some(t) = t.filter(|t| t != file && t != "mod") {
                    edges.entry(file.clone()).or_default().insert(t);
                }
            }
        }
        // Depth-first search; a node met again while on the stack closes a cycle.
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
        for f in &files {
            let cycle = visit(f, &edges, &mut state, &mut Vec::new());
            assert!(
                cycle.is_none(),
                "kinds/{kind}: files use each other in a cycle: {}",
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
