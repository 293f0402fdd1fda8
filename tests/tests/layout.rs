//! The code's layout holds: the host's top-level modules (and each folder's
//! modules) import one another without a circle, no Rust file passes 800
//! lines, and no rust-hdl kernel (`fn update`) passes about 250 (260, with
//! one exception, held to its length). Each rule's checker is shown failing
//! on a subject that breaks it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the tests crate sits in the workspace").to_path_buf()
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A file's code without its test module (tests may reach anywhere) and
/// its comments (a comment naming a module does not import it).
fn code_of(text: &str) -> String {
    let code = text.find("#[cfg(test)]\nmod ").map_or(text, |at| &text[..at]);
    code.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The modules that `code`, the code of module `module` (its path from the
/// crate's root), names by `crate::` and `super::` paths, at `depth`
/// segments (`crate::tours::query::run` at depth 1 is `tours`, at depth 2
/// `tours::query`).
fn imported_modules(code: &str, module: &[String], depth: usize) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let parent = &module[..module.len().saturating_sub(1)];
    for (prefix, base) in [("crate::", &[][..]), ("super::", parent)] {
        for (at, _) in code.match_indices(prefix) {
            // (`crate::` inside a longer name, as in `knights_crate::`, is not a path.)
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let named = code[at + prefix.len()..]
                .split("::")
                .map(|s| s.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(""))
                .take_while(|s| s.chars().next().is_some_and(|c| c.is_lowercase()));
            let segments: Vec<String> = base.iter().cloned().chain(named.map(String::from)).take(depth).collect();
            if segments.len() == depth {
                found.insert(segments.join("::"));
            }
        }
    }
    found
}

/// The module a file of `src` is, as its path's segments (`tours/query.rs`
/// is `tours::query`, `tours/mod.rs` is `tours`; the crate root is none).
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let relative = file.strip_prefix(src).ok()?.with_extension("");
    let mut segments: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    if segments.is_empty() || segments[0] == "lib" || segments[0] == "main" {
        return None;
    }
    Some(segments)
}

/// Which module imports which, among the modules `depth` segments deep
/// whose path starts with `within` (empty: all).
fn module_graph(src: &Path, depth: usize, within: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(src) {
        let Some(path) = module_of(src, &file) else { continue };
        if path.len() < depth {
            continue;
        }
        let module = path[..depth].join("::");
        if !module.starts_with(within) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let imports = graph.entry(module.clone()).or_default();
        for target in imported_modules(&code_of(&text), &path, depth) {
            if target != module && target.starts_with(within) {
                imports.insert(target);
            }
        }
    }
    graph
}

/// A circle in `graph`, if it has one: the modules on it, the first again
/// at the end.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_hosts_modules_import_one_another_without_a_circle() {
    let src = root().join("host/src");
    let top = module_graph(&src, 1, "");
    for module in ["device", "link", "jobs", "tours", "queens", "fpga", "plan", "measure", "check_build"] {
        assert!(top.contains_key(module), "no top-level module {module}: {:?}", top.keys());
    }
    assert_eq!(find_circle(&top), None, "{top:#?}");
    // The shared layers import neither problem's slice.
    for shared in ["device", "link", "jobs", "render", "fpga"] {
        let imports = &top[shared];
        assert!(!imports.contains("tours") && !imports.contains("queens"), "{shared} imports {imports:?}");
    }
    // Within each folder, its files.
    for (folder, depth) in [
        ("device", 2),
        ("link", 2),
        ("tours", 2),
        ("queens", 2),
        ("fpga", 2),
        ("fpga::bitstream", 3),
        ("check_build", 2),
        ("cli", 2),
    ] {
        let graph = module_graph(&src, depth, &format!("{folder}::"));
        assert!(!graph.is_empty(), "{folder}: no modules");
        assert_eq!(find_circle(&graph), None, "{folder}: {graph:#?}");
    }
    // The RTL's slices: the platform imports no engine kind.
    let rtl = module_graph(&root().join("rtl/src"), 1, "");
    assert_eq!(find_circle(&rtl), None, "{rtl:#?}");
    assert!(!rtl["platform"].contains("tours") && !rtl["platform"].contains("queens"), "{rtl:#?}");
    assert!(!rtl["tours"].contains("queens") && !rtl["queens"].contains("tours"), "{rtl:#?}");
}

