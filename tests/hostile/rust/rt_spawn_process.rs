// expect: passed
// why: tries to run `id` as a host process and print its output; WASI has no processes, so the spawn fails and the honest answer passes
// must-not-output: uid=
use std::io::Read;

fn main() {
    if let Ok(out) = std::process::Command::new("id").output() {
        println!("{}", String::from_utf8_lossy(&out.stdout));
    }
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let x: i64 = input.trim().parse().unwrap();
    println!("{}", 2 * x);
}
