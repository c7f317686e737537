// expect: runtime_error
// why: unbounded recursion with a live stack frame per call; overflows the guest's stack (a trap), never the host's
fn deep(n: u64, trail: &mut [u64; 64]) -> u64 {
    let mut local = [n; 64];
    local[(n % 64) as usize] ^= trail[0];
    std::hint::black_box(&mut local);
    deep(n + 1, &mut local) + local[3]
}

fn main() {
    let mut start = [0u64; 64];
    println!("{}", deep(0, &mut start));
}
