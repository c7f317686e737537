// expect: compile_error
// why: reaches /etc/passwd through the /proc/self/root magic link and the process's environment through /proc/self/environ; /proc is not readable
// must-not-output: root:x:0:0
// must-not-output: HOME=
const PASSWD: &str = include_str!("/proc/self/root/etc/passwd");
const ENVIRON: &[u8] = include_bytes!("/proc/self/environ");

fn main() {
    println!("{PASSWD}{}", ENVIRON.len());
}
