//! Samples evaluated in child processes of wasmeval, one per worker: how `run --jobs N` (N > 1)
//! spreads its work when this process is the wasmeval executable.
//!
//! Why processes rather than threads: between two executions the sandbox resets the guest's
//! memory slot, and the guest's first writes after a reset are copy-on-write faults on the
//! interpreter's snapshot. Each such change of the page tables must be seen by every core running
//! the process, so with N worker threads in one process every fault interrupts the other cores (a
//! TLB shootdown), and on a virtual machine an interrupt between cores is expensive. Each child has
//! page tables of its own. On the CodeGen HumanEval set, the first 3,000 samples took 26.1 to
//! 27.6 s with two threads and 22.9 s with two processes, the kernel's share of the CPU falling
//! from about a fifth to a tenth; all 16,400 took 144 s and 104 s (bench/README.md, "where the
//! time goes").
//!
//! The protocol is JSON Lines on the child's stdin and stdout (its stderr is the parent's): the
//! parent's first line is a [`WorkerSetup`], then one [`Request`] per sample, each answered by one
//! [`Reply`]. A child loads the runtimes the setup names, so its verdicts are the ones the parent's
//! own evaluator would give: the same code evaluates each sample
//! ([`crate::commands::run::evaluate_for_results`]). It ends when its stdin closes.

use crate::commands::run::{evaluate_for_results, load_evaluator};
use crate::sandbox::{cache, Limits, Sandbox};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use wasmeval_core::{Language, Sample, SampleResult, Task};

/// The hidden subcommand a child runs as.
pub const SUBCOMMAND: &str = "__evaluate-samples";

/// What a child loads before its first sample: the same as the parent's evaluator.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerSetup {
    /// `--runtime`: the Python runtime's folder, when not the default.
    pub runtime: Option<PathBuf>,
    /// The limits of every sample.
    pub limits: Limits,
    /// `--allow-unconfined-compilation`.
    pub allow_unconfined_compilation: bool,
    /// The languages of the run's samples: the runtimes and compilers to load.
    pub languages: BTreeSet<Language>,
    /// The digests of the interpreters the parent read, so that a child need not read and hash
    /// them again (see [`cache::trust_digests`]).
    pub module_digests: BTreeMap<PathBuf, cache::Digests>,
}

/// One sample to evaluate against its task.
#[derive(Serialize)]
struct Request<'a> {
    task: &'a Task,
    sample: &'a Sample,
}

/// [`Request`] as the child reads it.
#[derive(Deserialize)]
struct OwnedRequest {
    task: Task,
    sample: Sample,
}

/// A child's answer: the sample's result, or why it has none (the run stops, as it would in one
/// process).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Ready,
    Result(Box<SampleResult>),
    Error(String),
    /// An error that is the input's fault (an `ExpectedError` in the child: a `--memory` the
    /// interpreter cannot start in), so the parent exits 2 as one process would.
    BadInput(String),
}

impl Reply {
    /// The reply for `error`, keeping whether it was the input's fault.
    fn of_error(error: &anyhow::Error) -> Reply {
        match crate::errors::exit_code(error) == crate::errors::EXIT_BAD_INPUT {
            true => Reply::BadInput(format!("{error:#}")),
            false => Reply::Error(format!("{error:#}")),
        }
    }
}

/// Child processes evaluating samples, one per worker thread of the pool, ended when this is
/// dropped.
pub struct ChildEvaluators {
    executable: PathBuf,
    setup: String,
    idle: Mutex<Vec<Worker>>,
}

/// One child process and the two ends of its protocol.
struct Worker {
    process: Child,
    requests: BufWriter<ChildStdin>,
    replies: BufReader<ChildStdout>,
}

impl ChildEvaluators {
    /// `count` children of `executable` (the wasmeval binary), each loaded with what `setup`
    /// names before this returns. They load side by side, and a child that cannot load stops the
    /// run before its first sample.
    pub fn start(executable: PathBuf, setup: &WorkerSetup, count: usize) -> anyhow::Result<Self> {
        let children = ChildEvaluators {
            executable,
            setup: serde_json::to_string(setup)?,
            idle: Mutex::new(Vec::new()),
        };
        let loading = (0..count)
            .map(|_| children.spawn())
            .collect::<anyhow::Result<Vec<_>>>()?;
        let ready = loading
            .into_iter()
            .map(Worker::loaded)
            .collect::<anyhow::Result<Vec<_>>>()?;
        *children.idle.lock().unwrap_or_else(|p| p.into_inner()) = ready;
        Ok(children)
    }

