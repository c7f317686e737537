//! HumanEval-X (Zheng et al., 2023; CodeGeeX): HumanEval's 164 problems in C++, JavaScript, Python,
//! Rust, Go and Java, each record `{task_id, prompt, declaration, canonical_solution, test,
//! example_test}` (Python's also carries `text`).
//!
//! The language comes from the task id's prefix (`CPP/0`, `JavaScript/0`, `Python/0`, `Rust/0`,
//! `Java/0`; Go has no wasmeval language and is an error). Every task gets **one assertion case
//! named `test`**; a candidate (a `completion` appended to the prompt, or a whole `solution`) passes
//! when `candidate + "\n" + case` runs to completion: the exit status judges compiled languages
//! and JavaScript, the harness judges Python. The programs are those of CodeGeeX's
//! `evaluate_humaneval_x.py`, adapted where its runner differs from wasmeval's:
//!
//! | language | prompt | case code |
//! |---|---|---|
//! | Python | `prompt` | `test` (it ends with `check(<entry point>)`; appended when missing), with CodeGeeX's helper imports (`math`, `re`, `collections`, ...; numpy when present) as the suite's `setup` |
//! | C++ | CodeGeeX's helper lines (`#include<algorithm>`, `#include<math.h>`, ..., `using namespace std;`) the prompt lacks, a blank line, then `prompt` | `test`: a `main` that `assert`s (`#undef NDEBUG` first) |
//! | JavaScript | `prompt` | a line making `console.assert` throw, then `test` (CodeGeeX failed any run that printed; a failed `console.assert` only prints, so without the line every candidate would exit 0) |
//! | Rust | `declaration` (without `use md5;`) followed by `prompt`, as CodeGeeX joins them | `test` rewritten into a program, below |
//! | Java | `prompt` | `test` (a `Main` class) |
//!
//! The reference is the prompt followed by `canonical_solution` (for Rust: declaration, prompt and
//! solution, which CodeGeeX compiles; `declaration` alone lacks the docstring, `prompt` alone the
//! signature). `example_test` (the docstring's examples; `None` in Rust) is not used.
//!
//! # Rust tests as a program
//!
//! HumanEval-X's Rust tests are `#[cfg(test)] mod tests { use super::*; #[test] fn test_x() {..} }`
//! for `cargo test` in a crate that depends on `rand`, `regex` and `md5`. wasmeval compiles one
//! file with rustc, std only, so the case code is the test with
//!
//! 1. `#[cfg(test)]` removed and every `#[test] fn name` turned into `pub fn name` (attributes and
//!    comments inside comments or strings are left alone: Rust/32's test is commented out and
//!    tests nothing, as under `cargo test`);
//! 2. `fn main() { tests::test_x(); }` appended, calling each test function in order; a failed
//!    `assert!` panics, so the program exits with an error;
//! 3. std-only stand-ins appended for the crates the declaration imports: `mod rand`
//!    (`thread_rng`, `Rng::{gen, gen_range(low, high)}`, `random`, rand 0.7's API, from a fixed
//!    seed), `mod md5` (`compute`, hex `Digest`), and `mod regex` (a `Regex` whose `new` fails:
//!    Rust/91's reference, which needs the real crate, panics). The declaration's `use md5;` is
//!    dropped because it would clash with the local module; its `use rand::Rng;` and
//!    `use regex::Regex;` resolve to the stand-ins.

use super::{compiled_asserts, go_asserts, javascript_asserts, python_asserts};
use crate::task::{AssertionCase, Language, Task, TaskId, TestSuite};
use serde::Deserialize;

/// A HumanEval-X record.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    task_id: String,
    prompt: String,
    declaration: String,
    canonical_solution: String,
    test: String,
    /// Go only: the test file's package clause and imports.
    #[serde(default)]
    test_setup: String,
    #[serde(default)]
    #[allow(dead_code)]
    example_test: Option<String>,
}

/// The imports CodeGeeX puts before every Python program (`IMPORT_HELPER["python"]`), numpy only
/// when the interpreter has it.
const PYTHON_HELPER: &str = "import math
import re
import sys
import copy
import datetime
import itertools
import collections
import heapq
import statistics
import functools
import hashlib
import string
from typing import *
from collections import *
try:
    import numpy
    import numpy as np
except ImportError:
    pass
";

