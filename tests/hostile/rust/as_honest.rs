// expect: passed
// why: the control: a right answer passes, so the other as_* programs fail for their trick alone
fn add(a: i64, b: i64) -> i64 {
    a + b
}
