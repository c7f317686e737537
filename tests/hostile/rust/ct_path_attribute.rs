// expect: compile_error
// why: #[path] makes rustc parse a host file as a module; its lines would appear in the syntax errors, but the file cannot be opened
// must-not-output: root:x:0:0
// must-not-output: /bin/bash
#[path = "/etc/passwd"]
mod passwd;

fn main() {}
