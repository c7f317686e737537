//! Lua samples: Lua 5.4 built as a WASI command (`guests/lua/main.c`, installed by
//! `scripts/install-lua-runtime`) runs each program with the safe libraries only (no `debug`,
//! no `package`, no `io.popen`/`os.execute`, text chunks only), `require('luaunit')` our stand-in
//! `guests/lua/luaunit.lua` and `guests/lua/calls.lua`, both written into every job folder.
//!
//! - An **assertion** case (MultiPL-E's `lu.assertEquals(..)` tests ending in
//!   `os.exit(lu.LuaUnit.run())`, when the importer could not convert them) is one run of the
//!   candidate and the suite's setup and case code, joined into one chunk as MultiPL-E joins
//!   them, the tests' globals in a table the candidate cannot reach (its local's name,
//!   [`scope_name`], is secret), where the standard names (`ipairs`, `math`, `string`, ...) are a
//!   snapshot taken before the candidate runs and the string metatable's methods come from that
//!   snapshot, so rebinding or patching them changes nothing for the tests. It passes only when
//!   the guest writes `\n<token> ok\n` at the end, which its C code does after the tests'
//!   luaunit reported a run with tests and no failure or error; failures alone are `assertion`
//!   (a `wrong_answer`), an error a `runtime_error`. The token is in argv, which Lua never sees,
//!   so exiting early (`os.exit(0)`, even from inside a test) or printing never passes.
//! - A **calls** case (MultiPL-E's `lu.assertEquals(candidate(..), literal)` as
//!   `formats/lua_asserts.rs` converts them) runs the program ending in `return <entry point>`,
//!   then the guest calls it with the case's arguments and reports the returned value as plain
//!   data after the token; the host compares it with the expected value, which never enters the
//!   guest.
//! - **io** cases run the whole program with the case's stdin.
//! - `alternatives` suites are Python's: every case says so (a harness error).
//!
//! The guest reports in the JavaScript guest's `ok`/`assertion`/`value` lines, so judging is
//! [`crate::judging::javascript`]'s.

use super::{Guest, Job, JobFile, OneExecutionPerCase, Preload, RunWithin};
use crate::judging::calls::Operators;
use crate::judging::token::Token;
use crate::judging::CaseLog;
use crate::sample::Sample;
use crate::task::Task;

/// The luaunit stand-in, written into every job folder.
pub const LUAUNIT: &str = include_str!("../../../guests/lua/luaunit.lua");

/// The plain-data form of `calls` values, written into every job folder.
pub const CALLS: &str = include_str!("../../../guests/lua/calls.lua");

/// A job running `program` as `/job/program.lua` (with `tests` as `/job/tests.lua` for an
/// assertion case) with `args` before the program; every job gets a fresh `/tmp`.
fn job(program: &str, tests: Option<&str>, args: &[&str]) -> Job {
    let mut files = vec![
        JobFile::new("luaunit.lua", LUAUNIT),
        JobFile::new("calls.lua", CALLS),
        JobFile::new("program.lua", program),
    ];
    if let Some(tests) = tests {
        files.push(JobFile::new("tests.lua", tests));
    }
    Job {
        guest: Guest::Lua,
        args: ["--luaunit", "/job/luaunit.lua"]
            .iter()
            .chain(args)
            .chain(&["/job/program.lua"])
            .map(|a| a.to_string())
            .collect(),
        env: Vec::new(),
        files,
        scratch: true,
        stdin: Vec::new(),
        preload: Preload::Standard,
    }
}

/// The Lua name of the tests' scope (a local declared before the candidate's program, in the same
/// chunk), which the program must not be able to name: drawn from SHA-256 of the program and the
/// tests themselves, so the program's text would have to contain a digest of itself (a fixed point
/// nobody can find). Lua never sees the name at run time: a local's name is reachable only
/// through the `debug` library, which the guest does not have, and no error message names it.
/// Not drawn from the run's random token: Lua hashes the name when it compiles the chunk, and a
/// different name each run made the fuel of the same sample differ by a few hundred units.
pub fn scope_name(program: &str, tests: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in [program, tests] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("wasmeval_{hex}")
}

