//! The Python guest as a program sees it: the interpreter's preloaded modules, in its standard
//! and scientific images (`languages/python/preloaded.rs`), and how a whole program ends (core's
//! `RUN_IN_TMP`).

use crate::support::fixture_results;
use serde_json::Value;

/// Asserts that `result` is a runtime error whose `key` (`message`, `stderr`) says `needle`.
fn assert_runtime_error(result: &Value, key: &str, needle: &str) {
    assert_eq!(result["verdict"], "runtime_error", "{result}");
    let text = result[key].as_str().unwrap_or_default();
    assert!(text.contains(needle), "{key} lacks {needle:?}: {result}");
}

#[test]
fn preloaded_modules_bind_no_names_and_programs_end_as_under_python() {
    let results = fixture_results("python-preloaded", &["--jobs", "2"]);
    let field = |i: usize, key: &str| results[i][key].as_str().unwrap_or_default().to_owned();

    // `typing` and `string` are imported in the snapshot, but a program that uses them without
    // an import fails as it would under any Python, in an assertion case and in a whole program.
    assert_runtime_error(&results[0], "message", "NameError: name 'typing'");
    assert_runtime_error(&results[2], "stderr", "NameError: name 'string'");

    // Imported, they work (from the snapshot's `sys.modules`).
    assert_eq!(field(1, "verdict"), "passed", "{}", results[1]);

    // A program that ends normally skips finalisation, but its exit functions run and its
    // unflushed output arrives.
    assert_eq!(field(3, "verdict"), "passed", "{}", results[3]);
    assert_eq!(field(3, "stdout"), "a\nb\nc");

    // `sys.exit(3)` still ends it with 3.
    assert_runtime_error(&results[4], "message", "exited with code 3");

    // A sample that imports pandas starts from the scientific image, where numpy is imported
    // too, but not bound to a name.
    assert_runtime_error(&results[5], "message", "NameError: name 'numpy'");

    // scikit-learn works without paying for its import (13 G fuel, over the default budget).
    assert_eq!(field(6, "verdict"), "passed", "{}", results[6]);
    let fuel = results[6]["fuel"].as_u64().unwrap();
    assert!(fuel < 1_000_000_000, "{fuel} fuel: {}", results[6]);

    // matplotlib finds its data (a folder granted inside the zip's path) and draws into /tmp,
    // without a word on stderr.
    assert_eq!(field(7, "verdict"), "passed", "{}", results[7]);
    assert_eq!(field(7, "stderr"), "", "{}", results[7]);

    // numpy's random numbers, seeded or from the OS, are the same in every execution.
    assert_eq!(field(8, "stdout"), field(9, "stdout"));
    assert!(!field(8, "stdout").is_empty(), "{}", results[8]);
}

#[test]
fn under_a_memory_limit_below_the_scientific_image_samples_start_from_the_standard_one() {
    // The scientific image starts with about 125 MiB: here it cannot start, and the run goes on.
    let results = fixture_results("python-preloaded", &["--jobs", "2", "--memory", "100MiB"]);
    let pandas = &results[5];
    assert_runtime_error(pandas, "message", "NameError: name 'numpy'");
    // `import pandas` was paid for: 4.4 G fuel.
    let fuel = pandas["fuel"].as_u64().unwrap();
    assert!(fuel > 1_000_000_000, "{fuel} fuel: {pandas}");
}
