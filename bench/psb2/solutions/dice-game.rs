// PSB2 dice-game: the probability that an n-sided die rolls strictly higher than an m-sided one.
// stdin: two lines, n and m. stdout: the probability, printed in full (`0.5833333333333334` where
// PSB2 wrote `0.5833333`): it matches only with epsilon comparison.
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut lines = input.lines().map(|l| l.trim().parse::<u64>().unwrap());
    let (n, m) = (lines.next().unwrap(), lines.next().unwrap());
    let wins: u64 = (1..=n).map(|peter| (peter - 1).min(m)).sum();
    println!("{}", wins as f64 / (n * m) as f64);
}
