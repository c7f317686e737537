// expect: passed
// why: control: a plain, correct program with no tricks compiles and passes
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let x: i64 = input.trim().parse().unwrap();
    println!("{}", 2 * x);
}
