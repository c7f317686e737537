//! TypeScript: types stripped on the host by oxc (parser, semantic analysis, transformer, code
//! generator, all from crates.io), then the JavaScript guest runs the result with its prelude,
//! `calls` and `io` suites ([`super::javascript`]). Syntax that cannot be stripped or does not
//! parse is a `compile_error` naming the line; type errors are not checked (no type checker runs,
//! as with `node --experimental-strip-types`).

use super::javascript::JsRuntime;
use super::{Context, LanguageRoute, Program};
use oxc_allocator::Allocator;
use oxc_codegen::Codegen;
use oxc_parser::Parser;
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use oxc_transformer::{TransformOptions, Transformer};
use std::path::Path;
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{AssertionCase, Language, Sample, SampleCode, Task, TestSuite, Verdict};

/// The TypeScript route: the JavaScript guest behind a type stripper.
pub struct TypeScript {
    js: JsRuntime,
}

impl TypeScript {
    /// The route over the loaded JavaScript guest.
    pub fn new(js: JsRuntime) -> TypeScript {
        TypeScript { js }
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
        match as_javascript(task, sample) {
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
        match as_javascript(task, sample) {
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
fn as_javascript(task: &Task, sample: &Sample) -> Result<(Task, Sample), Outcome> {
    let strip = |what: &str, source: &str| {
        strip_types(source)
            .map_err(|error| Outcome::new(Verdict::CompileError, format!("{what}: {error}")))
    };
    let program = strip("program.ts", &sample.program(task))?;
    let mut tests = Vec::with_capacity(task.tests.len());
    for suite in &task.tests {
        tests.push(match suite {
            TestSuite::Assertions { setup, cases } => TestSuite::Assertions {
                setup: strip("the tests' setup", setup)?,
                cases: cases
                    .iter()
                    .map(|case| {
                        Ok(AssertionCase {
                            name: case.name.clone(),
                            code: strip(&format!("test `{}`", case.name), &case.code)?,
                        })
                    })
                    .collect::<Result<_, Outcome>>()?,
            },
            TestSuite::Calls {
                setup,
                entry_point,
                tolerance,
                cases,
            } => TestSuite::Calls {
                setup: strip("the tests' setup", setup)?,
                entry_point: entry_point.clone(),
                tolerance: *tolerance,
                cases: cases.clone(),
            },
            other => other.clone(),
        });
    }
    let task = Task {
        language: Language::Javascript,
        prelude: strip("the prelude", &task.prelude)?,
        tests,
        ..task.clone()
    };
    let sample = Sample {
        code: SampleCode::Solution(program),
        ..sample.clone()
    };
    Ok((task, sample))
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
