// expect: compile_error
// why: a 2 GiB static built by const evaluation (compile-time memory bomb); the compiler's address-space limit makes the allocation fail
const BIG: usize = (1 << 28) - 1;
static HUGE: [u64; BIG] = [7; BIG];

fn main() {
    println!("{}", HUGE[12345]);
}
