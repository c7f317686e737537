// expect: runtime_error
// why: a panic hook that exits with 0 turns the failed assert_eq! into a clean exit; the end-of-tests line is still missing
fn add(_a: i64, _b: i64) -> i64 {
    std::panic::set_hook(Box::new(|_| std::process::exit(0)));
    0
}
