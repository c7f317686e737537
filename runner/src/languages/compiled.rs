//! C, C++, Rust and Go samples, compiled by confined compilers ([`crate::toolchain`]) into WASI
//! modules: each `calls` suite is one program (the candidate and the suite's driver, which reports
//! each call's value; the host compares them with expected values the module never holds), each
//! assertion case is its own program (the candidate followed by the case's code, instrumented
//! and judged by `wasmeval_core::judging::compiled`: it passes only when the test's `main` reaches
//! its end and writes the run's token), and one build of the candidate runs the `io` cases.
//!
//! Every piece of the program the compiler sees (prelude, candidate, setup, test) is first given
//! the 64-bit `long` and `isize` of the hosts the benchmarks were written on, and in C++ sizes
//! (`x.size()`) as wide as their `size_t` ([`wasmeval_core::int_width`]); wasmeval's own support
//! code is not. A C++ program that compiles only with 32-bit sizes is built again without them.

use super::{execute, fresh_token, Context, LanguageRoute, Program};
use crate::sandbox::{cache, Entry, Invocation};
use crate::toolchain::{Compiled, Toolchains};
use anyhow::Context as _;
use wasmeval_core::int_width::{widen_integers, widen_sizes, with_size_helper};
use wasmeval_core::judging::compiled::{
    assertion_program, calls_program, judge_assertion_program, whole_program,
};
use wasmeval_core::judging::python::{judge, Layout};
use wasmeval_core::judging::token::Token;
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Language, Sample, Task, TestSuite, Verdict};

impl LanguageRoute for Toolchains {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        // Suites this route cannot run yet fail visibly: a sample must never pass a case it did
        // not run (with no case at all, it would pass).
        for suite in &task.tests {
            let TestSuite::Alternatives { sets, .. } = suite else {
                continue;
            };
            log.fail_all(
                sets.iter()
                    .flat_map(|set| set.cases.iter().map(|c| c.name.as_str())),
                &Outcome::new(
                    Verdict::HarnessError,
                    format!(
                        "alternatives suites are not run for {} samples yet",
                        task.language
                    ),
                ),
            );
        }
        let token = fresh_token()?;
        for suite in &task.tests {
            let TestSuite::Calls { setup, cases, .. } = suite else {
                continue;
            };
            // Compiled calls run as a driver program (C++, Rust and Go); a suite of arguments
            // has no program to call them with.
            let driver = matches!(task.language, Language::Cpp | Language::Rust | Language::Go)
                && !setup.trim().is_empty()
                && cases.iter().all(|c| c.args.is_empty());
            if !driver {
                log.fail_all(
                    cases.iter().map(|c| c.name.as_str()),
                    &Outcome::new(
                        Verdict::HarnessError,
                        format!(
                            "calls suites of {} samples must be a driver program (C++, Rust and \
                             Go, docs/formats.md), not arguments",
                            task.language
                        ),
                    ),
                );
                continue;
            }
            let source = |widths| {
                calls_program(
                    task.language,
                    &candidate(task, sample, widths),
                    &widen(task, widths, setup),
                )
            };
            let own: [&str; 2] = [&written(task, sample), setup];
            run_calls_suite(self, cx, task, suite, (&own, source), &token, log)?;
        }
        for (setup, case) in task.assertion_cases() {
            if let Some(skipped) = log.not_run(&case.name) {
                log.push(skipped);
                continue;
            }
            let source = |widths| {
                assertion_program(
                    task.language,
                    &candidate(task, sample, widths),
                    &widen(task, widths, setup),
                    &widen(task, widths, &case.code),
                )
            };
            let own: [&str; 3] = [&written(task, sample), setup, &case.code];
            match build_lp64(self, cx, task, &own, source)? {
                Err(outcome) => log.push(outcome.into_case(case.name.as_str())),
                Ok(program) => {
                    // The token reaches the program as argv[1], at run time: not in the module.
                    let execution = execute(cx, &program, &[token.as_str()], Vec::new(), log)?;
                    let outcome = judge_assertion_program(&execution, &token);
                    let stdout = String::from_utf8_lossy(&execution.output.stdout);
                    let own_output = token.scan(&stdout).own_output;
                    log.record(&case.name, &execution, &own_output, outcome);
                }
            }
        }
        Ok(None)
    }

    fn whole_program(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        build_lp64(self, cx, task, &[&written(task, sample)], |widths| {
            whole_program(task.language, &candidate(task, sample, widths))
        })
    }
}

/// How much of LP64's integer model a program's own pieces get ([`wasmeval_core::int_width`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Widths {
    /// None: the pieces as written, for the Rust check on the host ([`build_lp64`]).
    AsWritten,
    /// 64-bit `long` and `isize`, and in C++ 64-bit sizes: what is tried first.
    WithSizes,
    /// 64-bit `long` and `isize` only: for a program that compiles only with 32-bit sizes.
    IntegersOnly,
}

