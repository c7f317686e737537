// expect: wrong_answer
// why: prints a wrong answer and exits with status 0 at once; an exit code never passes a case, only the output does
fn main() {
    println!("5");
    std::process::exit(0);
}