/// CodeGeeX's `IMPORT_HELPER["cpp"]`: each line the prompt lacks goes before it.
const CPP_HELPER: [&str; 10] = [
    "using namespace std;",
    "#include<stdlib.h>",
    "#include<algorithm>",
    "#include<math.h>",
    "#include<stdio.h>",
    "#include<vector>",
    "#include<string>",
    "#include<climits>",
    "#include<cstring>",
    "#include<iostream>",
];

/// Put before JavaScript tests: a failed `console.assert` throws.
const JS_ASSERT: &str = "globalThis.console = globalThis.console || {};
console.assert = (condition, ...message) => { if (!condition) { throw new Error(['Assertion failed'].concat(message).join(' ')); } };
";

/// Std-only stand-ins for the crates HumanEval-X's Rust declarations import. `rand`'s integer
/// impls leave out `isize`: compiled programs have it as `i64` (`int_width`), which has its own.
const RUST_CRATES: &str = r#"
#[allow(dead_code)]
mod rand {
    //! wasmeval's stand-in for rand 0.7: deterministic (fixed seed), std only.
    use std::cell::Cell;
    thread_local!(static STATE: Cell<u64> = Cell::new(0x2545_F491_4F6C_DD1D));
    fn next() -> u64 {
        STATE.with(|s| {
            let mut x = s.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.set(x);
            x
        })
    }
    pub struct ThreadRng;
    pub fn thread_rng() -> ThreadRng { ThreadRng }
    pub fn random<T: Random>() -> T { T::random(next()) }
    pub trait Random { fn random(bits: u64) -> Self; }
    pub trait Uniform: Sized { fn between(low: Self, high: Self, bits: u64) -> Self; }
    macro_rules! ints { ($($t:ty),*) => {$(
        impl Random for $t { fn random(bits: u64) -> Self { bits as $t } }
        impl Uniform for $t {
            fn between(low: Self, high: Self, bits: u64) -> Self {
                assert!(low < high, "gen_range: empty range");
                let span = (high as i128 - low as i128) as u128;
                (low as i128 + (bits as u128 % span) as i128) as $t
            }
        }
    )*} }
    ints!(i8, i16, i32, i64, u8, u16, u32, u64, usize);
    impl Random for bool { fn random(bits: u64) -> Self { bits & 1 == 1 } }
    impl Random for f64 { fn random(bits: u64) -> Self { (bits >> 11) as f64 / (1u64 << 53) as f64 } }
    impl Random for f32 { fn random(bits: u64) -> Self { (bits >> 40) as f32 / (1u32 << 24) as f32 } }
    impl Random for char { fn random(bits: u64) -> Self { (b'a' + (bits % 26) as u8) as char } }
    impl Uniform for f64 { fn between(low: Self, high: Self, bits: u64) -> Self { low + (high - low) * f64::random(bits) } }
    impl Uniform for f32 { fn between(low: Self, high: Self, bits: u64) -> Self { low + (high - low) * f32::random(bits) } }
    pub trait Rng {
        fn gen<T: Random>(&mut self) -> T { T::random(next()) }
        fn gen_range<T: Uniform>(&mut self, low: T, high: T) -> T { T::between(low, high, next()) }
        fn gen_bool(&mut self, p: f64) -> bool { f64::random(next()) < p }
    }
    impl Rng for ThreadRng {}
}

#[allow(dead_code)]
mod regex {
    //! wasmeval compiles Rust with std only: the regex crate is not available.
    pub struct Regex;
    impl Regex {
        pub fn new(_pattern: &str) -> Result<Regex, String> {
            Err("the regex crate is not available (wasmeval compiles Rust with std only)".into())
        }
        pub fn is_match(&self, _text: &str) -> bool { unreachable!() }
        pub fn split<'t>(&self, _text: &'t str) -> std::vec::IntoIter<&'t str> { unreachable!() }
    }
}

