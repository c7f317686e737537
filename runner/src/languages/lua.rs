//! Lua samples: Lua 5.4 built as a WASI command (`guests/lua/main.c`, installed by
//! `scripts/install-lua-runtime`) runs each program with the safe libraries only (no `debug`,
//! no `package`, no `io.popen`/`os.execute`, text chunks only) and `require('luaunit')`, our
//! stand-in `guests/lua/luaunit.lua`, written into every job folder.
//!
//! - An **assertion** case (MultiPL-E's `lu.assertEquals(..)` tests ending in
//!   `os.exit(lu.LuaUnit.run())`) is one run of the candidate and the suite's setup and case code,
//!   joined into one chunk as MultiPL-E joins them, the tests' globals in a table the candidate
//!   cannot reach (its local's name is drawn per run). It passes only when the guest writes
//!   `\n<token> ok\n` at the end, which its C code does after the tests' luaunit reported a run
//!   with tests and no failure or error; failures alone are `assertion` (a `wrong_answer`), an
//!   error a `runtime_error`. The token is 128 random bits in argv, which Lua never sees, so
//!   exiting early (`os.exit(0)`, even from inside a test) or printing never passes.
//! - A **calls** case (MultiPL-E's `lu.assertEquals(candidate(..), literal)` as the importer
//!   converts them, `formats/lua_asserts.rs`) runs the program ending in `return <entry point>`,
//!   then the guest calls it with the case's arguments and reports the returned value as plain
//!   data after the token (`guests/lua/calls.lua`); the host compares it with the expected value,
//!   which never enters the guest.
//! - **io** cases run the program with the case's stdin ([`super::run_io_suites`]).
//! - `alternatives` suites are Python's: every case says so (a harness error).
//!
//! The guest reports in the JavaScript guest's `ok`/`assertion`/`value` lines, so judging is
//! `wasmeval_core::judging::javascript`'s.

use super::{execute, fresh_token, Context, LanguageRoute, Program};
use crate::sandbox::{cache, temp_folder, Entry, Folder, Invocation, Preopen, Sandbox};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::judging::calls::{Expected, Truthiness};
use wasmeval_core::judging::javascript::{judge_assertion, judge_call};
use wasmeval_core::judging::token::Token;
use wasmeval_core::judging::{CaseLog, Execution, Outcome};
use wasmeval_core::{Sample, Task, TestSuite, Verdict};
use wasmtime::Module;

/// The luaunit stand-in, written into every job folder.
const LUAUNIT: &str = include_str!("../../../guests/lua/luaunit.lua");

/// The plain-data form of `calls` values, written into every job folder.
const CALLS: &str = include_str!("../../../guests/lua/calls.lua");

/// `runtime.json`, written by `scripts/install-lua-runtime`.
#[derive(Debug, Deserialize)]
struct Manifest {
    /// The module file, relative to the runtime folder.
    module: PathBuf,
}

/// The loaded Lua guest, compiled for the sandbox's engine (and cached).
pub struct LuaRuntime {
    module: Module,
    sha256: String,
}

/// The Lua guest found in its folder, its machine code cached or still to compile.
pub struct FoundLua(cache::Found<Manifest>);

impl FoundLua {
    /// The module's size in bytes when it has to be compiled first.
    pub fn to_compile(&self) -> Option<u64> {
        self.0.to_compile()
    }

    /// The runtime, its module compiled (once, then cached in `cache_dir`) when needed.
    pub fn load(self, sandbox: &Sandbox, cache_dir: &Path) -> anyhow::Result<LuaRuntime> {
        let installed = self.0.load(sandbox.engine(), cache_dir)?;
        Ok(LuaRuntime {
            module: installed.module,
            sha256: installed.sha256,
        })
    }
}

impl LuaRuntime {
    /// Finds the runtime in `dir` and looks its module up in the cache in `cache_dir`.
    pub fn find(sandbox: &Sandbox, dir: &Path, cache_dir: &Path) -> anyhow::Result<FoundLua> {
        Ok(FoundLua(cache::find_installed(
            sandbox.engine(),
            dir,
            cache_dir,
            "Lua runtime (run scripts/setup or scripts/install-lua-runtime)",
            |m: &Manifest| &m.module,
        )?))
    }

    /// SHA-256 of the guest module, hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// A program of the guest with `args` (then `/job/program.lua`): the job folder read-only at
    /// `/job`, a fresh `/tmp` per execution, no environment.
    fn program(&self, args: &[&str], job: tempfile::TempDir) -> Program {
        let invocation = Invocation {
            args: ["lua", "--luaunit", "/job/luaunit.lua"]
                .iter()
                .chain(args)
                .chain(&["/job/program.lua"])
                .map(|a| a.to_string())
                .collect(),
            env: Vec::new(),
            preopens: vec![Preopen {
                host: job.path().to_owned(),
                guest: "/job".into(),
                writable: false,
            }],
            stdin: Vec::new(),
        };
        Program {
            module: self.module.clone(),
            entry: Entry::Command,
            invocation,
            scratch: true,
            interpreter: Some("Lua"),
            job: Some(job),
        }
    }

