// expect: compile_error
// why: include_str! reads a host file at compile time and bakes it into the module; the confined compiler cannot read /etc
const HOST: &str = include_str!("/etc/hostname");

fn main() {
    print!("{HOST}");
}
