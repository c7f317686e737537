// N x N integer matrix product (wrapping u32 arithmetic, i-k-j order); prints a checksum.
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: usize = s.trim().parse().unwrap();
    let mut x: u32 = 12345;
    let mut gen = || { x = x.wrapping_mul(1103515245).wrapping_add(12345); x >> 16 };
    let a: Vec<u32> = (0..n * n).map(|_| gen()).collect();
    let b: Vec<u32> = (0..n * n).map(|_| gen()).collect();
    let mut c = vec![0u32; n * n];
    for i in 0..n {
        let ci = &mut c[i * n..(i + 1) * n];
        for k in 0..n {
            let aik = a[i * n + k];
            let bk = &b[k * n..(k + 1) * n];
            for (cij, bkj) in ci.iter_mut().zip(bk) {
                *cij = cij.wrapping_add(aik.wrapping_mul(*bkj));
            }
        }
    }
    let mut h: u64 = 0;
    for v in &c { h = h.wrapping_mul(1000003) ^ (*v as u64); }
    println!("{}", h);
}
