// expect: passed
// why: a right solution of the calls task: HumanEval-X asserts converted to calls, the values judged on the host
fn add(a: i32, b: i32) -> i32 {
    a + b
}