/// Whether `name` is a Lua name that is not a keyword (what the guest's `--call` returns).
pub fn is_lua_name(name: &str) -> bool {
    const KEYWORDS: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

/// Runs and judges `task`'s assertion and `calls` suites for `sample` into `log`, one execution
/// per case, through `run`.
pub fn run_case_suites<E>(
    task: &Task,
    sample: &Sample,
    token: &Token,
    run: &mut RunWithin<'_, E>,
    log: &mut CaseLog,
) -> Result<Option<String>, E> {
    let candidate = task.with_prelude(sample.program(task));
    let assertion = |setup: &str, code: &str| {
        // MultiPL-E's tests come alone: their lines then start right after the program's, as
        // MultiPL-E joins them.
        let tests = match setup.is_empty() {
            true => code.to_string(),
            false => format!("{setup}\n{code}"),
        };
        let scope = scope_name(&candidate, &tests);
        let args = [
            "--token",
            token.as_str(),
            "--tests",
            "/job/tests.lua",
            "--scope",
            &scope,
        ];
        job(&candidate, Some(&tests), &args)
    };
    let call = |setup: &str, entry_point: &str, args: &str| {
        let source = match setup.is_empty() {
            true => candidate.clone(),
            false => format!("{candidate}\n{setup}"),
        };
        let call = [
            "--calls",
            "/job/calls.lua",
            "--token",
            token.as_str(),
            "--call",
            entry_point,
            "--args",
            args,
        ];
        job(&source, None, &call)
    };
    let guest = OneExecutionPerCase {
        assertion: &assertion,
        call: &call,
        entry_point_error: |name| {
            (!is_lua_name(name)).then(|| format!("the entry point `{name}` is not a Lua name"))
        },
        operators: Operators::Lua,
    };
    super::run_cases_one_by_one(task, &guest, token, run, log)
}

/// The whole program, run for `io` cases.
pub fn whole_program(task: &Task, sample: &Sample) -> Job {
    job(&task.with_prelude(sample.program(task)), None, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_points_are_lua_names_that_are_not_keywords() {
        assert!(is_lua_name("strlen"));
        assert!(is_lua_name("_f2"));
        assert!(!is_lua_name("2f"));
        assert!(!is_lua_name("end"));
        assert!(!is_lua_name("a.b"));
        assert!(!is_lua_name("f()"));
        assert!(!is_lua_name(""));
    }

    #[test]
    fn the_scope_is_a_lua_name_drawn_from_the_program_and_tests_not_the_token() {
        let scope = scope_name("function f() end", "lu.assertEquals(f(), nil)");
        assert!(is_lua_name(&scope), "{scope}");
        assert_eq!(scope.len(), "wasmeval_".len() + 32);
        // The same sample gets the same name on every run (and so the same fuel).
        assert_eq!(
            scope,
            scope_name("function f() end", "lu.assertEquals(f(), nil)")
        );
        assert_ne!(
            scope,
            scope_name("function f() end ", "lu.assertEquals(f(), nil)")
        );
        // The parts are delimited: moving text from one to the other changes the name.
        assert_ne!(scope_name("ab", "c"), scope_name("a", "bc"));
    }

    #[test]
    fn jobs_hold_luaunit_calls_lua_and_the_program_with_a_fresh_tmp() {
        let job = job("print(1)", Some("tests"), &["--x"]);
        assert_eq!(job.guest, Guest::Lua);
        assert_eq!(
            job.args,
            ["--luaunit", "/job/luaunit.lua", "--x", "/job/program.lua"]
        );
        let names: Vec<&str> = job.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["luaunit.lua", "calls.lua", "program.lua", "tests.lua"]
        );
        assert!(job.scratch);
    }
}
