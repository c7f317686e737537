//! TypeScript: types stripped on the host by oxc (parser, semantic analysis, transformer, code
//! generator, all from crates.io), then the JavaScript guest runs the result with its prelude,
//! `calls` and `io` suites ([`super::javascript`]). Syntax that cannot be stripped or does not
//! parse is a `compile_error` naming the line; type errors are not checked (no type checker runs,
//! as with `node --experimental-strip-types`).
//!
//! The stripper runs in a child process (`wasmeval __strip-types`, [`crate::commands::strip_types`])
//! with CPU and memory limits of its own, one per sample: oxc's parser recurses once per nesting
//! level with no bound, so a hostile program could otherwise overflow the evaluating process's
//! stack (killing a `run`, a server or the Python process) or take gigabytes. A stripper that
//! dies is the sample's `compile_error`.

use super::javascript::JsRuntime;
use super::{Context, LanguageRoute, Program};
use crate::toolchain::confine;
use oxc_allocator::Allocator;
use oxc_codegen::Codegen;
use oxc_parser::Parser;
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use oxc_transformer::{TransformOptions, Transformer};
use std::path::{Path, PathBuf};
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{AssertionCase, Language, Sample, SampleCode, Task, TestSuite, Verdict};

/// The TypeScript route: the JavaScript guest behind a type stripper.
pub struct TypeScript {
    js: JsRuntime,
    /// The `wasmeval` executable that strips types in a child process; `None` where this process
    /// cannot name one (an embedder that named no helper), which makes every sample a host error.
    helper: Option<PathBuf>,
}

impl TypeScript {
    /// The route over the loaded JavaScript guest, stripping types with `helper`'s
    /// `__strip-types`.
    pub fn new(js: JsRuntime, helper: Option<PathBuf>) -> TypeScript {
        TypeScript { js, helper }
    }

    /// Each of `pieces` stripped of its types, or the line of its syntax error; `Ok(Err)` when the
    /// stripper died (a limit of its own: too deep, too large, too slow), which is the sample's
    /// fault; `Err` when it could not be run at all.
    fn strip(
        &self,
        pieces: &[&str],
    ) -> anyhow::Result<Result<Vec<Result<String, String>>, String>> {
        let helper = self.helper.as_ref().ok_or_else(|| {
            anyhow::anyhow!(
                "TypeScript needs the wasmeval executable to strip types in a process of their \
                 own, and this process cannot name one"
            )
        })?;
        let input = serde_json::to_vec(pieces)?;
        // The JavaScript is about as long as the TypeScript; a generous cap.
        let cap = input.len().saturating_mul(4).saturating_add(1 << 20);
        let mut command = std::process::Command::new(helper);
        command.arg("__strip-types").env_clear();
        let wall = std::time::Duration::from_secs(4 * crate::commands::strip_types::CPU_SECONDS);
        let finished = confine::run_child(command, Some(input), cap, wall)?;
        let died = |why: &str| {
            Ok(Err(format!(
                "the TypeScript type stripper {why} (it has {} CPU seconds and {} MiB of its own)",
                crate::commands::strip_types::CPU_SECONDS,
                crate::commands::strip_types::MEMORY_BYTES >> 20
            )))
        };
        if finished.wall_killed {
            return died("took too long");
        }
        if !finished.status.success() {
            let said = String::from_utf8_lossy(&finished.stderr);
            if finished.status.code() == Some(2) {
                // Our own failure to read, confine or answer: a host error.
                anyhow::bail!("the TypeScript stripper failed: {}", said.trim());
            }
            use std::os::unix::process::ExitStatusExt;
            let signal = finished.status.signal();
            return died(if said.contains("overflowed its stack") {
                "ran out of stack: the program nests too deeply"
            } else if said.contains("memory allocation") {
                "ran out of memory"
            } else if matches!(signal, Some(9) | Some(24)) {
                "ran out of CPU time"
            } else {
                "ended without an answer"
            });
        }
        let answers: Vec<serde_json::Value> = match serde_json::from_slice(&finished.stdout) {
            Ok(answers) => answers,
            Err(_) if finished.discarded > 0 => return died("wrote more than expected"),
            Err(error) => anyhow::bail!("the TypeScript stripper's answer: {error}"),
        };
        anyhow::ensure!(
            answers.len() == pieces.len(),
            "the TypeScript stripper answered {} pieces of {}",
            answers.len(),
            pieces.len()
        );
        Ok(Ok(answers
            .into_iter()
            .map(
                |answer| match (answer["ok"].as_str(), answer["error"].as_str()) {
                    (Some(javascript), _) => Ok(javascript.to_owned()),
                    (None, Some(error)) => Err(error.to_owned()),
                    (None, None) => Err("the stripper gave no answer".to_owned()),
                },
            )
            .collect()))
    }
}