/// A piece of the program's own code (candidate, setup or test) with `widths`.
fn widen(task: &Task, widths: Widths, code: &str) -> String {
    if widths == Widths::AsWritten {
        return code.to_owned();
    }
    let code = widen_integers(task.language, code);
    match widths {
        Widths::WithSizes => widen_sizes(task.language, &code),
        _ => code,
    }
}

/// The sample's program after the task's prelude, as written.
fn written(task: &Task, sample: &Sample) -> String {
    task.with_prelude(sample.program(task))
}

/// The sample's program after the task's prelude, with `widths`.
fn candidate(task: &Task, sample: &Sample, widths: Widths) -> String {
    widen(task, widths, &written(task, sample))
}

/// Builds the program `source` composes as the 64-bit hosts the benchmarks were written on
/// would: first with 64-bit sizes; when that does not compile and the sizes changed the source,
/// again without them (a size typed `unsigned long long` can break what compiles with the 32-bit
/// `size_t`: `std::max(v.size(), (size_t)1)` deduces two types). A Rust program whose `own` code
/// (candidate, setup, test; not wasmeval's support) names both `isize` and `i64` is first
/// type-checked as written for the host, where the two are distinct types: widened, it would
/// compile where rustc rejects it (E0308).
fn build_lp64(
    toolchains: &Toolchains,
    cx: &Context<'_>,
    task: &Task,
    own: &[&str],
    source: impl Fn(Widths) -> String,
) -> anyhow::Result<Result<Program, Outcome>> {
    let names = |word| own.iter().any(|code| has_word(code, word));
    if task.language == Language::Rust && names("isize") && names("i64") {
        let written = source(Widths::AsWritten);
        if let Some(message) = toolchains.check_rust_on_host(&written, &cx.compile_limits)? {
            return Ok(Err(Outcome::new(Verdict::CompileError, message)));
        }
    }
    let narrow = source(Widths::IntegersOnly);
    let wide = source(Widths::WithSizes);
    if wide != narrow {
        match build(toolchains, cx, task, &with_size_helper(&wide))? {
            Err(outcome) if outcome.verdict == Verdict::CompileError => {}
            built => return Ok(built),
        }
    }
    build(toolchains, cx, task, &narrow)
}

/// Whether `word` occurs in `code` as a whole word (comments and strings included: it only
/// decides whether a check runs).
fn has_word(code: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(word)
        .any(|(at, _)| !code[..at].ends_with(part) && !code[at + word.len()..].starts_with(part))
}

/// Runs one `calls` suite's driver (the candidate and the driver, which `source` composes with
/// `calls_program` at the widths asked from the `own` code) and judges the values it reports on the host, as the Python harness's.
fn run_calls_suite(
    toolchains: &Toolchains,
    cx: &Context<'_>,
    task: &Task,
    suite: &TestSuite,
    (own, source): (&[&str], impl Fn(Widths) -> String),
    token: &Token,
    log: &mut CaseLog,
) -> anyhow::Result<()> {
    // The suite alone: its cases are numbered from 0 in its driver.
    let alone = Task {
        tests: vec![suite.clone()],
        ..task.clone()
    };
    let layout = Layout::of(&alone);
    match build_lp64(toolchains, cx, task, own, source)? {
        Err(outcome) => log.fail_all(layout.names.iter().map(String::as_str), &outcome),
        Ok(program) => {
            let execution = execute(cx, &program, &[token.as_str()], Vec::new(), log)?;
            judge(&layout, token, &execution, log);
        }
    }
    Ok(())
}

/// Compiles `source` in the task's language into a program (a WASI command with an empty `/tmp`
/// and nothing else), or the outcome of a source that does not build.
fn build(
    toolchains: &Toolchains,
    cx: &Context<'_>,
    task: &Task,
    source: &str,
) -> anyhow::Result<Result<Program, Outcome>> {
    let wasm = match toolchains.compile(task.language, source, &cx.compile_limits)? {
        Compiled::Module { wasm, .. } => wasm,
        Compiled::Error { message } => {
            return Ok(Err(Outcome::new(Verdict::CompileError, message)))
        }
        Compiled::Timeout { message } => {
            return Ok(Err(Outcome::timeout(
                None,
                format!("compilation: {message}"),
            )))
        }
    };
    let module = cache::load_module(cx.sandbox.engine(), &wasm, cx.module_cache)
        .context("cannot load a compiled sample")?;
    if let Some(problem) = cx.sandbox.foreign_imports(&module) {
        return Ok(Err(Outcome::new(Verdict::CompileError, problem)));
    }
    Ok(Ok(Program {
        module,
        entry: Entry::Command,
        invocation: Invocation {
            args: vec!["main".into()],
            ..Invocation::default()
        },
        scratch: true,
        interpreter: None,
        job: None,
    }))
}
