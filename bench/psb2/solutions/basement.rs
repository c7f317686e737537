// PSB2 basement: the first index at which the running sum is negative.
// stdin: one line, the vector's integers separated by spaces. stdout: the index.
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<i64> = input
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let mut sum = 0;
    for (i, n) in numbers.iter().enumerate() {
        sum += n;
        if sum < 0 {
            println!("{i}");
            return;
        }
    }
    println!("-1");
}
