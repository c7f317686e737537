// expect: output_limit
// why: writes without end to stdout, ignoring write errors; the output budget must stop it
use std::io::Write;

fn main() {
    let line = [b'A'; 4096];
    let mut out = std::io::stdout().lock();
    loop {
        let _ = out.write_all(&line);
    }
}
