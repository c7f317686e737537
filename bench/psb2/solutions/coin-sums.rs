// PSB2 coin-sums: the fewest pennies, nickels, dimes and quarters that make an amount.
// stdin: one integer (cents). stdout: four lines, the count of each coin from pennies to quarters.
fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let mut cents: u64 = line.trim().parse().unwrap();
    let mut counts = [0u64; 4];
    for (i, value) in [25u64, 10, 5, 1].into_iter().enumerate() {
        counts[3 - i] = cents / value;
        cents %= value;
    }
    for count in counts {
        println!("{count}");
    }
}
