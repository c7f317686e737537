//! C, C++ and Rust assertion programs: the candidate followed by one case's test code, compiled
//! into one module and judged by how the process ended and by its end-of-tests line.
//!
//! The candidate shares the process with the test, so its exit code alone proves nothing: a
//! candidate calling `exit(0)` would pass every case. [`assertion_program`] therefore instruments
//! the test (trusted code): the test's `main` writes `\n<token> end\n` when it reaches its end,
//! where the token is the program's `argv[1]`, fresh per run and never in the module (so the
//! compiled module stays cacheable). A case passes only with that line and exit code 0.
//!
//! - C and C++: the test's `main` starts by taking a key from `__wasmeval_begin_of_tests()` (a
//!   support object, `guests/cxx/end_of_tests.c`, which also defines a strong `__assert_fail`),
//!   and a call to `__wasmeval_end_of_tests(key)` goes before every `return` of it and before its
//!   closing brace; before the test, `main`, `assert` and `NDEBUG` are undefined and
//!   `<assert.h>` included again, so the candidate's macros cannot rename the test's `main` or
//!   disable its asserts, and every macro the candidate defines is undefined (its `abs` or its
//!   entry point as a macro could rewrite the asserts). The support refuses a begin before the
//!   constructors have all run or after a first one, and an end without that key, so a
//!   constructor, an `atexit` handler or the function under test that calls them writes no line
//!   (issue 32).
//! - Rust: the test's `fn main` becomes `fn __wasmeval_test_main`, called by a `main` of ours that
//!   then writes the line; the test's macros are called by their full paths (`::std::assert_eq!`)
//!   so a candidate's `macro_rules!` cannot shadow them, and so are the prelude's `None`, `Some`,
//!   `Ok` and `Err`, which a candidate's item of the same name would hide.
//!
//! - Go: the candidate, the test and wasmeval's `main` are three files of one package (each
//!   file has its own imports, as `go test` gives a test file), bundled in one source by
//!   [`go_files`]'s markers; the test's `assert.New(` becomes wasmeval's testify stand-in
//!   (`guests/go/assert.go`), a candidate's `func main` becomes `func _`, and our `main` calls
//!   every `Test*` function of the test with a `*__wasmeval_T` (the test's `*testing.T`), then
//!   writes the line itself: no function the candidate could call from an `init` writes it, and
//!   no package variable it could clear counts the failures. wasmeval's file checks at compile
//!   time that `true`, `false`, `nil`, `len`, `cap`, `append` and `panic` are Go's own, which a
//!   candidate's package-level declaration would hide from the test and from the stand-ins.
//!
//! What stays forgeable: a candidate that reads its own argv (or, in C and C++, the support's
//! memory) and writes the line itself, then exits, knowing this protocol; in C and C++ also one
//! that runs code between the constructors and `main` (a whole replacement of the C allocator,
//! which wasi-libc calls there) and takes the key first; values whose equality lies (a Rust type
//! of the candidate's named like the test's `Vec`, a C++ `operator==`), and names the test uses
//! that are not checked (Go's `min` and `max`, types). Such cases are judged in the guest, and
//! results say so; `calls` cases, judged on the host, are not forgeable this way.

use super::token::Token;
use super::{excerpt, Execution, Outcome};
use crate::results::Verdict;
use crate::source_scan::{c_main_body, code_words, find, statement_end};
use crate::task::Language;

/// The first error of a compiler's output as one line of at most [`super::MESSAGE_CHARS`]
/// characters, whatever warnings come before it: rustc's `error[E0308]: mismatched types` with
/// its `--> file:line:col`, clang's `file:line:col: error: ...`. Output with no error line gives
/// its first non-blank line (a note of wasmeval's, such as a limit reached).
pub fn first_error(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    // rustc's `error:` or `error[E0308]:` opens a line; clang's follows a place or a tool's name
    // (`main.c:4:12: error:`, `wasm-ld: error:`), never text with blanks: a warning's snippet
    // that quotes `"x: error: y"` from the source is not the error.
    let located = |line: &str, marker: &str| {
        line.find(marker)
            .is_some_and(|at| at > 0 && !line[..at].contains(char::is_whitespace))
    };
    let is_error = |line: &str| {
        let line = line.trim_start();
        line.starts_with("error:")
            || line.starts_with("error[")
            || located(line, ": error:")
            || located(line, ": fatal error:")
    };
    // Go names the package first (`# command-line-arguments`, `# _/tmp/x`): not an error line.
    let lines: Vec<&str> = lines.into_iter().filter(|l| !l.starts_with("# ")).collect();
    let line = match lines.iter().position(|l| is_error(l)) {
        // Go's `package .` names the package, and the error follows on an indented line
        // (`\timports syscall/js: build constraints exclude all Go files in ...`).
        None if lines.first().is_some_and(|l| l.starts_with("package "))
            && lines.get(1).is_some_and(|l| l.starts_with('\t')) =>
        {
            format!("{}: {}", lines[0].trim(), lines[1].trim())
        }
        Some(at) => {
            let error = lines[at].trim();
            // rustc names the place on the next line: `  --> main.rs:3:5`.
            match lines
                .get(at + 1)
                .map(|l| l.trim())
                .and_then(|l| l.strip_prefix("--> "))
            {
                Some(place) => format!("{error} (at {place})"),
                None => error.to_owned(),
            }
        }
        None => lines
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty())
            .unwrap_or("the compiler failed")
            .to_owned(),
    };
    super::short_message(&line)
}

/// The C/C++ function that writes the end-of-tests line, given the key [`BEGIN_OF_TESTS`] returned.
const END_OF_TESTS: &str = "__wasmeval_end_of_tests";

/// The C/C++ function whose first call, at the start of the test's `main`, returns the key.
const BEGIN_OF_TESTS: &str = "__wasmeval_begin_of_tests";

/// The test `main`'s local that holds the key: out of the candidate's reach (a wasm local).
const KEY: &str = "__wasmeval_key";