    /// `sample`'s result against `task`, from an idle child.
    pub fn evaluate(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        // One child per worker thread was started, so one is idle; a new one is a backstop.
        let mut worker = match idle {
            Some(worker) => worker,
            None => self.spawn()?.loaded()?,
        };
        let pid = worker.process.id();
        let reply = worker
            .ask(&serde_json::to_string(&Request { task, sample })?)
            .with_context(|| {
                format!(
                    "the worker process {pid} ended while evaluating sample {} of task {}; run \
                     the same command again to resume",
                    sample.index, task.id
                )
            })?;
        match reply {
            Reply::Result(result) => {
                self.idle
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(worker);
                Ok(*result)
            }
            Reply::Error(error) => Err(anyhow::anyhow!("{error}")),
            Reply::BadInput(error) => Err(crate::errors::ExpectedError::BadInput(error).into()),
            Reply::Ready => anyhow::bail!("worker process {pid} answered out of turn"),
        }
    }

    /// Starts a child and sends it the setup: it starts loading its runtimes.
    fn spawn(&self) -> anyhow::Result<Worker> {
        let mut process = Command::new(&self.executable)
            .arg(SUBCOMMAND)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot start {} {SUBCOMMAND}", self.executable.display()))?;
        let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
            anyhow::bail!("a worker process has no pipes");
        };
        let mut worker = Worker {
            process,
            requests: BufWriter::new(stdin),
            replies: BufReader::new(stdout),
        };
        worker.send(&self.setup)?;
        Ok(worker)
    }
}

impl Worker {
    /// The worker once it has loaded its runtimes (its answer to the setup).
    fn loaded(mut self) -> anyhow::Result<Worker> {
        let pid = self.process.id();
        match self.receive().with_context(|| {
            format!(
                "the worker process {pid} ended while loading the runtimes; run the same \
                 command again to resume"
            )
        })? {
            Reply::Ready => Ok(self),
            Reply::Error(error) => Err(anyhow::anyhow!("{error}")),
            Reply::BadInput(error) => Err(crate::errors::ExpectedError::BadInput(error).into()),
            Reply::Result(_) => anyhow::bail!("worker process {pid} answered out of turn"),
        }
    }

    /// Sends one line and reads the reply.
    fn ask(&mut self, line: &str) -> anyhow::Result<Reply> {
        self.send(line)?;
        self.receive()
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        self.requests.write_all(line.as_bytes())?;
        self.requests.write_all(b"\n")?;
        Ok(self.requests.flush()?)
    }

    fn receive(&mut self) -> anyhow::Result<Reply> {
        let mut reply = String::new();
        if self.replies.read_line(&mut reply)? == 0 {
            let status = self.process.wait()?;
            anyhow::bail!("it exited ({status})");
        }
        Ok(serde_json::from_str(&reply)?)
    }
}

impl Drop for ChildEvaluators {
    fn drop(&mut self) {
        let workers = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|p| p.into_inner()));
        for Worker {
            mut process,
            requests,
            replies,
        } in workers
        {
            // Closing stdin ends the child's loop.
            drop(requests);
            drop(replies);
            let _ = process.wait();
        }
    }
}

/// The child's side: reads the setup, loads the evaluator, answers requests until stdin closes.
/// Guests run on a thread with a worker's stack, as in one process (`worker_pool.rs`), and the
/// process's temporary folder goes with it.
pub fn serve_requests() -> anyhow::Result<()> {
    let served = std::thread::Builder::new()
        .name("wasmeval-worker".into())
        .stack_size(crate::worker_pool::WORKER_STACK)
        .spawn(serve_on_this_thread)?
        .join()
        .unwrap_or_else(|_| Err(anyhow::anyhow!("the worker process's thread panicked")));
    crate::temp_space::remove_own();
    served
}

fn serve_on_this_thread() -> anyhow::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut stdout = BufWriter::new(std::io::stdout().lock());
    let mut lines = stdin.lines();
    let Some(setup) = lines.next() else {
        return Ok(());
    };
    let setup: WorkerSetup =
        serde_json::from_str(&setup?).context("the worker's setup line is malformed")?;
    let sandbox = Sandbox::new(1)?;
    cache::trust_digests(setup.module_digests);
    let runtime = crate::cli::RuntimeArgs {
        runtime: setup.runtime,
    };
    let evaluator = match load_evaluator(
        &sandbox,
        &runtime,
        setup.limits,
        setup.allow_unconfined_compilation,
        &setup.languages,
    ) {
        Ok(evaluator) => evaluator,
        Err(error) => return answer(&mut stdout, &Reply::of_error(&error)),
    };
    answer(&mut stdout, &Reply::Ready)?;
    for line in lines {
        let request: OwnedRequest =
            serde_json::from_str(&line?).context("a worker's request is malformed")?;
        let reply = match evaluate_for_results(&evaluator, &request.task, &request.sample) {
            Ok(result) => Reply::Result(Box::new(result)),
            Err(error) => Reply::of_error(&error),
        };
        answer(&mut stdout, &reply)?;
    }
    Ok(())
}

fn answer(out: &mut impl Write, reply: &Reply) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, reply)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