#[allow(dead_code)]
mod md5 {
    //! wasmeval's stand-in for the md5 crate: `compute` and a hex-printing `Digest`, std only.
    pub struct Digest(pub [u8; 16]);
    impl std::fmt::LowerHex for Digest {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            for byte in self.0 { write!(f, "{byte:02x}")?; }
            Ok(())
        }
    }
    impl std::fmt::Debug for Digest {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{self:x}") }
    }
    pub fn compute<T: AsRef<[u8]>>(data: T) -> Digest {
        const S: [u32; 64] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
            5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
            4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
            6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21];
        let k: Vec<u32> = (0..64).map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32).collect();
        let mut message = data.as_ref().to_vec();
        let bits = (message.len() as u64).wrapping_mul(8);
        message.push(0x80);
        while message.len() % 64 != 56 { message.push(0); }
        message.extend_from_slice(&bits.to_le_bytes());
        let mut h: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
        for chunk in message.chunks(64) {
            let m: Vec<u32> = chunk.chunks(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
            let [mut a, mut b, mut c, mut d] = h;
            for i in 0..64 {
                let (f, g) = match i / 16 {
                    0 => ((b & c) | (!b & d), i),
                    1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                    2 => (b ^ c ^ d, (3 * i + 5) % 16),
                    _ => (c ^ (b | !d), (7 * i) % 16),
                };
                let rotated = a.wrapping_add(f).wrapping_add(k[i]).wrapping_add(m[g]).rotate_left(S[i]);
                a = d;
                d = c;
                c = b;
                b = b.wrapping_add(rotated);
            }
            for (x, y) in h.iter_mut().zip([a, b, c, d]) { *x = x.wrapping_add(y); }
        }
        let mut out = [0u8; 16];
        for (i, word) in h.iter().enumerate() { out[4 * i..4 * i + 4].copy_from_slice(&word.to_le_bytes()); }
        Digest(out)
    }
}
"#;

impl Problem {
    pub(crate) fn into_task(self) -> Result<Task, String> {
        let prefix = self.task_id.split('/').next().unwrap_or_default();
        let language = match prefix {
            "CPP" | "C++" | "Cpp" | "cpp" => Language::Cpp,
            "Go" | "go" => Language::Go,
            other => Language::parse(other).ok_or_else(|| {
                format!(
                    "`{}`: unknown language prefix `{other}` (expected CPP, JavaScript, Python, \
                     Rust or Java)",
                    self.task_id
                )
            })?,
        };
        let mut setup = String::new();
        let raw_test = self.test.clone();
        let (prompt, case, entry_point) = match language {
            Language::Python => {
                let entry = last_call_of_check(&self.test)
                    .or_else(|| last_name_after(&self.prompt, "def "));
                let case = match (&entry, last_call_of_check(&self.test)) {
                    (Some(entry), None) => format!("{}\ncheck({entry})\n", self.test),
                    _ => self.test.clone(),
                };
                setup = PYTHON_HELPER.to_owned();
                (self.prompt, case, entry)
            }
            Language::Cpp => {
                let helper: String = CPP_HELPER
                    .iter()
                    .filter(|line| !self.prompt.contains(*line))
                    .map(|line| format!("{line}\n"))
                    .collect();
                let prompt = if helper.is_empty() {
                    self.prompt
                } else {
                    format!("{helper}\n{}", self.prompt)
                };
                let entry = cpp_function_name(&self.declaration);
                (prompt, self.test, entry)
            }
            Language::Javascript => {
                let entry = last_name_after(&self.declaration, "const ");
                (self.prompt, format!("{JS_ASSERT}{}", self.test), entry)
            }
            Language::Rust => {
                let declaration: String = self
                    .declaration
                    .split_inclusive('\n')
                    .filter(|line| line.trim() != "use md5;")
                    .collect();
                let entry = last_name_after(&declaration, "fn ");
                (
                    format!("{declaration}{}", self.prompt),
                    rust_test_program(&self.test)
                        .map_err(|problem| format!("`{}`: {problem}", self.task_id))?,
                    entry,
                )
            }
            // Go: the test file's imports (`testing`, testify's `assert`) are the suite's setup,
            // compiled as a file of its own beside the candidate (judging/compiled.rs).
            Language::Go => {
                setup = self.test_setup.clone();
                let entry = last_name_after(&self.declaration, "func ");
                (self.prompt, self.test, entry)
            }
            // HumanEval-X has no TypeScript, Ruby or Lua; its language names never map to them.
            Language::Java
            | Language::C
            | Language::Typescript
            | Language::Ruby
            | Language::Lua => {
                let entry = None;
                (self.prompt, self.test, entry)
            }
        };
        // Python's and JavaScript's asserts of the common shapes are judged on the host; the
        // JavaScript ones the host would judge otherwise run in the guest, each a case.
        let mut guest_cases = Vec::new();
        let converted = match (language, &entry_point) {
            (Language::Python, Some(entry)) => python_asserts::humaneval_check(&case, entry).ok(),
            (Language::Javascript, Some(entry)) => {
                match javascript_asserts::humaneval_x_test(&raw_test, entry) {
                    Ok((cases, in_guest)) => {
                        guest_cases = in_guest;
                        Some((String::new(), cases))
                    }
                    Err(_) => None,
                }
            }
            _ => None,
        };
        // C++'s and Rust's too: the test stays as the driver that reports each call's value.
        let compiled = match language {
            Language::Cpp => compiled_asserts::cpp_calls(&case),
            Language::Rust => compiled_asserts::rust_calls(&case),
            // Go's testify asserts too, compared with testify's equality.
            Language::Go => entry_point
                .as_deref()
                .and_then(|entry| go_asserts::humaneval_x_calls(&setup, &case, entry)),
            _ => None,
        };
        let tests = match (converted, &entry_point) {
            _ if compiled.is_some() => vec![compiled.expect("checked just above")],
            (Some((imports, cases)), Some(entry)) => {
                let in_guest = (!guest_cases.is_empty()).then(|| TestSuite::Assertions {
                    setup: setup.clone(),
                    cases: guest_cases
                        .into_iter()
                        .map(|case| AssertionCase {
                            code: format!("{JS_ASSERT}{}", case.code),
                            ..case
                        })
                        .collect(),
                });
                let calls = (!cases.is_empty()).then(|| TestSuite::Calls {
                    // The Python helper imports (none for JavaScript) and the test's own.
                    setup: format!("{setup}{imports}"),
                    entry_point: entry.clone(),
                    tolerance: 0.0,
                    cases,
                });
                calls.into_iter().chain(in_guest).collect()
            }
            _ => vec![TestSuite::Assertions {
                setup,
                cases: vec![AssertionCase {
                    name: "test".into(),
                    code: case,
                }],
            }],
        };
        Ok(Task {
            id: TaskId(self.task_id),
            language,
            references: vec![format!("{prompt}{}", self.canonical_solution).into()],
            prompt,
            entry_point,
            metadata: super::humaneval::benchmark_metadata("HumanEval-X"),
            tests,
            ..Task::default()
        })
    }
}

