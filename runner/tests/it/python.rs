//! The Python guest as a program sees it: the interpreter's preloaded modules, in its standard
//! and scientific images (`languages/python/preloaded.rs`), and how a whole program ends (core's
//! `RUN_IN_TMP`).

use crate::support::{fixture, results, run};

#[test]
fn preloaded_modules_bind_no_names_and_programs_end_as_under_python() {
    let (tasks, samples) = fixture("python-preloaded");
    let out = tempfile::tempdir().unwrap();
    run(&tasks, &samples, out.path(), &["--jobs", "2"]);
    let results = results(out.path());
    let field = |i: usize, key: &str| results[i][key].as_str().unwrap_or_default().to_owned();

    // `typing` and `string` are imported in the snapshot, but a program that uses them without
    // an import fails as it would under any Python, in an assertion case and in a whole program.
    assert_eq!(field(0, "verdict"), "runtime_error");
    assert!(
        field(0, "message").contains("NameError: name 'typing'"),
        "{}",
        results[0]
    );
    assert_eq!(field(2, "verdict"), "runtime_error");
    assert!(
        field(2, "stderr").contains("NameError: name 'string'"),
        "{}",
        results[2]
    );

    // Imported, they work (from the snapshot's `sys.modules`).
    assert_eq!(field(1, "verdict"), "passed", "{}", results[1]);

    // A program that ends normally skips finalisation, but its exit functions run and its
    // unflushed output arrives.
    assert_eq!(field(3, "verdict"), "passed", "{}", results[3]);
    assert_eq!(field(3, "stdout"), "a\nb\nc");

    // `sys.exit(3)` still ends it with 3.
    assert_eq!(field(4, "verdict"), "runtime_error");
    assert!(
        field(4, "message").contains("exited with code 3"),
        "{}",
        results[4]
    );

    // A sample that imports pandas starts from the scientific image, where numpy is imported
    // too, but not bound to a name.
    assert_eq!(field(5, "verdict"), "runtime_error");
    assert!(
        field(5, "message").contains("NameError: name 'numpy'"),
        "{}",
        results[5]
    );

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
    let (tasks, samples) = fixture("python-preloaded");
    let out = tempfile::tempdir().unwrap();
    // The scientific image starts with about 125 MiB: here it cannot start, and the run goes on.
    run(
        &tasks,
        &samples,
        out.path(),
        &["--jobs", "2", "--memory", "100MiB"],
    );
    let results = results(out.path());
    let pandas = &results[5];
    assert!(
        pandas["message"]
            .as_str()
            .unwrap_or_default()
            .contains("NameError: name 'numpy'"),
        "{pandas}"
    );
    // `import pandas` was paid for: 4.4 G fuel.
    let fuel = pandas["fuel"].as_u64().unwrap();
    assert!(fuel > 1_000_000_000, "{fuel} fuel: {pandas}");
}
