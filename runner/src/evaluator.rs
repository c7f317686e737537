//! The evaluator: runs one sample by its task's language. Python samples run in the interpreter
//! guest (assertion and alternative suites through the harness, `io` suites as a script);
//! JavaScript samples in the QuickJS guest ([`crate::javascript`]); Rust, C and C++ samples are
//! compiled, confined, to WASI modules.

use crate::analysis;
use crate::io_tests::{abnormal_end, excerpt, has_io_suites, run_io_suites, IoRun, Program};
use crate::javascript::JsRuntime;
use crate::python::PythonRuntime;
use crate::sandbox::{cache, temp_folder, Entry, Execution, Folder, Invocation, Limits, Sandbox};
use crate::toolchain::{CompileLimits, Compiled, Toolchains};
use anyhow::Context;
use std::path::PathBuf;
use wasmeval_core::{
    CaseResult, Language, Sample, SampleResult, Task, TestSuite, TimeoutCause, Verdict,
};

/// Whether samples of `language` can be run by this build.
pub fn can_run(language: Language) -> bool {
    matches!(
        language,
        Language::Python | Language::Rust | Language::C | Language::Cpp | Language::Javascript
    )
}

/// Everything needed to run samples: the sandbox and the guests and compilers the run needs.
pub struct Evaluator<'a> {
    /// The sandbox.
    pub sandbox: &'a Sandbox,
    /// The Python interpreter, when the run has Python samples.
    pub python: Option<PythonRuntime>,
    /// The JavaScript guest, when the run has JavaScript samples.
    pub javascript: Option<JsRuntime>,
    /// The compilers, when the run has compiled samples.
    pub toolchains: Option<Toolchains>,
    /// Where compiled modules' machine code is cached.
    pub module_cache: PathBuf,
    /// Limits of each execution.
    pub limits: Limits,
    /// Limits of each compilation.
    pub compile_limits: CompileLimits,
}

