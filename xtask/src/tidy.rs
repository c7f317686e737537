//! Tidy checks over the repository's own files, run as tests: the code map in ARCHITECTURE.md
//! names every source file, so it cannot silently fall behind the code.

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// Folders whose files the code map must name, and the prefix a file's name in the map drops
    /// (a crate's files are named from its `src/`, the others from the repository's root).
    const MAPPED: [(&str, &str); 17] = [
        ("core/src", "core/src/"),
        ("virtual-wasi", ""),
        ("browser-sandbox", ""),
        ("core/examples", ""),
        ("runner/src", "runner/src/"),
        ("web/src", "web/src/"),
        ("xtask/src", "xtask/src/"),
        ("guests/python", ""),
        ("guests/js", ""),
        ("guests/cxx", ""),
        ("guests/go", ""),
        ("scripts", ""),
        ("tests/browser/lib", ""),
        ("tests/browser/tests", ""),
        ("bench", ""),
        ("python/src", "python/src/"),
        ("python", ""),
    ];

    /// What counts as a source file: code in a language of the project, or an extensionless
    /// script.
    fn is_source(path: &Path) -> bool {
        match path.extension().and_then(|e| e.to_str()) {
            Some(ext) => ["rs", "c", "h", "hpp", "py", "js", "sh", "go"].contains(&ext),
            None => path.parent().is_some_and(|p| p.ends_with("scripts")),
        }
    }

    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            // Installed or generated, or programs a benchmark measures (PSB2's reference
            // solutions, bench/native's guests): not the project's code to map.
            let skipped = [
                "node_modules",
                "target",
                "dist",
                "out",
                "__pycache__",
                "solutions",
                // Copied into the Python package by scripts/build-python.
                "_bin",
                "_guests",
            ]
            .contains(&name.to_string_lossy().as_ref())
                || (dir.ends_with("bench/native") && path.is_file());
            if skipped {
                continue;
            }
            if path.is_dir() {
                files(&path, out);
            } else if is_source(&path) {
                out.push(path);
            }
        }
    }

    #[test]
    fn the_code_map_names_every_source_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask/ sits in the repository");
        let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
        let mut missing = Vec::new();
        for (dir, prefix) in MAPPED {
            let mut found = Vec::new();
            files(&root.join(dir), &mut found);
            assert!(
                !found.is_empty(),
                "no source files in {dir}: is MAPPED stale?"
            );
            for file in found {
                let path = file
                    .strip_prefix(root)
                    .expect("under the root")
                    .to_string_lossy()
                    .replace('\\', "/");
                // `lib.rs` and `main.rs` are named with their crate.
                let name = match path.strip_prefix(prefix) {
                    Some(name) if name != "lib.rs" && name != "main.rs" => name,
                    _ => &path,
                };
                // Named as a path, in backticks, possibly inside a longer path.
                if !map.contains(&format!("{name}`")) {
                    missing.push(name.to_owned());
                }
            }
        }
        missing.sort();
        assert!(
            missing.is_empty(),
            "ARCHITECTURE.md's code map does not name these files (write each as `path` from its \
             crate's src/, or from the repository's root outside crates):\n  {}",
            missing.join("\n  ")
        );
    }
}