/// The source of one assertion program: the candidate, then the suite's setup and the case's
/// test code, instrumented so that only a test `main` that reaches its end passes (see the
/// module's documentation).
pub fn assertion_program(language: Language, candidate: &str, setup: &str, test: &str) -> String {
    let (closing, test) = closing_brace(language, test);
    let candidate = &closed(candidate, closing);
    match language {
        Language::Rust => format!("{candidate}\n{}\n", rust_test(&format!("{setup}\n{test}"))),
        Language::Go => go_program(candidate, &format!("{setup}\n{test}"), false),
        Language::Cpp => format!(
            "{candidate}\n{}{C_PRELUDE}\nextern \"C\" unsigned long long {BEGIN_OF_TESTS}(void); \
             extern \"C\" void {END_OF_TESTS}(unsigned long long);\n{setup}\n{}\n",
            undefine_macros(language, candidate),
            c_family_test(test)
        ),
        _ => format!(
            "{candidate}\n{}{C_PRELUDE}\nunsigned long long {BEGIN_OF_TESTS}(void); \
             void {END_OF_TESTS}(unsigned long long);\n{setup}\n{}\n",
            undefine_macros(language, candidate),
            c_family_test(test)
        ),
    }
}

/// The source a whole program in `language` is compiled from: Go code without a package clause
/// (a HumanEval-X completion) is in `package main`; other languages' code as it is.
pub fn whole_program(language: Language, code: &str) -> String {
    match language {
        Language::Go => go_with_package(code),
        _ => code.to_owned(),
    }
}

/// The line that starts each file after the first in a Go source bundle.
const GO_FILE_MARKER: &str = "//wasmeval:file ";

/// The files after the candidate's in a Go test program, in order (`wasmeval_calls.go` in
/// `calls` drivers only).
const GO_FILES: [&str; 3] = ["test.go", "wasmeval_main.go", "wasmeval_calls.go"];

/// wasmeval's `testing` and testify stand-ins and end-of-tests line, the file of a Go test
/// program that gets our `main`.
const GO_ASSERT: &str = include_str!("../../../guests/go/assert.go");

/// The support of Go `calls` drivers: their report lines and the plain-data forms of values.
const GO_CALLS: &str = include_str!("../../../guests/go/calls.go");

/// The files of a Go source bundle: `main.go` (the candidate), then wasmeval's `test.go` and
/// `wasmeval_main.go` where their marker lines are. Markers are searched from the end, so marker
/// lines inside the candidate's code (which comes first) split nothing of wasmeval's: at most the
/// candidate's own code into files of the same package.
pub fn go_files(source: &str) -> Vec<(&'static str, &str)> {
    let mut files = Vec::new();
    let mut rest = source;
    for name in GO_FILES.iter().rev() {
        let marker = format!("\n{GO_FILE_MARKER}{name}\n");
        if let Some(at) = rest.rfind(&marker) {
            files.push((*name, &rest[at + marker.len()..]));
            rest = &rest[..at];
        }
    }
    files.push(("main.go", rest));
    files.reverse();
    files
}

/// Go `code` from its first token: blank lines and comments skipped.
fn go_after_comments(code: &str) -> &str {
    let mut rest = code.trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r).trim_start();
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r).trim_start();
        } else {
            return rest;
        }
    }
}

/// Whether Go `code` starts with a package clause (after blank lines and comments).
fn go_has_package(code: &str) -> bool {
    go_after_comments(code)
        .strip_prefix("package")
        .is_some_and(|after| after.starts_with(|c: char| c.is_whitespace()))
}

/// Go `code` with `package main` before it when it has no package clause.
fn go_with_package(code: &str) -> String {
    if go_has_package(code) {
        code.to_owned()
    } else {
        format!("package main\n\n{code}")
    }
}

