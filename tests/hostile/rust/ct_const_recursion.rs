// expect: compile_error
// why: a const fn recursing 50 million deep with the recursion limit raised; const evaluation's frame limit (or memory limit) ends it
#![recursion_limit = "100000"]

const fn depth(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        1 + depth(n - 1)
    }
}

const X: u64 = depth(50_000_000);

fn main() {
    println!("{X}");
}
