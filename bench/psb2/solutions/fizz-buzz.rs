// PSB2 fizz-buzz. stdin: one integer. stdout: Fizz, Buzz, FizzBuzz or the number.
fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let x: i64 = line.trim().parse().unwrap();
    let answer = match (x % 3, x % 5) {
        (0, 0) => "FizzBuzz".to_owned(),
        (0, _) => "Fizz".to_owned(),
        (_, 0) => "Buzz".to_owned(),
        _ => x.to_string(),
    };
    println!("{answer}");
}