/// Go `code` whose package clause names `main`, whatever it named (MultiPL-E's prompts declare
/// `package <task>_test`, for `go test`); code without a clause as it is.
fn go_in_package_main(code: &str) -> String {
    let Some(after) = go_after_comments(code).strip_prefix("package") else {
        return code.to_owned();
    };
    let name_at = code.len() - after.trim_start().len();
    let name_len = code[name_at..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(code.len() - name_at);
    format!("{}main{}", &code[..name_at], &code[name_at + name_len..])
}

/// The packages a Go file of an assertion program may use without importing them (CodeGeeX's
/// `IMPORT_HELPER["go"]`, which HumanEval-X's evaluator adds the same way).
const GO_IMPORT_HELPER: [&str; 10] = [
    "math",
    "strings",
    "fmt",
    "strconv",
    "time",
    "bytes",
    "regexp",
    "sort",
    "math/rand",
    "crypto/md5",
];

/// Go `code` with comments and the contents of string, raw string and rune literals replaced by
/// spaces, so that words in them ("a list of strings.") are not taken for code.
fn go_code_only(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            '"' | '\'' | '`' => {
                let quote = c;
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == quote && (quote == '`' || !escaped) {
                        break;
                    }
                    escaped = quote != '`' && c == '\\' && !escaped;
                }
                out.push_str("\"\"");
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether `name.` occurs in `code` as a qualified identifier (not the tail of a longer name,
/// not in a comment or a literal).
fn go_uses(code: &str, name: &str) -> bool {
    let code = &go_code_only(code);
    let pattern = format!("{name}.");
    code.match_indices(&pattern).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
    })
}

/// A Go file's imports fixed as HumanEval-X's evaluator (CodeGeeX) fixes them, since its prompts
/// import what the reference uses and its tests what they use, in one file: imports the file does
/// not use are dropped (Go refuses them), and with `add_helpers` packages of [`GO_IMPORT_HELPER`]
/// it uses without importing are added. The import declarations become one line where the first was (or after
/// the package clause), blank lines keep the rest of the file on its lines, so compile errors
/// name the lines of the code as written. A file it cannot read (no package clause) is left as
/// it is.
fn go_fix_imports(file: &str, add_helpers: bool) -> String {
    let mut lines: Vec<&str> = file.split_inclusive('\n').collect();
    let Some(package) = lines
        .iter()
        .position(|l| l.trim_start().starts_with("package "))
    else {
        return file.to_owned();
    };
    // The import declarations after the package clause: (alias, path) specs and their lines.
    let mut specs: Vec<(Option<String>, String)> = Vec::new();
    let mut import_lines = Vec::new();
    let mut at = package + 1;
    let mut in_group = false;
    while at < lines.len() {
        let line = lines[at].trim();
        if in_group {
            import_lines.push(at);
            if line.starts_with(')') {
                in_group = false;
            } else if let Some(spec) = go_import_spec(line) {
                specs.push(spec);
            }
        } else if line.is_empty() || line.starts_with("//") {
        } else if let Some(rest) = line.strip_prefix("import") {
            let rest = rest.trim();
            import_lines.push(at);
            if let Some(group) = rest.strip_prefix('(') {
                let group = group.trim();
                if let Some(inner) = group.strip_suffix(')') {
                    specs.extend(inner.split(';').filter_map(|s| go_import_spec(s.trim())));
                } else {
                    in_group = true;
                    specs.extend(go_import_spec(group));
                }
            } else {
                specs.extend(go_import_spec(rest));
            }
        } else {
            break;
        }
        at += 1;
    }
    let body: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i > package && !import_lines.contains(i))
        .map(|(_, l)| *l)
        .collect();
    let name_of = |alias: &Option<String>, path: &str| {
        alias
            .clone()
            .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_owned())
    };
    let mut kept: Vec<String> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    for (alias, path) in &specs {
        let name = name_of(alias, path);
        let keep = matches!(name.as_str(), "_" | ".") || go_uses(&body, &name);
        if keep && !paths.contains(path) {
            kept.push(match alias {
                Some(alias) => format!("{alias} \"{path}\""),
                None => format!("\"{path}\""),
            });
            paths.push(path.clone());
        }
    }
    for &path in GO_IMPORT_HELPER.iter().filter(|_| add_helpers) {
        let name = name_of(&None, path);
        let imported_as = specs.iter().any(|(a, p)| name_of(a, p) == name);
        if !imported_as && !paths.iter().any(|p| p == path) && go_uses(&body, &name) {
            kept.push(format!("\"{path}\""));
            paths.push(path.to_owned());
        }
    }
    let declaration = if kept.is_empty() {
        String::new()
    } else {
        format!("import ({})", kept.join("; "))
    };
    match import_lines.first() {
        Some(&first) => {
            for &i in &import_lines {
                lines[i] = if lines[i].ends_with('\n') { "\n" } else { "" };
            }
            let mut out = String::with_capacity(file.len() + 64);
            for (i, line) in lines.iter().enumerate() {
                if i == first {
                    out.push_str(&declaration);
                }
                out.push_str(line);
            }
            out
        }
        None => {
            let mut out = String::with_capacity(file.len() + 64);
            for (i, line) in lines.iter().enumerate() {
                if i == package && !declaration.is_empty() {
                    out.push_str(line.trim_end_matches('\n'));
                    out.push_str("; ");
                    out.push_str(&declaration);
                    out.push('\n');
                } else {
                    out.push_str(line);
                }
            }
            out
        }
    }
}

/// One import spec (`"fmt"`, `m "math"`, `_ "embed"`) as (alias, path).
fn go_import_spec(spec: &str) -> Option<(Option<String>, String)> {
    let spec = spec.split("//").next().unwrap_or_default().trim();
    let (alias, quoted) = match spec.split_once(char::is_whitespace) {
        Some((alias, quoted)) => (Some(alias.to_owned()), quoted.trim()),
        None => (None, spec),
    };
    let path = quoted
        .strip_prefix('"')?
        .strip_suffix('"')
        .or_else(|| quoted.strip_prefix('`')?.strip_suffix('`'))?;
    Some((alias, path.to_owned()))
}

/// A Go test program: the candidate (its own `func main` renamed `func _`, which Go allows any
/// number of times and never calls), the test file (`test`, its testify import dropped and
/// `assert.New(` and `*testing.T` replaced by the stand-ins') and wasmeval's file with `main`,
/// which runs every `Test*` function of the test in order; then, for an assertion program, the
/// end-of-tests line, for a `calls` driver (`calls`) the report's `done` and the support file.
///
/// A candidate without a package clause (a HumanEval-X prompt starts with its imports) gets
/// `package main` and HumanEval-X's import fixing; one with its own (a MultiPL-E prompt is a
/// whole file of `package <task>_test`) is put in package `main` and keeps its imports, less
/// those it does not use (the prompt's imports are for the tests, which are a file of their own
/// here): a package it uses without importing is its compile error, as in MultiPL-E's one file.
fn go_program(candidate: &str, test: &str, calls: bool) -> String {
    let own_package = go_has_package(candidate);
    let candidate: String = go_in_package_main(&go_with_package(candidate))
        .split_inclusive('\n')
        .map(|line| match line.strip_prefix("func main(") {
            Some(rest) => format!("func _({rest}"),
            None => line.to_owned(),
        })
        .collect();
    let candidate = go_fix_imports(&candidate, !own_package);
    // `testing` only names the type of `t`: wasmeval's own `__wasmeval_T` keeps the package,
    // 0.3 MB of module, out.
    let test_file: String = go_with_package(test)
        .split_inclusive('\n')
        .filter(|line| {
            let line = line.trim();
            line != "\"github.com/stretchr/testify/assert\"" && line != "\"testing\""
        })
        .collect();
    let test_file = go_fix_imports(
        &test_file
            .replace("assert.New(", "__wasmeval_assert_New(")
            .replace("*testing.T", "*__wasmeval_T"),
        true,
    );
    let tests: String = test
        .lines()
        .filter_map(|line| {
            let name = line.strip_prefix("func Test")?;
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            Some(format!(
                "\tif __wasmeval_run_test(\"Test{name}\", Test{name}) {{\n\t\tfailed = true\n\t}}\n"
            ))
        })
        .collect();
    // A test with no Test function never passes: it never reaches the end of its tests.
    let tests = if tests.is_empty() {
        "\tpanic(\"the test defines no Test function\")\n".to_owned()
    } else {
        tests
    };
    // The failures are counted in main's own variable and the end-of-tests line is written by
    // main itself (issue 32): the candidate, in the same package, can call any function and set
    // any package variable, from an `init` or from the function under test, and then exit 0.
    let (start, end, support) = if calls {
        (
            "\t__wasmeval_report(\"loaded\")\n",
            "\t__wasmeval_report(\"done\")\n",
            format!("\n{GO_FILE_MARKER}{}\n{GO_CALLS}", GO_FILES[2]),
        )
    } else {
        (
            "",
            "\ttoken := \"\"\n\tif len(os.Args) > 1 {\n\t\ttoken = os.Args[1]\n\t}\n\
             \tos.Stdout.WriteString(\"\\n\" + token + \" end\\n\")\n",
            String::new(),
        )
    };
    format!(
        "{candidate}\n{GO_FILE_MARKER}{}\n{test_file}\n{GO_FILE_MARKER}{}\n{GO_ASSERT}\n\
         func main() {{\n{start}\tfailed := false\n{tests}\tif failed {{\n\t\tos.Exit(1)\n\t}}\n{end}}}\n{support}",
        GO_FILES[0], GO_FILES[1]
    )
}

