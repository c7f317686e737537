// Sieve of Eratosthenes up to N (read from stdin); prints the prime count and a checksum.
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: usize = s.trim().parse().unwrap();
    let mut c = vec![false; n + 1];
    let mut i = 2;
    while i * i <= n {
        if !c[i] {
            let mut j = i * i;
            while j <= n { c[j] = true; j += i; }
        }
        i += 1;
    }
    let (mut count, mut sum) = (0u64, 0u64);
    for i in 2..=n {
        if !c[i] { count += 1; sum = sum.wrapping_mul(31).wrapping_add(i as u64); }
    }
    println!("{} {}", count, sum);
}