impl Evaluator<'_> {
    /// Runs `sample` against every suite of `task`; `Err` only when the host fails.
    /// Static metrics of the sample's code come with it.
    pub fn evaluate(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        let mut result = match task.language {
            Language::Python => self.evaluate_python(task, sample)?,
            Language::Rust | Language::C | Language::Cpp => self.evaluate_compiled(task, sample)?,
            Language::Javascript => self
                .javascript
                .as_ref()
                .context("the JavaScript runtime is not loaded")?
                .evaluate(self.sandbox, task, sample, &self.limits)?,
            other => anyhow::bail!("samples in {other} cannot be run yet"),
        };
        result.code_metrics = analysis::analyze(task.language, &sample.program(task));
        Ok(result)
    }

    fn evaluate_python(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        let python = self
            .python
            .as_ref()
            .context("the Python runtime is not loaded")?;
        let harness_suites = task
            .tests
            .iter()
            .any(|s| !matches!(s, TestSuite::Io { .. }));
        let mut result = if harness_suites || !has_io_suites(task) {
            Some(python.evaluate(self.sandbox, task, sample, &self.limits)?)
        } else {
            None
        };
        if has_io_suites(task) {
            let job = temp_folder(Folder::Job)?;
            let scratch = temp_folder(Folder::Scratch)?;
            std::fs::write(job.path().join("program.py"), sample.program(task))?;
            let program = Program {
                module: &python.module,
                entry: python.entry,
                invocation: python.invocation(&["/job/program.py"], job.path(), scratch.path()),
            };
            let io = run_io_suites(self.sandbox, &program, task, &self.limits)?;
            match &mut result {
                Some(result) => io.append_to(result),
                None => result = Some(io.into_result(task, sample)),
            }
        }
        Ok(result.expect("one of the two branches ran"))
    }

    /// A compiled sample: each assertion case is its own program (the candidate followed by the
    /// case's code, judged by its exit), and one build of the candidate runs the `io` cases.
    fn evaluate_compiled(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        let candidate = sample.program(task);
        let mut result = SampleResult {
            task_id: task.id.clone(),
            ..SampleResult::for_sample(sample)
        };
        let mut assertions = IoRun::default();
        for (setup, case) in task.assertion_cases() {
            let source = format!("{candidate}\n{setup}\n{}\n", case.code);
            let (verdict, timeout_cause, message) = match self.build(task, &source)? {
                Err((verdict, message)) => (verdict, None, Some(message)),
                Ok(module) => {
                    let (program, _scratch) = self.compiled_program(&module)?;
                    let execution = self.sandbox.run(
                        program.module,
                        program.entry,
                        &program.invocation,
                        &self.limits,
                    )?;
                    assertions.measure(&execution, true);
                    judge_assertion_program(&execution)
                }
            };
            assertions.cases.push(CaseResult {
                name: case.name.clone(),
                verdict,
                timeout_cause,
                message,
            });
        }
        assertions.append_to(&mut result);
        if has_io_suites(task) {
            let io = match self.build(task, &candidate)? {
                Err((verdict, message)) => IoRun::not_built(task, verdict, message),
                Ok(module) => {
                    let (program, _scratch) = self.compiled_program(&module)?;
                    run_io_suites(self.sandbox, &program, task, &self.limits)?
                }
            };
            io.append_to(&mut result);
        }
        Ok(result)
    }

    /// Compiles `source` in the task's language into a loaded module, or the verdict and message
    /// of a source that does not build.
    fn build(
        &self,
        task: &Task,
        source: &str,
    ) -> anyhow::Result<Result<wasmtime::Module, (Verdict, String)>> {
        let toolchains = self
            .toolchains
            .as_ref()
            .context("the compilers are not loaded")?;
        let wasm = match toolchains.compile(task.language, source, &self.compile_limits)? {
            Compiled::Module { wasm, .. } => wasm,
            Compiled::Error { message } => return Ok(Err((Verdict::CompileError, message))),
            Compiled::Timeout { message } => {
                return Ok(Err((Verdict::Timeout, format!("compilation: {message}"))))
            }
        };
        let module = cache::load_module(self.sandbox.engine(), &wasm, &self.module_cache)
            .context("cannot load a compiled sample")?;
        Ok(Ok(module))
    }

    /// How a compiled module starts: as a command, with an empty writable `/tmp` (the returned
    /// folder, removed when dropped) and nothing else.
    fn compiled_program<'m>(
        &self,
        module: &'m wasmtime::Module,
    ) -> anyhow::Result<(Program<'m>, tempfile::TempDir)> {
        let scratch = temp_folder(Folder::Scratch)?;
        let program = Program {
            module,
            entry: Entry::Command,
            invocation: Invocation {
                args: vec!["main".into()],
                env: Vec::new(),
                preopens: vec![crate::sandbox::Preopen {
                    host: scratch.path().to_owned(),
                    guest: "/tmp".into(),
                    writable: true,
                }],
                stdin: Vec::new(),
            },
        };
        Ok((program, scratch))
    }
}

/// The verdict of a compiled assertion program: exit 0 passes; a failed assertion (`assert!`
/// panics, C's `assert` aborts, both saying so on stderr) is a wrong answer; other ends as for any
/// execution.
fn judge_assertion_program(
    execution: &Execution,
) -> (Verdict, Option<TimeoutCause>, Option<String>) {
    let Some((verdict, cause, message)) = abnormal_end(execution) else {
        return (Verdict::Passed, None, None);
    };
    let stderr = String::from_utf8_lossy(&execution.output.stderr);
    let assertion = stderr
        .lines()
        .find(|line| line.to_ascii_lowercase().contains("assert"));
    // Rust prints `thread 'main' panicked at src:line:col:` and the panic's message on the next line.
    let panic = stderr
        .lines()
        .skip_while(|line| !line.contains("panicked at"))
        .nth(1);
    match (verdict, assertion, panic) {
        (Verdict::RuntimeError, Some(line), _) => {
            (Verdict::WrongAnswer, None, Some(excerpt(line.trim())))
        }
        (Verdict::RuntimeError, None, Some(panic)) => (
            verdict,
            cause,
            Some(excerpt(&format!("panicked: {}", panic.trim()))),
        ),
        _ => (verdict, cause, Some(message)),
    }
}
