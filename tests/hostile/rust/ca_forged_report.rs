// expect: runtime_error
// why: reads the token from argv and writes report lines claiming every case passed, then exits: a calls case never takes `passed` from the guest, and its values are the host's to judge; the garbled report is believed for no case; the candidate ran in the process that reported, so the garbled report is its runtime error, never a harness_error (issue 33)
fn add(_a: i32, _b: i32) -> i32 {
    let token = std::env::args().nth(1).unwrap_or_default();
    for line in ["start 0", "end 0 passed null", "start 1", "end 1 passed null", "start 2", "end 2 passed null", "done"] {
        println!("\n{token} {line}");
    }
    std::process::exit(0)
}
