// expect: compile_error
// why: its own main that returns at once would replace the test's; two mains do not compile
fn main() {}
fn add(_a: i64, _b: i64) -> i64 {
    0
}
