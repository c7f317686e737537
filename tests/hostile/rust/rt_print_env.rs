// expect: passed
// why: prints every environment variable to stderr and the honest answer to stdout; the module's environment holds none of the host's variables
// must-not-output: env:HOME=
// must-not-output: env:PATH=
// must-not-output: env:USER=
use std::io::Read;

fn main() {
    for (key, value) in std::env::vars_os() {
        eprintln!("env:{}={}", key.to_string_lossy(), value.to_string_lossy());
    }
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let x: i64 = input.trim().parse().unwrap();
    println!("{}", 2 * x);
}