/// The source of a `calls` driver program: the candidate, then the driver (a test whose converted
/// asserts are `WASMEVAL_CASE(i, call)`, see `formats::compiled_asserts`) with the support that
/// reports each call's value as plain data, its `main` reporting `loaded` when it starts and
/// `done` when it ends. The expected values are not in it: the host judges the values with the
/// harness protocol's judge (`judging::python::judge`).
pub fn calls_program(language: Language, candidate: &str, driver: &str) -> String {
    let (closing, driver) = closing_brace(language, driver);
    let candidate = &closed(candidate, closing);
    match language {
        Language::Rust => format!("{candidate}\n{}\n", rust_calls_driver(driver)),
        Language::Go => go_program(candidate, driver, true),
        _ => format!(
            "{candidate}\n{}\n{}\n{}\n",
            C_PRELUDE,
            CPP_CALLS,
            c_family_main(driver, "__wasmeval_loaded(); ", "__wasmeval_done(); ")
        ),
    }
}

/// A C or C++ test that begins by closing the candidate's function (MultiPL-E's tests do: the
/// completion stops before the brace) split into that brace, which stays with the candidate, and
/// the rest, which goes after the prelude (inserted between, the prelude would land inside the
/// function). Other tests, and Rust's (nothing is inserted between), are left whole.
fn closing_brace(language: Language, test: &str) -> (&str, &str) {
    let trimmed = test.trim_start();
    match language {
        Language::C | Language::Cpp if trimmed.starts_with('}') => {
            let at = test.len() - trimmed.len() + 1;
            (&test[..at], &test[at..])
        }
        _ => ("", test),
    }
}

/// The candidate and the test's brace that closes its function, on a line of their own as
/// MultiPL-E joins them (`prompt + completion + "\n" + tests`): a completion whose last line is a
/// `//` comment (MultiPL-E's stop tokens leave such lines) would otherwise comment the brace out.
fn closed(candidate: &str, closing: &str) -> String {
    match closing.is_empty() {
        true => candidate.to_owned(),
        false => format!("{candidate}\n{closing}"),
    }
}

/// The C++ support of `calls` drivers.
const CPP_CALLS: &str = include_str!("../../../guests/cxx/calls.hpp");

/// What goes between a C or C++ candidate and its test: the candidate's macros for the names
/// the test relies on are undone.
const C_PRELUDE: &str = "#undef main
#undef assert
#undef NDEBUG
#undef __wasmeval_end_of_tests
#undef __wasmeval_begin_of_tests
#undef __wasmeval_key
#undef WASMEVAL_CASE
#include <assert.h>";

/// `#undef` lines for every macro a C or C++ candidate defines, to go before an assertion test:
/// the test's names are not the candidate's to bind (issue 32). `#define abs(x) 0` made a
/// HumanEval-X test's `assert(abs(f(x) - y) < 1e-6)` hold, and a macro named like the entry
/// point can swallow the rest of the assert (`#define add(a, b) 3 || 1`). A candidate whose
/// entry point is a macro therefore does not compile. (`calls` drivers, judged on the host, keep
/// the candidate's macros: what they change is only the candidate's answer.)
fn undefine_macros(language: Language, candidate: &str) -> String {
    let mut names: Vec<&str> = Vec::new();
    let text = c_preprocessor_lines(language, candidate);
    for line in text.lines() {
        let line = line.trim_start();
        let Some(directive) = line.strip_prefix('#').or_else(|| line.strip_prefix("%:")) else {
            continue;
        };
        let Some(rest) = directive.trim_start().strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with(|c: char| c.is_whitespace()) {
            continue;
        }
        let rest = rest.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        if end > 0 && !names.contains(&&rest[..end]) {
            names.push(&rest[..end]);
        }
    }
    names
        .iter()
        .map(|name| format!("#undef {name}\n"))
        .collect()
}