    /// A job folder with luaunit, `program` as `program.lua` and, for an assertion case, `tests`
    /// as `tests.lua`.
    fn job(program: &str, tests: Option<&str>) -> anyhow::Result<tempfile::TempDir> {
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("luaunit.lua"), LUAUNIT)?;
        std::fs::write(job.path().join("calls.lua"), CALLS)?;
        std::fs::write(job.path().join("program.lua"), program)?;
        if let Some(tests) = tests {
            std::fs::write(job.path().join("tests.lua"), tests)?;
        }
        Ok(job)
    }
}

/// The Lua name of the tests' scope in one run: drawn like a token, so the candidate's code, which
/// cannot name it, cannot reach the scope (see `guests/lua/main.c`).
fn fresh_scope() -> anyhow::Result<String> {
    Ok(fresh_token()?.as_str().replace('-', "_"))
}

impl LanguageRoute for LuaRuntime {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        let candidate = task.with_prelude(sample.program(task));
        let token = fresh_token()?;
        for suite in &task.tests {
            match suite {
                TestSuite::Assertions { setup, cases } => {
                    for case in cases {
                        if let Some(skipped) = log.not_run(&case.name) {
                            log.push(skipped);
                            continue;
                        }
                        // MultiPL-E's tests come alone: their lines then start right after the
                        // program's, as MultiPL-E joins them.
                        let tests = match setup.is_empty() {
                            true => case.code.clone(),
                            false => format!("{setup}\n{}", case.code),
                        };
                        let scope = fresh_scope()?;
                        let args = ["--token", token.as_str(), "--tests", "/job/tests.lua"];
                        let program = self.program(
                            &[&args[..], &["--scope", &scope]].concat(),
                            Self::job(&candidate, Some(&tests))?,
                        );
                        let execution = execute(cx, &program, &[], Vec::new(), log)?;
                        let outcome = judge_assertion(&execution, &token);
                        record(log, &case.name, &execution, &token, outcome);
                    }
                }
                // Run by the shared io route.
                TestSuite::Io { .. } => {}
                TestSuite::Calls {
                    setup,
                    entry_point,
                    tolerance,
                    cases,
                } => {
                    let source = match setup.is_empty() {
                        true => candidate.clone(),
                        false => format!("{candidate}\n{setup}"),
                    };
                    for case in cases {
                        if let Some(skipped) = log.not_run(&case.name) {
                            log.push(skipped);
                            continue;
                        }
                        if !is_lua_name(entry_point) {
                            log.push(
                                Outcome::new(
                                    Verdict::HarnessError,
                                    format!("the entry point `{entry_point}` is not a Lua name"),
                                )
                                .into_case(case.name.as_str()),
                            );
                            continue;
                        }
                        let args = serde_json::to_string(&case.args)?;
                        let call = [
                            "--calls",
                            "/job/calls.lua",
                            "--token",
                            token.as_str(),
                            "--call",
                            entry_point.as_str(),
                            "--args",
                            &args,
                        ];
                        let program = self.program(&call, Self::job(&source, None)?);
                        let execution = execute(cx, &program, &[], Vec::new(), log)?;
                        let expected = Expected::of(case, *tolerance, Truthiness::Lua);
                        let outcome = judge_call(&execution, &token, &expected);
                        record(log, &case.name, &execution, &token, outcome);
                    }
                }
                // MBUPP's alternatives are Python's.
                TestSuite::Alternatives { sets, .. } => log.fail_all(
                    sets.iter()
                        .flat_map(|set| set.cases.iter().map(|case| case.name.as_str())),
                    &Outcome::new(
                        Verdict::HarnessError,
                        "alternatives suites are run for Python samples only",
                    ),
                ),
            }
        }
        Ok(None)
    }

    fn whole_program(
        &self,
        _cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        let job = Self::job(&task.with_prelude(sample.program(task)), None)?;
        Ok(Ok(self.program(&[], job)))
    }
}

/// Whether `name` is a Lua name that is not a keyword (what the guest's `--call` returns).
fn is_lua_name(name: &str) -> bool {
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

/// Adds a judged case to `log`; the excerpts shown are the program's own output, without the
/// token's lines.
fn record(log: &mut CaseLog, name: &str, execution: &Execution, token: &Token, outcome: Outcome) {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let own_output = token.scan(&stdout).own_output;
    log.record(name, execution, &own_output, outcome);
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
    fn a_scope_name_is_a_lua_name_drawn_per_run() {
        let (a, b) = (fresh_scope().unwrap(), fresh_scope().unwrap());
        assert!(is_lua_name(&a), "{a}");
        assert_ne!(a, b);
    }
}
