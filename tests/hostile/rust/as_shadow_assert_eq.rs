// expect: wrong_answer
// why: its own assert_eq! and assert! that check nothing, in scope for the test's module; wasmeval calls ::std::assert_eq! by path
#[allow(unused_macros)]
macro_rules! assert_eq {
    ($($t:tt)*) => {};
}
#[allow(unused_macros)]
macro_rules! assert {
    ($($t:tt)*) => {};
}
fn add(_a: i64, _b: i64) -> i64 {
    0
}
