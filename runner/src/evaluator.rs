//! The evaluator: runs one sample by its task's language. Python samples run in the interpreter
//! guest (assertion and alternative suites through the harness, `io` suites as a script); Rust
//! samples are compiled, confined, to a WASI module that runs the `io` suites.

use crate::io_tests::{has_io_suites, run_io_suites, without_program, IoRun, Program};
use crate::python::PythonRuntime;
use crate::sandbox::{cache, Entry, Invocation, Limits, Sandbox};
use crate::toolchain::{CompileLimits, Compiled, Toolchains};
use anyhow::Context;
use std::path::PathBuf;
use wasmeval_core::{Language, Sample, SampleResult, Task, TestSuite, Verdict};

/// Whether samples of `language` can be run by this build.
pub fn can_run(language: Language) -> bool {
    matches!(language, Language::Python | Language::Rust)
}

/// Everything needed to run samples: the sandbox and the guests and compilers the run needs.
pub struct Evaluator<'a> {
    /// The sandbox.
    pub sandbox: &'a Sandbox,
    /// The Python interpreter, when the run has Python samples.
    pub python: Option<PythonRuntime>,
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
    pub fn evaluate(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        match task.language {
            Language::Python => self.evaluate_python(task, sample),
            Language::Rust => self.evaluate_compiled(task, sample),
            other => anyhow::bail!("samples in {other} cannot be run yet"),
        }
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
            let job = tempfile::Builder::new().prefix("wasmeval-job-").tempdir()?;
            let scratch = tempfile::Builder::new().prefix("wasmeval-tmp-").tempdir()?;
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

    fn evaluate_compiled(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        let toolchains = self
            .toolchains
            .as_ref()
            .context("the compilers are not loaded")?;
        let source = sample.program(task);
        let wasm = match toolchains.compile(task.language, &source, &self.compile_limits)? {
            Compiled::Module { wasm, .. } => wasm,
            Compiled::Error { message } => {
                return Ok(without_program(
                    task,
                    sample,
                    Verdict::CompileError,
                    message,
                ))
            }
            Compiled::Timeout { message } => {
                return Ok(without_program(
                    task,
                    sample,
                    Verdict::Timeout,
                    format!("compilation: {message}"),
                ))
            }
        };
        let module = cache::load_module(self.sandbox.engine(), &wasm, &self.module_cache)
            .context("cannot load a compiled sample")?;
        let scratch = tempfile::Builder::new().prefix("wasmeval-tmp-").tempdir()?;
        let program = Program {
            module: &module,
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
        let io: IoRun = run_io_suites(self.sandbox, &program, task, &self.limits)?;
        Ok(io.into_result(task, sample))
    }
}