/// The name in the last top-level `check(name)` line of a Python test.
fn last_call_of_check(test: &str) -> Option<String> {
    test.lines().rev().find_map(|line| {
        let name = line.strip_prefix("check(")?.trim_end().strip_suffix(')')?;
        is_identifier(name).then(|| name.to_owned())
    })
}

/// The identifier after the last `keyword` that starts a line (`def `, `fn `, `const `), allowing
/// `pub ` before it.
fn last_name_after(code: &str, keyword: &str) -> Option<String> {
    code.lines().rev().find_map(|line| {
        let line = line.trim_start();
        let line = line.strip_prefix("pub ").unwrap_or(line);
        let rest = line.strip_prefix(keyword)?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        is_identifier(&name).then_some(name)
    })
}

/// The function a C++ declaration ends with: the identifier before the `(` of the last line
/// that starts a function's header (unindented, not a statement).
fn cpp_function_name(declaration: &str) -> Option<String> {
    // A function's header starts its line; an indented line with a `(` is a statement of a body
    // (CPP/38's declaration carries part of `decode_cyclic`'s body: its last `(` is a `for`).
    declaration
        .lines()
        .rev()
        .filter(|line| !line.starts_with([' ', '\t', '#']))
        .find_map(|line| {
            let before = line[..line.find('(')?].trim_end();
            let name: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let statement = ["for", "if", "while", "switch", "return", "do"].contains(&&*name);
            (is_identifier(&name) && !statement).then_some(name)
        })
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// `code` with comments and the contents of string and character literals replaced by spaces
/// (line breaks kept), so that positions match and only real code is searched.
fn rust_code_only(code: &str) -> Vec<u8> {
    let bytes = code.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = code[i..].find('\n').map_or(bytes.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // Block comments nest in Rust.
                let (mut depth, mut j) = (0usize, i);
                while j < bytes.len() {
                    if bytes[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if bytes[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'"' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j.min(bytes.len()));
                i = j + 1;
            }
            b'r' if bytes[i + 1..].starts_with(b"\"") || bytes[i + 1..].starts_with(b"#\"") => {
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                let end = code[start..]
                    .find(&close)
                    .map_or(bytes.len(), |n| start + n);
                blank(&mut out, start, end);
                i = end + close.len();
            }
            // A character literal ('"', '\'', 'x'), not a lifetime ('a).
            b'\'' if bytes.get(i + 2) == Some(&b'\'') && bytes.get(i + 1) != Some(&b'\\') => {
                blank(&mut out, i + 1, i + 2);
                i += 3;
            }
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                let end = code[i + 2..]
                    .find('\'')
                    .map_or(bytes.len(), |n| i + 2 + n + 1);
                blank(&mut out, i + 1, end.saturating_sub(1));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// HumanEval-X's Rust test module as a program: see the module documentation. An error when the
/// test cannot be read as code: an empty program would call no test and pass every candidate.
fn rust_test_program(test: &str) -> Result<String, String> {
    let code = String::from_utf8(rust_code_only(test)).map_err(|_| {
        "its Rust test cannot be read (masking comments and strings cut a character)".to_owned()
    })?;
    // (position, length of text to replace, replacement)
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut module: Option<String> = None;
    if let Some(at) = code.find("#[cfg(test)]") {
        edits.push((at, "#[cfg(test)]".len(), String::new()));
        let after = &code[at..];
        if let Some(m) = after.find("mod ") {
            let name: String = after[m + 4..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if is_identifier(&name) {
                module = Some(name);
            }
        }
    }
    let mut functions = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("#[test]") {
        let at = from + found;
        from = at + "#[test]".len();
        let rest = &code[from..];
        let skipped = rest.len() - rest.trim_start().len();
        let Some(signature) = rest.trim_start().strip_prefix("fn ") else {
            continue;
        };
        let name: String = signature
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !is_identifier(&name) {
            continue;
        }
        edits.push((at, "#[test]".len(), String::new()));
        edits.push((from + skipped, "fn ".len(), "pub fn ".into()));
        functions.push(name);
    }
    edits.sort_by_key(|(at, _, _)| *at);
    let mut program = String::with_capacity(test.len() + RUST_CRATES.len() + 200);
    let mut copied = 0;
    for (at, length, replacement) in edits {
        program.push_str(&test[copied..at]);
        program.push_str(&replacement);
        copied = at + length;
    }
    program.push_str(&test[copied..]);
    program.push_str("\nfn main() {\n");
    for function in &functions {
        match &module {
            Some(module) => program.push_str(&format!("    {module}::{function}();\n")),
            None => program.push_str(&format!("    {function}();\n")),
        }
    }
    program.push_str("}\n");
    program.push_str(RUST_CRATES);
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::tasks::parse_tasks;

    #[test]
    fn regression_cpp_38s_entry_point_is_its_function_not_a_for_of_its_body() {
        // HumanEval-X CPP/38's declaration carries the start of `decode_cyclic`'s body.
        let declaration = "#include<string>\nusing namespace std;\nstring encode_cyclic(string s){ \n    \
                           return s;\n}\n\n\nstring decode_cyclic(string s){ \n   int l=s.length();\n    \
                           int i;\n    for (i=0;i*3<l;i++)\n    {\n";
        assert_eq!(
            cpp_function_name(declaration).as_deref(),
            Some("decode_cyclic")
        );
        assert_eq!(
            cpp_function_name("#include<vector>\nint add(int x,int y){\n").as_deref(),
            Some("add")
        );
    }

    #[test]
    fn the_crate_stand_ins_are_unchanged_by_the_64_bit_integer_rewrite() {
        // With `isize` in `rand`'s integer impls, the rewrite made it a second impl for `i64`:
        // every HumanEval-X Rust program failed to compile (E0119).
        assert_eq!(
            crate::int_width::widen_integers(Language::Rust, RUST_CRATES),
            RUST_CRATES
        );
    }

    fn fixture(language: &str) -> Vec<Task> {
        let text = match language {
            "cpp" => include_str!("../../../tests/fixtures/humaneval-x/cpp.jsonl"),
            "js" => include_str!("../../../tests/fixtures/humaneval-x/js.jsonl"),
            "python" => include_str!("../../../tests/fixtures/humaneval-x/python.jsonl"),
            "go" => include_str!("../../../tests/fixtures/humaneval-x/go.jsonl"),
            _ => include_str!("../../../tests/fixtures/humaneval-x/rust.jsonl"),
        };
        parse_tasks(&format!("{language}.jsonl"), text).unwrap()
    }

    fn case(task: &Task) -> (&str, &str) {
        let TestSuite::Assertions { setup, cases } = &task.tests[0] else {
            panic!("expected assertions")
        };
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].name, "test");
        (setup, &cases[0].code)
    }

    #[test]
    fn python_is_human_eval_like() {
        let tasks = fixture("python");
        let task = &tasks[0];
        assert_eq!(task.id.0, "Python/7");
        assert_eq!(task.language, Language::Python);
        assert_eq!(task.entry_point.as_deref(), Some("twice"));
        assert_eq!(
            task.references[0].code,
            format!("{}{}", task.prompt, "    return 2 * x\n")
        );
        // Its asserts are judged on the host, with CodeGeeX's imports as the setup.
        let TestSuite::Calls {
            setup,
            entry_point,
            cases,
            ..
        } = &task.tests[0]
        else {
            panic!("expected calls: {:?}", task.tests[0])
        };
        assert!(setup.contains("import math\n"));
        assert_eq!(entry_point, "twice");
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[1].args, [serde_json::json!(-1)]);
        assert_eq!(cases[1].expected, serde_json::json!(-2));
        // A test without the final call is read the same way.
        assert!(
            matches!(&tasks[1].tests[0], TestSuite::Calls { entry_point, .. } if entry_point == "thrice")
        );
        let source = task.metadata.source.as_ref().unwrap();
        assert_eq!(source.name.as_deref(), Some("HumanEval-X"));
    }

    #[test]
    fn cpp_prompt_gets_codegeex_helper_lines() {
        let task = &fixture("cpp")[0];
        assert_eq!(task.language, Language::Cpp);
        assert_eq!(task.entry_point.as_deref(), Some("twice"));
        // The prompt has stdio.h and `using namespace std;`: the other helper lines come first.
        assert!(task
            .prompt
            .starts_with("#include<stdlib.h>\n#include<algorithm>\n"));
        assert!(!task.prompt.starts_with("using namespace std;"));
        assert!(task.prompt.ends_with(
            "\n/*\nDouble x.\n*/\n#include<stdio.h>\nusing namespace std;\nint twice(int x){\n"
        ));
        assert!(task.references[0]
            .code
            .ends_with("int twice(int x){\n    return 2 * x;\n}\n"));
        // Its asserts are judged on the host: the test stays as the driver that reports values.
        let TestSuite::Calls { setup, cases, .. } = &task.tests[0] else {
            panic!("expected calls: {:?}", task.tests[0])
        };
        assert!(setup.starts_with("#undef NDEBUG\n"));
        assert!(
            setup.contains("WASMEVAL_CASE(1, wasmeval_calls::compared<decltype(-2)>(twice(-1)));"),
            "{setup}"
        );
        assert_eq!(cases[1].expected, serde_json::json!(-2));
    }

    #[test]
    fn javascript_asserts_are_host_judged_calls_or_else_throw_in_the_guest() {
        let task = &fixture("js")[0];
        assert_eq!(task.language, Language::Javascript);
        assert_eq!(task.entry_point.as_deref(), Some("twice"));
        let TestSuite::Calls { cases, .. } = &task.tests[0] else {
            panic!("expected calls: {:?}", task.tests[0])
        };
        assert_eq!(cases[1].args, [serde_json::json!(-1)]);
        // The loose `==` is JavaScript's (`"4" == 4`).
        let text = include_str!("../../../tests/fixtures/humaneval-x/js.jsonl")
            .lines()
            .next()
            .unwrap()
            .replace("===", "==");
        let task = &parse_tasks("js.jsonl", &text).unwrap()[0];
        let TestSuite::Calls { cases, .. } = &task.tests[0] else {
            panic!("expected calls: {:?}", task.tests[0])
        };
        assert_eq!(cases[0].check, crate::task::CallCheck::LooselyEquals);
        // `-0 === 0`, which the host's strict comparison would deny: that assert is a case of
        // its own in the guest, where a failed console.assert throws; the others stay calls.
        let text = include_str!("../../../tests/fixtures/humaneval-x/js.jsonl")
            .lines()
            .next()
            .unwrap()
            .replace("twice(2) === 4", "twice(0) === 0");
        let task = &parse_tasks("js.jsonl", &text).unwrap()[0];
        let [TestSuite::Calls { cases: calls, .. }, TestSuite::Assertions { cases, .. }] =
            task.tests.as_slice()
        else {
            panic!("expected calls and assertions: {:?}", task.tests)
        };
        assert_eq!(calls[0].name, "assert 2");
        assert_eq!(cases[0].name, "assert 1");
        assert_eq!(
            cases[0].code,
            format!("{JS_ASSERT}console.assert(twice(0) === 0)\n")
        );
        // A test of another shape stays whole in the guest.
        let text = text.replace(
            "console.assert(twice(-1)",
            "let x = 1; console.assert(twice(x)",
        );
        let task = &parse_tasks("js.jsonl", &text).unwrap()[0];
        let (_, code) = case(task);
        assert!(code.starts_with(JS_ASSERT));
        assert!(code.ends_with("testTwice()\n"));
    }

    #[test]
    fn rust_tests_become_a_main() {
        let tasks = fixture("rust");
        let task = &tasks[0];
        assert_eq!(task.language, Language::Rust);
        assert_eq!(task.entry_point.as_deref(), Some("twice"));
        assert!(!task.prompt.contains("use md5;"));
        assert!(task.prompt.contains("use rand::Rng;\n"));
        assert!(task
            .prompt
            .ends_with("fn twice(x: i32) -> i32{\n\n/*\n Double x.\n*/\n"));
        let (_, code) = case(task);
        assert!(
            !code.contains("#[cfg(test)]") && !code.contains("#[test]"),
            "{code}"
        );
        assert!(code.contains("    pub fn test_twice() {"), "{code}");
        assert!(
            code.contains(
                "\nfn main() {\n    tests::test_twice();\n    tests::test_twice_random();\n}\n"
            ),
            "{code}"
        );
        assert!(code.contains("mod rand {") && code.contains("mod md5 {"));
        // A test that is all comment tests nothing, as under `cargo test`.
        let (_, code) = case(&tasks[1]);
        assert!(code.contains("/*\n#[cfg(test)]"), "{code}");
        assert!(code.contains("\nfn main() {\n}\n"), "{code}");
    }

    #[test]
    fn masking_keeps_positions() {
        let code = "let s = \"#[test]\"; // #[test]\n/* a /* b */ #[test] */ 'x' '\\'' r#\"#[test]\"#; #[test]";
        let masked = String::from_utf8(rust_code_only(code)).unwrap();
        assert_eq!(masked.len(), code.len());
        assert_eq!(masked.matches("#[test]").count(), 1);
        assert!(masked.ends_with("#[test]"));
    }

    #[test]
    fn go_tasks_keep_the_test_file_setup_and_the_prompt_as_the_program_start() {
        let tasks = fixture("go");
        assert_eq!(tasks.len(), 3);
        let task = &tasks[1];
        assert_eq!(task.language, Language::Go);
        assert_eq!(task.entry_point.as_deref(), Some("Shout"));
        assert!(task.prompt.starts_with("import (\n    \"strings\"\n)"));
        assert!(task.references[0].code.ends_with("return result\n}\n\n"));
        // Its asserts are all `assert.Equal(literal, call)`: host-judged calls, the test file
        // (setup and test) their driver.
        let TestSuite::Calls { setup, cases, .. } = &task.tests[0] else {
            panic!("{:?}", task.tests)
        };
        assert!(setup.starts_with("package main\n"), "{setup}");
        assert!(setup.contains("func TestShout(t *testing.T)"));
        assert_eq!(cases.len(), 3);
        assert_eq!(
            cases[1].expected,
            serde_json::json!({"$go": ["[]string", []]})
        );
        // Go/2 asserts in a loop: the test stays one guest-judged assertion case.
        let TestSuite::Assertions { setup, cases } = &tasks[2].tests[0] else {
            panic!("{:?}", tasks[2].tests)
        };
        assert!(setup.contains("\"github.com/stretchr/testify/assert\""));
        assert!(cases[0].code.starts_with("func TestMean(t *testing.T)"));
    }
}
