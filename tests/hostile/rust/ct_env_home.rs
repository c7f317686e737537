// expect: compile_error
// why: env! bakes a compile-time environment variable into the module; the compiler's environment is empty, so HOME is undefined
// must-not-output: /root
const HOME: &str = env!("HOME");

fn main() {
    println!("{HOME}");
}
