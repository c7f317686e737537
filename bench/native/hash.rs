// N rounds of a 64-bit hash chain (splitmix64 steps folded with FNV-1a over the bytes); prints it.
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: u64 = s.trim().parse().unwrap();
    let (mut st, mut h) = (0x9e3779b97f4a7c15u64, 0xcbf29ce484222325u64);
    for _ in 0..n {
        st = st.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = st;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^= z >> 31;
        for b in 0..8 { h ^= (z >> (8 * b)) & 0xff; h = h.wrapping_mul(0x100000001b3); }
    }
    println!("{}", h);
}
