//! The documents a reader follows hold together: every relative link in the
//! README, the changelog and `docs/` reaches a file (and a heading, when it
//! names one), and they speak of the project, not of how its development
//! was organised. Each checker is shown failing on a subject that breaks it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the tests crate sits in the workspace").to_path_buf()
}

/// The README, the changelog and every Markdown file in `docs/`.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The targets of a Markdown file's inline links `[text](target)`, outside
/// code spans and blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Drop code spans: what is between pairs of backticks.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            targets.push(after[..end].trim().to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// The anchors GitHub gives a Markdown file's headings (lower case, spaces
/// to hyphens, punctuation but hyphens and underscores dropped, repeats
/// numbered), and its explicit `<a id="...">` anchors.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        }
        if in_block {
            continue;
        }
        if let Some(heading) = line.strip_prefix('#') {
            let title = heading.trim_start_matches('#').trim();
            let slug: String = title
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            let mut unique = slug.clone();
            let mut n = 1;
            while found.contains(&unique) {
                unique = format!("{slug}-{n}");
                n += 1;
            }
            found.insert(unique);
        }
        for (at, _) in line.match_indices("<a id=\"") {
            let id = &line[at + 7..];
            found.insert(id[..id.find('"').unwrap_or(id.len())].to_string());
        }
    }
    found
}

/// The relative links of `files` that reach nothing: (file, target).
fn broken_links(files: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let mut broken = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            let reaches = linked.exists()
                && anchor.is_none_or(|anchor| {
                    linked.is_file() && anchors(&std::fs::read_to_string(&linked).unwrap()).contains(anchor)
                });
            if !reaches {
                broken.push((file.clone(), target));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_reaches_its_file_and_heading() {
    let files = documents(&root());
    assert!(files.len() >= 7, "{files:?}");
    assert_eq!(broken_links(&files), vec![]);
}

#[test]
fn a_broken_link_is_found() {
    let dir = std::env::temp_dir().join(format!("knights-docs-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    let page = dir.join("docs/page.md");
    std::fs::write(&page, "# A page\n\n## Where it stands (2026-11-28)\n\n<a id=\"old-name\"></a>\n").unwrap();
    let readme = dir.join("README.md");
    std::fs::write(
        &readme,
        "[page](docs/page.md), [a heading](docs/page.md#where-it-stands-2026-11-28), [kept](docs/page.md#old-name), \
         [web](https://example.org/x), `[code](nowhere.md)`\n\n[gone](docs/gone.md) and [no heading](docs/page.md#where)\n",
    )
    .unwrap();
    let broken = broken_links(std::slice::from_ref(&readme));
    assert_eq!(broken, vec![(readme.clone(), "docs/gone.md".into()), (readme, "docs/page.md#where".into())]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Words that name how the development was organised (work sessions,
/// ticket numbers), not the project: (line number, line).
fn development_words(text: &str) -> Vec<(usize, String)> {
    const ORDINALS: [&str; 12] = [
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
        "twentieth",
        "twenty-first",
        "twenty-second",
    ];
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let words: Vec<&str> = lower.split(|c: char| !(c.is_alphanumeric() || c == '-')).collect();
        let session = words.iter().any(|w| *w == "session" || *w == "sessions");
        let ticket = words.windows(2).any(|pair| {
            (pair[0] == "issue" || pair[0] == "ticket") && pair[1].chars().next().is_some_and(|c| c.is_ascii_digit())
        });
        let ordinal = words.iter().any(|w| ORDINALS.contains(w));
        if session || ticket || ordinal {
            found.push((number + 1, line.to_string()));
        }
    }
    found
}

#[test]
fn the_documents_speak_of_the_project_not_of_its_development() {
    for file in documents(&root()) {
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(development_words(&text), vec![], "{}", file.display());
    }
}

#[test]
fn words_of_the_development_are_found() {
    let text = "Built on 2026-11-27 (d9ce672).\nMeasured in the twentieth session.\nSee issue 27.\nA session of the \
                UART.\nThe first tour.";
    let lines: Vec<usize> = development_words(text).into_iter().map(|(line, _)| line).collect();
    assert_eq!(lines, [2, 3, 4]);
}
