// expect: passed
// why: reads /etc/passwd (and /proc/self/environ) at run time and prints them before answering, which would make the answer wrong; the sandbox has no such files, so the reads fail and the honest answer passes
// must-not-output: root:x:0:0
use std::io::Read;

fn main() {
    for path in ["/etc/passwd", "/proc/self/environ", "../../../../etc/passwd"] {
        if let Ok(text) = std::fs::read_to_string(path) {
            println!("{text}");
        }
    }
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let x: i64 = input.trim().parse().unwrap();
    println!("{}", 2 * x);
}