#[test]
fn a_circle_of_imports_is_found() {
    let dir = std::env::temp_dir().join(format!("knights-layout-{}", std::process::id()));
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("a/mod.rs", "use crate::b::thing;\n");
    write("b.rs", "use crate::c::{self, other};\n#[cfg(test)]\nmod tests {\n    use crate::a::x;\n}\n");
    write("c/inner.rs", "fn f() { crate::d::g(); }\n");
    write("c/outer.rs", "use super::inner::f;\n");
    write("d.rs", "");
    let graph = module_graph(&dir, 1, "");
    assert_eq!(find_circle(&graph), None, "a test module's import is no circle: {graph:?}");
    write("d.rs", "use crate::a::Widget;\n");
    let circle = find_circle(&module_graph(&dir, 1, "")).expect("a -> b -> c -> d -> a");
    assert_eq!(circle.first(), circle.last());
    assert_eq!(circle.len(), 5, "{circle:?}");
    // Within a folder, by `super::` paths.
    assert_eq!(find_circle(&module_graph(&dir, 2, "c::")), None);
    write("c/inner.rs", "use super::outer::g;\n");
    assert!(find_circle(&module_graph(&dir, 2, "c::")).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lines of the longest `fn update` kernel in `text`, and its first line.
fn longest_update(text: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut longest: Option<(usize, usize)> = None;
    for (start, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("fn update(&mut self)") {
            continue;
        }
        let mut depth = 0i64;
        let mut opened = false;
        for (end, body) in lines.iter().enumerate().skip(start) {
            depth += body.matches('{').count() as i64 - body.matches('}').count() as i64;
            opened |= body.contains('{');
            if opened && depth == 0 {
                let length = end - start + 1;
                if longest.is_none_or(|(l, _)| length > l) {
                    longest = Some((length, start + 1));
                }
                break;
            }
        }
    }
    longest
}

/// Rust files past the length limits: (file, what).
fn too_long(files: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            found.push((file.clone(), format!("{lines} lines")));
        }
        if let Some((length, at)) = longest_update(&text).filter(|&(length, _)| length > MAX_UPDATE_LINES) {
            found.push((file.clone(), format!("an update of {length} lines at line {at}")));
        }
    }
    found
}

const MAX_FILE_LINES: usize = 800;
const MAX_UPDATE_LINES: usize = 260;

/// Kernels still past the limit, each held to its length: the compact
/// engine's state machine drives its cells, frames and move choice itself
/// (the wide engine's step block is the shape it is to take). It grew by six
/// lines with the registers read a clock ahead that keep its try short.
const LONG_KERNELS: [(&str, usize); 1] = [("rtl/src/tours/compact/mod.rs", 394)];

#[test]
fn no_file_or_kernel_is_too_long() {
    let root = root();
    let files: Vec<PathBuf> = ["host", "model", "protocol", "rtl", "sim", "tests"]
        .iter()
        .flat_map(|crate_dir| rust_files(&root.join(crate_dir)))
        .collect();
    assert!(files.len() > 100, "{} files", files.len());
    let mut found = too_long(&files);
    for (file, lines) in LONG_KERNELS {
        let at = found.iter().position(|(path, what)| path.ends_with(file) && what.starts_with("an update of"));
        let at = at.unwrap_or_else(|| panic!("{file} is no longer past the limit: take it off LONG_KERNELS"));
        let (_, what) = found.remove(at);
        assert!(what.starts_with(&format!("an update of {lines} lines")), "{file}: {what}, held to {lines}");
    }
    assert_eq!(found, vec![]);
}

#[test]
fn a_long_file_and_a_long_kernel_are_found() {
    let dir = std::env::temp_dir().join(format!("knights-lengths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = |body: usize| {
        format!("impl Logic for X {{\n    fn update(&mut self) {{\n{}    }}\n}}\n", "        a;\n".repeat(body))
    };
    let (short, long, big) = (dir.join("short.rs"), dir.join("long.rs"), dir.join("big.rs"));
    std::fs::write(&short, kernel(MAX_UPDATE_LINES - 2)).unwrap();
    std::fs::write(&long, kernel(MAX_UPDATE_LINES - 1)).unwrap();
    std::fs::write(&big, "// a line\n".repeat(MAX_FILE_LINES + 1)).unwrap();
    let found = too_long(&[short, long.clone(), big.clone()]);
    assert_eq!(
        found,
        vec![(long, format!("an update of {} lines at line 2", MAX_UPDATE_LINES + 1)), (big, "801 lines".into())]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
