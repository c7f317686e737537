// expect: compile_error
// why: links a native host library (libssl) into the module; the wasm linker finds none, and its message, which names the toolchain's paths, must not reveal the host's home folder (the sysroot shows as <sysroot>)
// must-not-output: /root
#[link(name = "ssl")]
extern "C" {
    fn SSL_library_init() -> i32;
}

fn main() {
    println!("{}", unsafe { SSL_library_init() });
}
