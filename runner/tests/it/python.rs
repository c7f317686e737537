//! The Python guest as a program sees it: the interpreter's preloaded modules
//! (`languages/python/preloaded.rs`) and how a whole program ends (core's `RUN_IN_TMP`).

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
}
