// expect: compile_error
// why: #![feature] needs a nightly compiler or RUSTC_BOOTSTRAP=1 in the environment; the compiler is stable and its environment is empty
#![feature(rustc_private)]
#![feature(core_intrinsics)]

fn main() {}
