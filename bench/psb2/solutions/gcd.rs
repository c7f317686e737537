// PSB2 gcd. stdin: two lines, one integer each. stdout: their greatest common divisor.
use std::io::Read;

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut lines = input.lines().map(|l| l.trim().parse::<i64>().unwrap());
    let (a, b) = (lines.next().unwrap(), lines.next().unwrap());
    println!("{}", gcd(a, b));
}