impl LanguageRoute for TypeScript {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        match as_javascript(self, task, sample)? {
            Ok((task, sample)) => self.js.run_case_suites(cx, &task, &sample, log),
            Err(outcome) => {
                let names: Vec<String> = case_names(task);
                log.fail_all(names.iter().map(String::as_str), &outcome);
                Ok(None)
            }
        }
    }

    fn whole_program(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        match as_javascript(self, task, sample)? {
            Ok((task, sample)) => self.js.whole_program(cx, &task, &sample),
            Err(outcome) => Ok(Err(outcome)),
        }
    }
}

/// The names of the cases the JavaScript route judges (not `io`'s, which the shared route runs).
fn case_names(task: &Task) -> Vec<String> {
    task.tests
        .iter()
        .flat_map(|suite| match suite {
            TestSuite::Assertions { cases, .. } => cases.iter().map(|c| c.name.clone()).collect(),
            TestSuite::Calls { cases, .. } => cases.iter().map(|c| c.name.clone()).collect(),
            TestSuite::Alternatives { sets, .. } => sets
                .iter()
                .flat_map(|s| s.cases.iter().map(|c| c.name.clone()))
                .collect(),
            TestSuite::Io { .. } => Vec::new(),
        })
        .collect()
}

/// The task and sample in JavaScript: the candidate program (prompt and completion, or the
/// solution), the prelude, and each suite's setup and assertion code stripped of their types.
/// A piece that does not strip is the sample's `compile_error` (the task's pieces are the
/// benchmark's, but a broken one must not look like the sample passing).
fn as_javascript(
    route: &TypeScript,
    task: &Task,
    sample: &Sample,
) -> anyhow::Result<Result<(Task, Sample), Outcome>> {
    // Every piece, named, in one list, stripped by one child process; then put back in order.
    let program = sample.program(task);
    let mut pieces: Vec<(String, &str)> = vec![
        ("program.ts".into(), &program),
        ("the prelude".into(), &task.prelude),
    ];
    for suite in &task.tests {
        match suite {
            TestSuite::Assertions { setup, cases } => {
                pieces.push(("the tests' setup".into(), setup));
                for case in cases {
                    pieces.push((format!("test `{}`", case.name), &case.code));
                }
            }
            TestSuite::Calls { setup, .. } => pieces.push(("the tests' setup".into(), setup)),
            _ => {}
        }
    }
    let sources: Vec<&str> = pieces.iter().map(|(_, source)| *source).collect();
    let stripped = match route.strip(&sources)? {
        Ok(stripped) => stripped,
        Err(why) => return Ok(Err(Outcome::new(Verdict::CompileError, why))),
    };
    let mut stripped = pieces.iter().zip(stripped).map(|((what, _), result)| {
        result.map_err(|error| Outcome::new(Verdict::CompileError, format!("{what}: {error}")))
    });
    let mut next = || stripped.next().expect("one answer per piece");
    let program = match next() {
        Ok(program) => program,
        Err(outcome) => return Ok(Err(outcome)),
    };
    let prelude = match next() {
        Ok(prelude) => prelude,
        Err(outcome) => return Ok(Err(outcome)),
    };
    let mut tests = Vec::with_capacity(task.tests.len());
    let mut rebuild = || -> Result<(), Outcome> {
        for suite in &task.tests {
            tests.push(match suite {
                TestSuite::Assertions { cases, .. } => TestSuite::Assertions {
                    setup: next()?,
                    cases: cases
                        .iter()
                        .map(|case| {
                            Ok(AssertionCase {
                                name: case.name.clone(),
                                code: next()?,
                            })
                        })
                        .collect::<Result<_, Outcome>>()?,
                },
                TestSuite::Calls {
                    entry_point,
                    tolerance,
                    cases,
                    ..
                } => TestSuite::Calls {
                    setup: next()?,
                    entry_point: entry_point.clone(),
                    tolerance: *tolerance,
                    cases: cases.clone(),
                },
                other => other.clone(),
            });
        }
        Ok(())
    };
    if let Err(outcome) = rebuild() {
        return Ok(Err(outcome));
    }
    let task = Task {
        language: Language::Javascript,
        prelude,
        tests,
        ..task.clone()
    };
    let sample = Sample {
        code: SampleCode::Solution(program),
        ..sample.clone()
    };
    Ok(Ok((task, sample)))
}

