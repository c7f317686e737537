// expect: compile_error
// why: extern crate of the sysroot's private libc to call system() or open(); only std is available, rustc_private is unstable
extern crate libc;

fn main() {
    let _ = libc::getpid;
}
