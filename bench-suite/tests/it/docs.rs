//! The documentation's commands and links. Every `bench-suite` command line that the README, CONTRIBUTING.md and
//! the book (`docs/src`) show in a code block parses as the binary parses it; every transcript (a `console` block:
//! `$ command`, then lines it prints) runs and prints those lines, in order; and every relative link names a file
//! that exists (and, in the book, a heading that exists where it names one).

use crate::common::bench;
use std::path::{Path, PathBuf};

/// A command line shown in the documentation, with the lines a transcript says it prints.
struct Example {
    /// Where it is: the file and the line.
    place: String,
    /// Its arguments, after the program's name.
    args: Vec<String>,
    /// The lines it prints, for a transcript; empty otherwise.
    prints: Vec<String>,
    /// Whether it is a transcript's command, to be run.
    transcript: bool,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// The README, CONTRIBUTING.md and the book's chapters.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .expect("docs/src is there")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    chapters.sort();
    files.extend(chapters);
    files
}

/// The arguments of a `bench-suite` command line (`cargo run … -p bench-suite … -- ARGS`, `bench-suite ARGS` or
/// `target/release/bench-suite ARGS`), or `None` for any other line (another program, a pipe, a shell loop).
fn bench_suite_args(line: &str) -> Option<Vec<String>> {
    if line.contains('|') || line.contains("$(") {
        return None;
    }
    let line = line.split(" # ").next().unwrap_or(line);
    // A shell loop's variable (`--shard $k/3`) stands for its first value, 0.
    let line: String = line
        .split('$')
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part.to_string()
            } else {
                format!("0{}", part.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_'))
            }
        })
        .collect();
    let words = shlex::split(&line)?;
    let start = if words.first().is_some_and(|w| w == "cargo") {
        if words.get(1).is_none_or(|w| w != "run") || !words.windows(2).any(|w| w[0] == "-p" && w[1] == "bench-suite") {
            return None;
        }
        words.iter().position(|w| w == "--")? + 1
    } else if words.first().is_some_and(|w| w == "bench-suite" || w.ends_with("/bench-suite")) {
        1
    } else {
        return None;
    };
    Some(words[start..].to_vec())
}

/// Every command line in the code blocks of `path` (fenced or indented), continuation lines joined.
fn examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    let mut found: Vec<Example> = Vec::new();
    let mut fence: Option<String> = None;
    let mut previous_blank = true;
    let mut in_indented = false;
    let mut pending = String::new();
    let mut pending_line = 0;
    for (index, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            fence = if fence.is_some() { None } else { Some(rest.trim().to_string()) };
            previous_blank = false;
            continue;
        }
        let indented = fence.is_none() && raw.starts_with("    ") && (previous_blank || in_indented);
        in_indented = indented;
        previous_blank = raw.trim().is_empty();
        if fence.is_none() && !indented {
            continue;
        }
        let console = fence.as_deref() == Some("console");
        let line = if console { trimmed.strip_prefix("$ ") } else { Some(trimmed) };
        let Some(line) = line else {
            if let Some(last) = found.last_mut().filter(|e| e.transcript && !raw.trim().is_empty()) {
                last.prints.push(raw.trim_end().to_string());
            }
            continue;
        };
        if pending.is_empty() {
            pending_line = index + 1;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        pending.push_str(line);
        if let Some(args) = bench_suite_args(&pending) {
            found.push(Example {
                place: format!("{name}:{pending_line}"),
                args,
                prints: Vec::new(),
                transcript: console,
            });
        }
        pending.clear();
    }
    found
}

fn all_examples() -> Vec<Example> {
    documents().iter().filter(|path| path.exists()).flat_map(|path| examples(path)).collect()
}

#[test]
fn every_command_the_documentation_shows_parses() {
    let examples = all_examples();
    // The README and the book show over forty commands: finding fewer means the reader above went wrong.
    assert!(examples.len() >= 40, "only {} commands found in the documentation", examples.len());
    let refused: Vec<String> = examples
        .iter()
        .filter_map(|e| bench_suite::check(&e.args).err().map(|err| format!("{}: {:?}: {err}", e.place, e.args)))
        .collect();
    assert!(refused.is_empty(), "commands of the documentation that bench-suite refuses:\n{}", refused.join("\n"));
}

#[test]
fn every_transcript_prints_what_it_shows() {
    let transcripts: Vec<Example> = all_examples().into_iter().filter(|e| e.transcript).collect();
    assert!(transcripts.len() >= 10, "only {} transcripts found", transcripts.len());
    for example in transcripts {
        assert!(!example.prints.is_empty(), "{}: a transcript's command shows nothing it prints", example.place);
        let out = bench().args(&example.args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {:?} failed: {}",
            example.place,
            example.args,
            String::from_utf8_lossy(&out.stderr)
        );
        let mut lines = stdout.lines().map(str::trim_end);
        for expected in &example.prints {
            assert!(
                lines.any(|line| line == expected),
                "{}: {:?} did not print {expected:?} (in order); it printed:\n{stdout}",
                example.place,
                example.args
            );
        }
    }
}

#[test]
fn relative_links_outside_the_book_name_files_and_headings_that_exist() {
    let link = |text: &str| -> Vec<String> {
        let mut targets = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            targets.push(rest[..end].to_string());
        }
        targets
    };
    let mut checked = 0;
    let mut broken = Vec::new();
    for name in ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"] {
        let path = root().join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{name} is there"));
        for target in link(&text) {
            let file = target.split('#').next().unwrap_or_default();
            if file.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let anchor = target.split_once('#').map(|(_, anchor)| anchor);
            let exists = root().join(file).exists();
            if !exists || anchor.is_some_and(|anchor| !heading_ids(&root().join(file)).iter().any(|id| id == anchor)) {
                broken.push(format!("{name}: {target}"));
            }
        }
    }
    assert!(checked >= 10, "only {checked} relative links found");
    assert!(broken.is_empty(), "links to files or headings that do not exist:\n{}", broken.join("\n"));
}

/// The id mdBook gives a heading: lower case, spaces as hyphens, letters, digits, `-` and `_` kept.
fn heading_id(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The book's link check: every relative link of a chapter names a file of the book that exists and, with an
/// anchor, a heading of that file (mdBook itself checks neither).
/// The ids of a Markdown file's headings, outside code blocks.
fn heading_ids(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut fence = false;
    let mut ids = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        } else if !fence && line.starts_with('#') {
            ids.push(heading_id(line.trim_start_matches('#')));
        }
    }
    ids
}

#[test]
fn the_books_links_name_files_and_headings_that_exist() {
    let book = root().join("docs/src");
    let mut checked = 0;
    let mut broken = Vec::new();
    for chapter in documents().into_iter().filter(|path| path.starts_with(&book)) {
        let text = std::fs::read_to_string(&chapter).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let target = &rest[..rest.find(')').unwrap_or(rest.len())];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() { chapter.clone() } else { book.join(file) };
            checked += 1;
            if !file.exists() || (!anchor.is_empty() && !heading_ids(&file).iter().any(|id| id == anchor)) {
                broken.push(format!("{}: {target}", chapter.display()));
            }
        }
    }
    assert!(checked >= 50, "only {checked} links found in the book");
    assert!(broken.is_empty(), "links to files or headings that do not exist:\n{}", broken.join("\n"));
}
