// expect: timeout or compile_error
// why: polymorphic recursion doubles the type at every level, (T, T), ((T, T), (T, T)), ..., with the recursion limit raised; monomorphisation never ends, the CPU limit stops it; depending on the machine the memory limit may stop it first (a compile_error): either stops it
#![recursion_limit = "100000"]

fn grow<T: Clone>(x: T, n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        grow((x.clone(), x), n - 1) + 1
    }
}

fn main() {
    println!("{}", grow(0u8, 3));
}
