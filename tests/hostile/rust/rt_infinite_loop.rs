// expect: timeout
// why: loops forever at run time without printing; the instruction budget (fuel) must stop it
fn main() {
    let mut x: u64 = 0;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}
