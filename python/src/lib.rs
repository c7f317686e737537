//! `wasmeval._native`: the Python package's way into the runner, in this process.
//!
//! Three doors, each the command line's own code, so that Python sees the verdicts and numbers
//! `wasmeval` prints:
//! - [`run`] runs a command line (`run`, `merge`, ...) in this process: `wasmeval.evaluate`
//!   writes its inputs to files and runs `wasmeval run` on them, on the runner's worker pool;
//! - [`report`] computes `wasmeval report`'s report and returns it as JSON;
//! - [`Evaluator`] keeps a sandbox warm for a stream of single evaluations (reward functions,
//!   agents): a task and a sample in, a result line out, or a program run on its stdin.
//!
//! Every call releases the GIL while the sandbox works. Errors are Python exceptions carrying
//! the command line's message: [`BadInput`] (exit code 2: the message names file and line) or
//! [`WasmevalError`] (exit code 1).

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;
use wasmeval::evaluator::ProgramRun;
use wasmeval::sandbox::{Limits, Sandbox};
use wasmeval_core::judging::{Exit, Outcome};
use wasmeval_core::Language;

// Named `wasmeval.WasmevalError` and `wasmeval.BadInput` (the package re-exports them), so that
// they pickle across processes (Ray's workers send them back to the driver).
create_exception!(
    wasmeval,
    WasmevalError,
    PyException,
    "wasmeval failed (what the command line reports with exit code 1)."
);
create_exception!(
    wasmeval,
    BadInput,
    PyValueError,
    "The input is wrong (the command line's exit code 2); the message names the file and line."
);

/// The Python exception of a runner error: its full chain as the command line prints it.
fn to_py(error: anyhow::Error) -> PyErr {
    let message = format!("{error:#}");
    match wasmeval::errors::exit_code(&error) {
        2 => BadInput::new_err(message),
        _ => WasmevalError::new_err(message),
    }
}

/// Runs `wasmeval ARGV...` in this process (without the program name), with the GIL released.
/// `helper` is the `wasmeval` executable that confines compilers (this process is python's);
/// `progress`, a callable, gets each of `run`'s progress lines (the package's logger takes them).
#[pyfunction]
#[pyo3(signature = (argv, helper=None, progress=None))]
fn run(
    py: Python<'_>,
    argv: Vec<String>,
    helper: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
) -> PyResult<()> {
    if let Some(helper) = helper {
        wasmeval::toolchain::use_helper(helper);
    }
    let argv: Vec<String> = std::iter::once("wasmeval".to_owned()).chain(argv).collect();
    let sink = match progress {
        Some(callback) => wasmeval::commands::run::ProgressSink::new(move |line: &str| {
            // A logging handler's own failure is not the run's: Python prints it, the run goes on.
            Python::attach(|py| {
                if let Err(error) = callback.call1(py, (line,)) {
                    error.print(py);
                }
            })
        }),
        None => Default::default(),
    };
    py.detach(|| wasmeval::cli::run_command_with_progress(argv, sink))
        .map_err(to_py)
}

/// `wasmeval report ARGV...`'s report (`--format json`'s document) as JSON text.
#[pyfunction]
fn report(py: Python<'_>, argv: Vec<String>) -> PyResult<String> {
    let argv: Vec<String> = ["wasmeval".to_owned(), "report".to_owned()]
        .into_iter()
        .chain(argv)
        .collect();
    py.detach(|| -> anyhow::Result<String> {
        let args = wasmeval::cli::report_args(argv)?;
        let computed = wasmeval::commands::report::compute(&args)?;
        Ok(serde_json::to_string(&computed.report)?)
    })
    .map_err(to_py)
}

/// One sandbox for the process, sized for every core: its pooling allocator and engine are the
/// expensive part, and evaluators share it as the command line's workers do.
fn shared_sandbox() -> anyhow::Result<&'static Sandbox> {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    if let Some(sandbox) = SANDBOX.get() {
        return Ok(sandbox);
    }
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sandbox = Sandbox::new(workers)?;
    Ok(SANDBOX.get_or_init(|| sandbox))
}

/// A warm sandbox with every runtime this machine has: evaluations of single samples, and
/// programs run on their stdin, under the limits it was made with.
#[pyclass(frozen, module = "wasmeval._native")]
struct Evaluator {
    inner: wasmeval::evaluator::Evaluator<'static>,
    languages: Vec<Language>,
    jobs: usize,
}

