// expect: passed
// why: lists / and /root and tries to write /tmp/wasmeval-rust-escape on the host before answering; only the sandbox's own folders exist, so nothing is listed on stdout and no host file appears
// must-not-output: /bin
// host-path-absent: /tmp/wasmeval-rust-escape
use std::io::Read;

fn main() {
    for dir in ["/", "/root", "/etc", ".."] {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                eprintln!("{}", entry.path().display());
            }
        }
    }
    let _ = std::fs::write("/tmp/wasmeval-rust-escape", "escaped");
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let x: i64 = input.trim().parse().unwrap();
    println!("{}", 2 * x);
}
