// expect: compile_error
// why: a macro that doubles its tokens at every step (2^128 tokens before the recursion limit); the compiler runs out of its address space and aborts
macro_rules! double {
    ($($t:tt)*) => { double! { $($t)* $($t)* } };
}

double! { x }

fn main() {}