/// C or C++ code as the preprocessor reads its lines: trigraphs `??=` and `??/` read (C only: C++17
/// has none), lines ending in a backslash joined to the next, comments replaced by a space,
/// string and character literals (raw strings in C++) by `""`. Directives can then be read a line
/// at a time, none hidden in a comment or a string nor split across lines.
fn c_preprocessor_lines(language: Language, code: &str) -> String {
    let mut text = code.to_owned();
    if language == Language::C {
        text = text.replace("??=", "#").replace("??/", "\\");
    }
    let text = text.replace("\\\r\n", "").replace("\\\n", "");
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            i += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            out.push(b' ');
        } else if rest.starts_with(b"/*") {
            i += find(rest, 2, b"*/").map_or(rest.len(), |end| end + 2);
            out.push(b' ');
        } else if rest[0] == b'"' && language == Language::Cpp && raw_string_prefix(&bytes[..i]) {
            // R"delimiter( ... )delimiter", which may span lines.
            let open = rest.iter().position(|&b| b == b'(' || b == b'\n');
            let end = open
                .filter(|&at| rest[at] == b'(')
                .and_then(|at| {
                    let closing = [b")", &rest[1..at], b"\""].concat();
                    find(rest, at, &closing).map(|end| end + closing.len())
                })
                .unwrap_or(rest.len());
            i += end;
            out.extend_from_slice(b"\"\"");
        } else if rest[0] == b'"' || rest[0] == b'\'' {
            // A literal ends at its quote or, unterminated, at the end of the line.
            let mut at = 1;
            while at < rest.len() && rest[at] != rest[0] && rest[at] != b'\n' {
                at += if rest[at] == b'\\' { 2 } else { 1 };
            }
            i += if rest.get(at) == Some(&rest[0]) {
                at + 1
            } else {
                at.min(rest.len())
            };
            out.extend_from_slice(b"\"\"");
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether the `"` after `before` opens a C++ raw string: `R`, `u8R`, `uR`, `UR` or `LR` before it,
/// not the end of a longer identifier.
fn raw_string_prefix(before: &[u8]) -> bool {
    ["R", "u8R", "uR", "UR", "LR"].iter().any(|prefix| {
        before.ends_with(prefix.as_bytes())
            && !before[..before.len() - prefix.len()]
                .last()
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// C or C++ test code whose `main` starts by taking the key, with the end-of-tests call and the
/// key before every `return` of its `main` and before main's closing brace. Without a `main`,
/// the code is left as it is (it can then never pass).
fn c_family_test(test: &str) -> String {
    c_family_main(
        test,
        &format!("unsigned long long {KEY} = {BEGIN_OF_TESTS}(); "),
        &format!("{END_OF_TESTS}({KEY}); "),
    )
}

/// `test` with `at_start` inserted at the start of its `main`, and `at_end` before every `return`
/// of it and before its closing brace; without a `main`, `test` as it is.
fn c_family_main(test: &str, at_start: &str, at_end: &str) -> String {
    let Some((open, close)) = c_main_body(test) else {
        return test.to_owned();
    };
    let mut out = String::with_capacity(test.len() + 256);
    out.push_str(&test[..open]);
    out.push_str(at_start);
    let body = &test[open..close];
    let mut last = 0;
    for at in code_words(body, "return") {
        out.push_str(&body[last..at]);
        // Braces keep `if (x) return 1;` one statement.
        out.push_str(&format!("{{ {at_end}"));
        let end = statement_end(body, at);
        out.push_str(&body[at..end]);
        out.push_str(" }");
        last = end;
    }
    out.push_str(&body[last..]);
    out.push_str(at_end);
    out.push_str(&test[close..]);
    out
}

/// The macros of Rust test code called by their full paths, so that a candidate's
/// `macro_rules!` of the same name (textually in scope before the test) does not replace them.
const RUST_MACROS: [&str; 12] = [
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "vec",
    "format",
    "println",
    "matches",
];

/// The prelude's values a Rust test compares with, called by their full paths: a candidate's item
/// of the same name in the crate root (`const None: Option<i64> = Some(5);`) hides the prelude's
/// from the test, even in a `mod tests { use super::*; }`, and `assert_eq!(f(x), None)` then held
/// for a wrong `f` (issue 32: the test's names are not the candidate's to bind).
const RUST_PRELUDE_VALUES: [(&str, &str); 4] = [
    ("None", "::std::option::Option::None"),
    ("Some", "::std::option::Option::Some"),
    ("Ok", "::std::result::Result::Ok"),
    ("Err", "::std::result::Result::Err"),
];

/// Rust test code with its macros by full path and its `fn main` renamed, followed by the `main`
/// that calls it and then writes the end-of-tests line.
fn rust_test(test: &str) -> String {
    rust_with_main(
        test,
        "
fn main() {
    __wasmeval_test_main();
    let token = ::std::env::args().nth(1).unwrap_or_default();
    let mut out = ::std::io::stdout();
    let line = ::std::format!(\"\\n{token} end\\n\");
    let _ = ::std::io::Write::write_all(&mut out, line.as_bytes());
    let _ = ::std::io::Write::flush(&mut out);
}
",
    )
}

/// The support of Rust `calls` drivers.
const RUST_CALLS: &str = include_str!("../../../guests/rust/calls.rs");

/// A Rust `calls` driver as [`rust_test`] prepares a test, with a `main` that reports `loaded`,
/// runs the driver and reports `done`, and the support of its `__wasmeval_calls::case` calls.
fn rust_calls_driver(driver: &str) -> String {
    let mut out = rust_with_main(
        driver,
        "
fn main() {
    crate::__wasmeval_calls::report(\"loaded\");
    __wasmeval_test_main();
    crate::__wasmeval_calls::report(\"done\");
}
",
    );
    out.push_str(RUST_CALLS);
    out
}

/// `test` with its macros and the prelude's values ([`RUST_PRELUDE_VALUES`]) called by their full
/// paths and its `fn main` renamed `__wasmeval_test_main`, followed by `main`.
fn rust_with_main(test: &str, main: &str) -> String {
    let mut out = String::with_capacity(test.len() + 512);
    let mut last = 0;
    let bytes = test.as_bytes();
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for name in RUST_MACROS {
        for at in code_words(test, name) {
            let after = at + name.len();
            let qualified = test[..at].ends_with("::");
            if bytes.get(after) == Some(&b'!') && !qualified {
                edits.push((at, after, format!("::std::{name}")));
            }
        }
    }
    for at in code_words(test, "main") {
        if test[..at].trim_end().ends_with("fn") {
            edits.push((at, at + 4, "__wasmeval_test_main".into()));
        }
    }
    // A test that imports the variants itself (`use std::option::Option::{None, Some};`) names
    // them already: its paths are left alone.
    let imports_variants = code_words(test, "use").into_iter().any(|at| {
        let statement = &test[at..statement_end(test, at)];
        statement.contains("Option") || statement.contains("Result")
    });
    for (name, path) in RUST_PRELUDE_VALUES.iter().filter(|_| !imports_variants) {
        for at in code_words(test, name) {
            let before = test[..at].trim_end();
            if !before.ends_with("::") && !before.ends_with('.') {
                edits.push((at, at + name.len(), (*path).to_owned()));
            }
        }
    }
    edits.sort();
    for (start, end, replacement) in edits {
        out.push_str(&test[last..start]);
        out.push_str(&replacement);
        last = end;
    }
    out.push_str(&test[last..]);
    out.push_str(main);
    out
}

/// The verdict of a compiled assertion program: exit 0 with the end-of-tests line passes; exit 0
/// without it cut the tests short; a failed assertion (`assert!` panics, C's `assert` traps, both
/// saying so on stderr) is a wrong answer; other ends as for any execution.
pub fn judge_assertion_program(execution: &Execution, token: &Token) -> Outcome {
    let Some(outcome) = Outcome::of_abnormal_end(execution) else {
        let stdout = String::from_utf8_lossy(&execution.output.stdout);
        return match token.scan(&stdout).lines.as_slice() {
            ["end"] => Outcome::passed(),
            _ => Outcome::of_cut_short(execution),
        };
    };
    if outcome.verdict != Verdict::RuntimeError {
        return outcome;
    }
    let stderr = String::from_utf8_lossy(&execution.output.stderr);
    let assertion = stderr
        .lines()
        .find(|line| line.to_ascii_lowercase().contains("assert"));
    match (assertion, panic_message(&stderr)) {
        (Some(line), _) => Outcome::new(Verdict::WrongAnswer, excerpt(line.trim())),
        (None, Some(panic)) => Outcome::new(Verdict::RuntimeError, panic),
        (None, None) => outcome,
    }
}

/// `panicked: <message>` when `stderr` ends in a Rust or Go panic, which a bare trap's message
/// (`wasm unreachable instruction executed`) does not name. Rust prints `thread 'main' panicked
/// at src:line:col:` and the message on the next line; Go `panic: <message>` (and `[recovered]`,
/// goroutine traces after it).
pub fn panic_message(stderr: &str) -> Option<String> {
    let rust = stderr
        .lines()
        .skip_while(|line| !line.contains("panicked at"))
        .nth(1);
    let panic = rust.or_else(|| stderr.lines().find_map(|line| line.strip_prefix("panic: ")))?;
    Some(excerpt(&format!("panicked: {}", panic.trim())))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_compile_error_is_named_by_its_first_error_not_the_warnings_before_it() {
        let rustc = "warning: unused import: `std::io`\n --> main.rs:1:5\n  |\n1 | use std::io;\n\nerror[E0308]: mismatched types\n --> main.rs:3:5\n  |\n3 |     \"x\"\n  |     ^^^ expected `i32`, found `&str`\n\nerror: aborting due to 1 previous error\n";
        assert_eq!(
            super::first_error(rustc),
            "error[E0308]: mismatched types (at main.rs:3:5)"
        );
        let clang = "main.c:2:1: warning: type specifier missing\nmain.c:4:12: error: use of undeclared identifier 'y'\n    return y;\n";
        assert_eq!(
            super::first_error(clang),
            "main.c:4:12: error: use of undeclared identifier 'y'"
        );
        // MultiPL-E's Rust names are camelCase: rustc warns before the error.
        let snake = "warning: function `minSubArraySum` should have a snake case name\n --> main.rs:8:4\n  |\n8 | fn minSubArraySum(nums: Vec<isize>) -> isize {\n  |    ^^^^^^^^^^^^^^ help: convert the identifier to snake case: `min_sub_array_sum`\n  |\n  = note: `#[warn(non_snake_case)]` (part of `#[warn(nonstandard_style)]`) on by default\n\nerror[E0308]: mismatched types\n  --> main.rs:13:5\n";
        assert_eq!(
            super::first_error(snake),
            "error[E0308]: mismatched types (at main.rs:13:5)"
        );
        // A warning quoting source text that looks like an error is not the error.
        let quoted = "main.c:3:9: warning: unused variable 's'\n    3 |   char *s = \"x: error: y\";\n      |         ^\nmain.c:5:1: error: expected ';'\n";
        assert_eq!(
            super::first_error(quoted),
            "main.c:5:1: error: expected ';'"
        );
        assert_eq!(
            super::first_error("wasm-ld: error: duplicate symbol: f\n"),
            "wasm-ld: error: duplicate symbol: f"
        );
        assert_eq!(
            super::first_error("\ncompilation stopped: over 10 s of CPU time\n"),
            "compilation stopped: over 10 s of CPU time"
        );
        assert!(
            super::first_error(&format!("error: {}", "x".repeat(2000)))
                .chars()
                .count()
                <= 500
        );
    }

    use super::*;
    use crate::judging::tests::execution;
    use crate::judging::token::tests::token;
    use crate::judging::Exit;

    fn ended(exit: Exit, stdout: &str, stderr: &str) -> Outcome {
        let mut run = execution(exit, stdout);
        run.output.stderr = stderr.as_bytes().to_vec();
        judge_assertion_program(&run, &token())
    }

    fn end_line() -> String {
        format!("out\n\n{} end\n", token().as_str())
    }

    #[test]
    fn only_a_test_that_reached_its_end_passes() {
        assert_eq!(
            ended(Exit::Code(0), &end_line(), "").verdict,
            Verdict::Passed
        );
        // exit(0) from the candidate: no end line.
        let early = ended(Exit::Code(0), "all good\n", "");
        assert_eq!(early.verdict, Verdict::RuntimeError);
        assert_eq!(
            early.message.as_deref(),
            Some("the program exited (code 0) before its tests finished")
        );
        let forged = "\nwasmeval-ffffffffffffffffffffffffffffffff end\n";
        assert_eq!(
            ended(Exit::Code(0), forged, "").verdict,
            Verdict::RuntimeError
        );
        // The line, then a failing exit code: the test's main returned non-zero.
        assert_eq!(
            ended(Exit::Code(1), &end_line(), "").verdict,
            Verdict::RuntimeError
        );
    }

    #[test]
    fn assertions_are_wrong_answers_and_panics_runtime_errors() {
        let failed = ended(
            Exit::Trap("unreachable".into()),
            "",
            "Assertion failed: f(1) == 2 (main.cpp: main: 9)\n",
        );
        assert_eq!(failed.verdict, Verdict::WrongAnswer);
        let rust = ended(
            Exit::Code(101),
            "",
            "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds\n",
        );
        assert_eq!(
            (rust.verdict, rust.message.as_deref()),
            (Verdict::RuntimeError, Some("panicked: index out of bounds"))
        );
        assert_eq!(
            ended(Exit::OutOfFuel, "", "assert").verdict,
            Verdict::Timeout
        );
    }

    #[test]
    fn a_completion_ending_in_a_line_comment_keeps_the_tests_closing_brace() {
        // MultiPL-E: the prompt opens the function, the completion stops before its brace, and
        // the tests start with it.
        let candidate = "long add(long a, long b) {\n    return a + b; // the sum";
        let test =
            "}\nint main() {\n    auto candidate = add;\n    assert(candidate(1, 2) == 3);\n}\n";
        let program = assertion_program(Language::Cpp, candidate, "", test);
        assert!(
            program.starts_with(&format!("{candidate}\n}}\n")),
            "{program}"
        );
        let driver = "}\nint main() {\n    auto candidate = add;\n    WASMEVAL_CASE(0, candidate(1, 2));\n}\n";
        let program = calls_program(Language::Cpp, candidate, driver);
        assert!(
            program.starts_with(&format!("{candidate}\n}}\n")),
            "{program}"
        );
        // Rust's and Go's tests are joined on a line of their own already.
        for language in [Language::Rust, Language::Go] {
            let program = calls_program(language, "fn f() {} // f", "fn main() {}");
            assert!(program.contains("fn f() {} // f\n"), "{program}");
        }
    }

    #[test]
    fn a_c_family_test_main_ends_with_the_end_of_tests_call_before_each_return() {
        let test = "int helper() { return 2; }\nint main(){\n    assert (f(1) == 2);\n    if (x) return 1;\n    puts(\"return\"); // return\n    return 0;\n}\n";
        let program = assertion_program(Language::Cpp, "int f(int);", "", test);
        assert!(program.contains(
            "extern \"C\" unsigned long long __wasmeval_begin_of_tests(void); \
             extern \"C\" void __wasmeval_end_of_tests(unsigned long long);"
        ));
        assert!(program.contains("#undef main\n#undef assert\n#undef NDEBUG"));
        assert!(program.contains("#undef __wasmeval_begin_of_tests\n#undef __wasmeval_key"));
        // main takes the key first; the helper's return is not main's; strings and comments are
        // left alone.
        assert!(program.contains(
            "int main(){unsigned long long __wasmeval_key = __wasmeval_begin_of_tests(); \n"
        ));
        assert!(program.contains("int helper() { return 2; }"));
        assert!(program.contains("if (x) { __wasmeval_end_of_tests(__wasmeval_key); return 1; }"));
        assert!(program.contains("puts(\"return\"); // return"));
        assert!(program.contains(
            "{ __wasmeval_end_of_tests(__wasmeval_key); return 0; }\n\
             __wasmeval_end_of_tests(__wasmeval_key); }"
        ));
        // Without a main, nothing to instrument: such a program cannot pass.
        assert_eq!(c_family_test("int x;"), "int x;");
        let c = assertion_program(Language::C, "", "", "int main(void) { assert(1); }");
        assert!(c.contains(
            "\nunsigned long long __wasmeval_begin_of_tests(void); \
             void __wasmeval_end_of_tests(unsigned long long);"
        ));
        assert!(c.ends_with("assert(1); __wasmeval_end_of_tests(__wasmeval_key); }\n"));
    }

    #[test]
    fn regression_issue_32_the_candidates_macros_are_undefined_before_the_test() {
        // `#define abs(x) 0` made `assert(abs(f(x) - y) < 1e-6)` hold; every spelling of a
        // #define counts, none in a comment or a string does.
        let candidate = "#include <cmath>\n#define abs(x) 0\n  #  define  A 1\n%:define B\n\
                         #define C\\\n  2\n/* #define D */ // #define E\n#def\\\nine G 3\n\
                         const char *s = \"/*\";\n#define H 4\n#undef I\n#defineJ\n\
                         auto r = R\"x(\n#define K 1\n)x\";\n#define L\n??=define M 1\n";
        assert_eq!(
            undefine_macros(Language::Cpp, candidate),
            "#undef abs\n#undef A\n#undef B\n#undef C\n#undef G\n#undef H\n#undef L\n"
        );
        // C reads trigraphs (C++17 has none) and has no raw strings.
        assert!(undefine_macros(Language::C, candidate).ends_with("#undef K\n#undef L\n#undef M\n"));
        let program = assertion_program(
            Language::Cpp,
            candidate,
            "",
            "int main() { assert(abs(1) == 1); }",
        );
        let test_at = program.find("int main()").unwrap();
        assert!(program[..test_at].contains("#undef abs\n#undef A\n"));
        // Calls drivers are judged on the host: the candidate's macros stay.
        assert!(!calls_program(Language::Cpp, candidate, "int main() {}").contains("#undef abs"));
    }

    #[test]
    fn go_imports_are_fixed_as_humaneval_xs_evaluator_does_on_the_same_lines() {
        // The prompt's unused import is dropped, a used helper package added.
        let file = "package main\n\nimport (\n    \"math\"\n    \"strings\"\n)\n\nfunc f(s string) []string { return strings.Fields(strconv.Itoa(1)) }\n";
        let fixed = go_fix_imports(file, true);
        assert_eq!(
            fixed,
            "package main\n\nimport (\"strings\"; \"strconv\")\n\n\n\n\nfunc f(s string) []string { return strings.Fields(strconv.Itoa(1)) }\n"
        );
        assert_eq!(file.lines().count(), fixed.lines().count());
        // No import declaration: the added ones go on the package clause's line.
        assert_eq!(
            go_fix_imports("package main\nfunc g() float64 { return math.Pi }\n", true),
            "package main; import (\"math\")\nfunc g() float64 { return math.Pi }\n"
        );
        // Words in comments and literals are not uses (HumanEval-X's Go/158: "a list of strings.").
        assert_eq!(
            go_fix_imports(
                "package main\n// a list of strings.\nvar s = \"fmt.x\" + `sort.y`\n/* math. */\n",
                true
            ),
            "package main\n// a list of strings.\nvar s = \"fmt.x\" + `sort.y`\n/* math. */\n"
        );
        // Aliases, blank imports and a one-line import kept when used; `xmath.` is not `math.`.
        assert_eq!(
            go_fix_imports(
                "package main\nimport m \"math\"\nimport _ \"embed\"\nvar x = m.Pi + xmath.E\n",
                true
            ),
            "package main\nimport (m \"math\"; _ \"embed\")\n\nvar x = m.Pi + xmath.E\n"
        );
        let program = assertion_program(
            Language::Go,
            "func Add(a, b int) int { return a + b }\nfunc main() {}\n",
            "package main\nimport (\n    \"testing\"\n    \"github.com/stretchr/testify/assert\"\n)\n",
            "func TestAdd(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(3, Add(1, 2))\n}\n",
        );
        let files = go_files(&program);
        let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["main.go", "test.go", "wasmeval_main.go"]);
        assert!(files[0].1.contains("func _() {}"), "{}", files[0].1);
        assert!(files[1].1.contains("func TestAdd(t *__wasmeval_T)"));
        assert!(files[1].1.contains("assert := __wasmeval_assert_New(t)"));
        assert!(!files[1].1.contains("testify"));
        // main counts the failures and writes the line itself: nothing the candidate can call
        // or clear does.
        assert!(files[2].1.ends_with(
            "func main() {\n\tfailed := false\n\tif __wasmeval_run_test(\"TestAdd\", TestAdd) {\n\t\tfailed = true\n\t}\n\
             \tif failed {\n\t\tos.Exit(1)\n\t}\n\ttoken := \"\"\n\tif len(os.Args) > 1 {\n\t\ttoken = os.Args[1]\n\t}\n\
             \tos.Stdout.WriteString(\"\\n\" + token + \" end\\n\")\n}\n"
        ));
        assert!(!GO_ASSERT.contains("func __wasmeval_end_of_tests"));
        assert!(!GO_ASSERT.contains("var __wasmeval_failed"));
        // A candidate's own marker lines split only its own code.
        let forged = format!("x\n//wasmeval:file wasmeval_main.go\ny{program}");
        assert_eq!(go_files(&forged)[2].1, files[2].1);
    }

    #[test]
    fn a_multipl_e_candidate_is_put_in_package_main_and_keeps_its_own_imports() {
        let candidate = "// doc\npackage add_test\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\nfunc add(x int) int {\n    return x + len(strings.Fields(\"a\"))\n}\n";
        let driver = "package main\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tcandidate := add\n\t__wasmeval_case(0, func() interface{} { return candidate(1) })\n}\n";
        let program = calls_program(Language::Go, candidate, driver);
        let files = go_files(&program);
        let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            [
                "main.go",
                "test.go",
                "wasmeval_main.go",
                "wasmeval_calls.go"
            ]
        );
        // Unused imports dropped on their lines; `strings` not added (MultiPL-E's one file would
        // not compile either).
        assert_eq!(
            files[0].1,
            "// doc\npackage main\n\n\n\n\n\n\nfunc add(x int) int {\n    return x + len(strings.Fields(\"a\"))\n}\n"
        );
        assert!(files[1].1.contains("func TestAdd(t *__wasmeval_T) {"));
        assert!(!files[1].1.contains("\"testing\""));
        assert!(!files[1].1.contains("\"fmt\""));
        assert!(files[2].1.ends_with(
            "func main() {\n\t__wasmeval_report(\"loaded\")\n\tfailed := false\n\tif __wasmeval_run_test(\"TestAdd\", TestAdd) {\n\t\tfailed = true\n\t}\n\
             \tif failed {\n\t\tos.Exit(1)\n\t}\n\t__wasmeval_report(\"done\")\n}\n"
        ));
        assert!(files[3].1.contains("func __wasmeval_case("));
        assert_eq!(go_in_package_main("package x_test\n"), "package main\n");
        assert_eq!(
            go_in_package_main("/* a */ package  p;"),
            "/* a */ package  main;"
        );
    }

    #[test]
    fn a_rust_test_calls_its_macros_by_path_and_its_main_is_ours() {
        let test = "mod tests { use super::*; pub fn t<'a>(x: &'a str) { assert_eq!(f(1), vec![2]); ::std::assert!(true); } }\nfn main() { tests::t(\"assert!(no)\"); }";
        let program = assertion_program(
            Language::Rust,
            "fn f(x: i32) -> Vec<i32> { vec![x] }",
            "",
            test,
        );
        assert!(program.contains("::std::assert_eq!(f(1), ::std::vec![2]);"));
        assert!(program.contains("::std::assert!(true)"));
        assert!(!program.contains("::std::::std"));
        // Strings are not code.
        assert!(program.contains("\"assert!(no)\""));
        assert!(program.contains("fn __wasmeval_test_main() { tests::t("));
        assert!(program.contains("fn main() {\n    __wasmeval_test_main();"));
        // The candidate's own macros are untouched.
        assert!(program.starts_with("fn f(x: i32) -> Vec<i32> { vec![x] }"));
        // The prelude's values by full path, in expressions and patterns, not after `::` or `.`.
        let test = "fn main() { assert_eq!(g(1), None); if let Some(x) = h() { k(Ok(x), Option::None, y.Err); } }";
        let program = assertion_program(Language::Rust, "", "", test);
        assert!(program.contains(
            "::std::assert_eq!(g(1), ::std::option::Option::None); if let ::std::option::Option::Some(x) = h() \
             { k(::std::result::Result::Ok(x), Option::None, y.Err); }"
        ));
        let imports =
            "use std::option::Option::{None, Some};\nfn main() { assert_eq!(g(1), None); }";
        assert!(assertion_program(Language::Rust, "", "", imports)
            .contains("::std::assert_eq!(g(1), None)"));
    }
}
