// expect: timeout
// why: a const fn that loops 2^64 times with the long-running-const-eval lint silenced (compile-time CPU bomb); the compiler's CPU limit stops it
#![allow(long_running_const_eval)]

const fn spin() -> u64 {
    let mut i: u64 = 0;
    let mut acc: u64 = 1;
    while i < u64::MAX {
        acc = acc.wrapping_mul(6364136223846793005).wrapping_add(i);
        i += 1;
    }
    acc
}

const X: u64 = spin();

fn main() {
    println!("{X}");
}