#[pymethods]
impl Evaluator {
    /// Limits as the command line's defaults unless given: `fuel` (instructions), `memory`
    /// (bytes), `timeout` (seconds), `output` (bytes); `jobs` threads for `evaluate_many` (at
    /// most the number of cores, the shared sandbox's size);
    /// `helper` is the `wasmeval` executable that confines compilers (C, C++, Rust).
    #[new]
    #[pyo3(signature = (*, fuel=None, memory=None, timeout=None, output=None, jobs=None, helper=None))]
    fn new(
        py: Python<'_>,
        fuel: Option<u64>,
        memory: Option<u64>,
        timeout: Option<f64>,
        output: Option<u64>,
        jobs: Option<usize>,
        helper: Option<PathBuf>,
    ) -> PyResult<Self> {
        let defaults = default_limits();
        let timeout = match timeout {
            Some(seconds) if !(seconds.is_finite() && seconds > 0.0) => {
                return Err(BadInput::new_err(format!(
                    "timeout: {seconds} is not a positive number of seconds"
                )))
            }
            Some(seconds) => Duration::from_secs_f64(seconds),
            None => defaults.timeout,
        };
        let limits = Limits {
            fuel: fuel.unwrap_or(defaults.fuel),
            memory: memory.unwrap_or(defaults.memory),
            timeout,
            output: output.unwrap_or(defaults.output),
            disk: defaults.disk,
            fuel_from_time_limit: fuel.is_none(),
            sleep_limit: None,
        };
        // At most the shared sandbox's workers: its instance pool is sized for that many.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = jobs.unwrap_or(cores).clamp(1, cores);
        let mut notices = Vec::new();
        let evaluator = py
            .detach(|| -> anyhow::Result<Self> {
                let sandbox = shared_sandbox()?;
                let runtime = wasmeval::cli::RuntimeArgs { runtime: None };
                let helper = match helper {
                    Some(helper) => helper,
                    None => std::env::current_exe()?,
                };
                let (inner, languages) = wasmeval::evaluator::Evaluator::with_every_runtime(
                    sandbox,
                    &runtime,
                    limits,
                    false,
                    &helper,
                    &mut |notice| notices.push(notice),
                );
                Ok(Evaluator {
                    inner,
                    languages,
                    jobs,
                })
            })
            .map_err(to_py)?;
        // A language left out (no Ruby, no compilers) is the `wasmeval` logger's warning, which
        // Python prints unless the logging configuration says otherwise.
        let logger = py
            .import("logging")?
            .call_method1("getLogger", ("wasmeval",))?;
        for notice in notices {
            logger.call_method1("warning", ("%s", notice))?;
        }
        Ok(evaluator)
    }

    /// The languages this evaluator can run (`python`, `javascript`, `c`, `cpp`, `rust`).
    #[getter]
    fn languages(&self) -> Vec<&'static str> {
        self.languages.iter().map(|l| l.as_str()).collect()
    }

    /// Evaluates one sample (a samples-file line: `task_id` and `completion` or `solution`)
    /// against one task (a task-file line, in any format `run` reads); returns the result as a
    /// results.jsonl line. With `answer=True` the second argument is a model's answer instead and
    /// the first a ground truth as RL datasets hold it (core's `formats::ground_truth`: a task
    /// record, a list of asserts, stdin/stdout pairs): the answer's code (its fenced block, else
    /// all of it) is a completion of the prompt when the prompt is code defining the entry point
    /// and the answer does not define it, else the whole program (core's `formats::answers`).
    #[pyo3(signature = (task, sample, answer=false))]
    fn evaluate(&self, py: Python<'_>, task: &str, sample: &str, answer: bool) -> PyResult<String> {
        py.detach(|| self.evaluate_one(task, sample, 0, answer))
            .map_err(to_py)
    }

    /// [`Evaluator::evaluate`] for many (task, sample) pairs, `jobs` at a time; results in the
    /// order given, each numbered by its position (`index`).
    #[pyo3(signature = (pairs, answer=false))]
    fn evaluate_many(
        &self,
        py: Python<'_>,
        pairs: Vec<(String, String)>,
        answer: bool,
    ) -> PyResult<Vec<String>> {
        py.detach(|| -> anyhow::Result<Vec<String>> {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let slots: Vec<OnceLock<anyhow::Result<String>>> =
                pairs.iter().map(|_| OnceLock::new()).collect();
            std::thread::scope(|scope| {
                for _ in 0..self.jobs.min(pairs.len()) {
                    scope.spawn(|| loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((task, sample)) = pairs.get(i) else {
                            break;
                        };
                        let _ = slots[i].set(self.evaluate_one(task, sample, i as u64, answer));
                    });
                }
            });
            slots
                .into_iter()
                .map(|slot| slot.into_inner().expect("every pair was evaluated"))
                .collect()
        })
        .map_err(to_py)
    }

    /// Runs `code`, a whole program in `language`, once on `stdin`; returns JSON: `status`
    /// (`finished`, `compile_error`, `timeout`, `memory_limit`, `output_limit`,
    /// `runtime_error`), `exit_code`, `stdout`, `stderr`, `message`, `fuel`, `wall_ms`.
    #[pyo3(signature = (code, language, stdin=None))]
    fn run_code(
        &self,
        py: Python<'_>,
        code: &str,
        language: &str,
        stdin: Option<String>,
    ) -> PyResult<String> {
        let language = Language::parse(language).ok_or_else(|| {
            BadInput::new_err(format!(
                "language: `{language}` is not one wasmeval runs (python, javascript, c, cpp, rust)"
            ))
        })?;
        py.detach(|| -> anyhow::Result<String> {
            let stdin = stdin.unwrap_or_default().into_bytes();
            let run = self.inner.run_program(
                language,
                code,
                stdin,
                &[],
                &[],
                self.inner.limits,
                self.inner.compile_limits,
            )?;
            Ok(program_json(run).to_string())
        })
        .map_err(to_py)
    }
}