/// `source` with its TypeScript types removed (enums and namespaces become JavaScript), or the
/// first syntax error as `line L, column C: message`.
pub fn strip_types(source: &str) -> Result<String, String> {
    if source.trim().is_empty() {
        return Ok(source.to_owned());
    }
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, source, SourceType::ts()).parse();
    if let Some(error) = parsed.diagnostics.first() {
        return Err(describe(source, error));
    }
    if parsed.panicked {
        return Err("the program does not parse as TypeScript".into());
    }
    let mut program = parsed.program;
    let semantic = SemanticBuilder::new()
        .with_excess_capacity(2.0)
        // The enum transform reads member values the semantic pass computes only when asked.
        .with_enum_eval(true)
        // Errors the parser leaves to the semantic pass (a `namespace` inside a block): without
        // it they would reach the guest as code no engine parses.
        .with_check_syntax_error(true)
        .build(&program);
    if let Some(error) = semantic.diagnostics.first() {
        return Err(describe(source, error));
    }
    let scoping = semantic.semantic.into_scoping();
    let options = TransformOptions::default();
    let transformed = Transformer::new(&allocator, Path::new("program.ts"), &options)
        .build_with_scoping(scoping, &mut program);
    if let Some(error) = transformed.diagnostics.first() {
        return Err(describe(source, error));
    }
    Ok(Codegen::new().build(&program).code)
}

/// A diagnostic as `line L, column C: message`, from its first label's position.
fn describe(source: &str, error: &oxc_diagnostics::OxcDiagnostic) -> String {
    let offset = error.labels.first().map(|label| label.offset());
    match offset {
        Some(offset) => {
            let before = source.get(..offset as usize).unwrap_or(source);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: {}", error.message)
        }
        None => error.message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_stripped_and_enums_become_javascript() {
        let js = strip_types(
            "function add(a: number, b: number): number { return a + b; }\n\
             interface P { x: number }\n\
             enum Color { Red, Green }\n\
             const p = <P>{ x: 1 };\n\
             declare var require: any;\n",
        )
        .unwrap();
        assert!(js.contains("function add(a, b)"), "{js}");
        assert!(
            !js.contains("interface") && !js.contains(": number"),
            "{js}"
        );
        assert!(
            js.contains("Color[\"Red\"]") || js.contains("Color.Red"),
            "{js}"
        );
        assert!(!js.contains("declare"), "{js}");
    }

    #[test]
    fn a_namespace_inside_a_block_is_refused_on_the_host() {
        let error = strip_types("{\n  namespace n { export const a = 1; }\n}\n").unwrap_err();
        assert!(
            error.starts_with("line 2, column 3: A namespace declaration"),
            "{error}"
        );
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let error = strip_types("let a = 1;\nfunction (x: number {\n").unwrap_err();
        assert!(error.starts_with("line 2, column "), "{error}");
    }
}
