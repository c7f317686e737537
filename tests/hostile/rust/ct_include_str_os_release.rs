// expect: compile_error
// must-not-output: Debian
// must-not-output: bookworm
// why: include_str! of a file in /usr/lib, beside the shared libraries rustc loads; the compiler may read those libraries' files, not their folder
fn main() {
    println!("{}", include_str!("/usr/lib/os-release"));
}