impl Evaluator {
    fn evaluate_one(
        &self,
        task: &str,
        sample: &str,
        index: u64,
        answer: bool,
    ) -> anyhow::Result<String> {
        let bad = |what: &str, e: String| {
            anyhow::Error::from(wasmeval::errors::ExpectedError::BadInput(format!(
                "{what}: {e}"
            )))
        };
        let mut task = match answer {
            // What an RL dataset holds: a task record, asserts, or stdin/stdout pairs.
            true => wasmeval_core::formats::ground_truth::task_from_ground_truth(
                task,
                wasmeval_core::formats::answers::fence_language(sample),
            )
            .map_err(|e| bad("ground truth", e))?,
            false => wasmeval_core::formats::tasks::parse_task(task).map_err(|e| bad("task", e))?,
        };
        // EvalPlus's tasks: expected values from the reference, as `run` has them (cached).
        wasmeval::reference_outputs::resolve(
            &self.inner,
            std::slice::from_mut(&mut task),
            |_| true,
            1,
        )?;
        let sample = if answer {
            wasmeval_core::formats::answers::sample_from_answer(&task, sample, index).0
        } else {
            wasmeval_core::formats::humaneval::parse_sample("sample", 1, index, sample)
                .map_err(|e| bad("sample", e.to_string()))?
                .0
        };
        if sample.task_id != task.id {
            return Err(bad(
                "sample",
                format!(
                    "its task_id `{}` is not the task's `{}`",
                    sample.task_id.0, task.id.0
                ),
            ));
        }
        let result = self.inner.evaluate(&task, &sample)?;
        Ok(serde_json::to_string(&result)?)
    }
}

/// The command line's default limits (`wasmeval run --help`).
fn default_limits() -> Limits {
    use clap::Parser;
    #[derive(Parser)]
    struct Defaults {
        #[command(flatten)]
        limits: wasmeval::cli::LimitArgs,
    }
    Defaults::parse_from(["defaults"]).limits.limits()
}

/// A program run as JSON (see [`Evaluator::run_code`]).
fn program_json(run: ProgramRun) -> serde_json::Value {
    use serde_json::json;
    match run {
        ProgramRun::NotBuilt { outcome, seconds } => json!({
            "status": outcome.verdict.as_str(),
            "exit_code": null,
            "stdout": "",
            "stderr": "",
            "message": outcome.message,
            "fuel": 0,
            "wall_ms": seconds * 1000.0,
        }),
        ProgramRun::Ran { execution, .. } => {
            let (status, exit_code, message) = match &execution.exit {
                Exit::Code(code) => ("finished".to_owned(), Some(*code), None),
                _ => {
                    let outcome = Outcome::of_cut_short(&execution);
                    (outcome.verdict.as_str().to_owned(), None, outcome.message)
                }
            };
            json!({
                "status": status,
                "exit_code": exit_code,
                "stdout": String::from_utf8_lossy(&execution.output.stdout),
                "stderr": String::from_utf8_lossy(&execution.output.stderr),
                "message": message,
                "fuel": execution.fuel,
                "wall_ms": execution.wall.as_secs_f64() * 1000.0,
            })
        }
    }
}

/// The module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_function(wrap_pyfunction!(report, module)?)?;
    module.add_class::<Evaluator>()?;
    module.add("WasmevalError", module.py().get_type::<WasmevalError>())?;
    module.add("BadInput", module.py().get_type::<BadInput>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
