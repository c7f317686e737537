//! Running many samples on a pool of worker threads, handing each result back as it finishes.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use wasmeval_core::{Sample, SampleResult, Task};

/// Stack of a worker thread; see `sandbox::MAX_WASM_STACK`.
const WORKER_STACK: usize = 32 << 20;

/// One unit of work: a sample and its task.
#[derive(Debug, Clone, Copy)]
pub struct Job<'a> {
    /// The task.
    pub task: &'a Task,
    /// The sample to run against it.
    pub sample: &'a Sample,
}

/// Runs `evaluate` on every job with `workers` threads and gives each result to `on_result` on the
/// calling thread, in finishing order. The first error (of `evaluate` or `on_result`) stops the
/// pool: jobs already running finish, none starts, and the error is returned.
pub fn run_pool(
    jobs: &[Job<'_>],
    workers: usize,
    evaluate: impl Fn(Job<'_>) -> anyhow::Result<SampleResult> + Sync,
    mut on_result: impl FnMut(SampleResult) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<anyhow::Result<SampleResult>>();
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1).min(jobs.len().max(1)) {
            let worker_sender = sender.clone();
            let (next, stop, evaluate) = (&next, &stop, &evaluate);
            // Guest code runs on this thread's stack: room for wasmtime's wasm stack limit and more.
            let worker = std::thread::Builder::new()
                .name("wasmeval-worker".into())
                .stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let outcome = evaluate(job).map_err(|e| {
                        e.context(format!(
                            "evaluating sample {} of task {}",
                            job.sample.index, job.task.id
                        ))
                    });
                    if worker_sender.send(outcome).is_err() {
                        break;
                    }
                }
            });
            if let Err(error) = spawned {
                stop.store(true, Ordering::Relaxed);
                let _ = sender.send(Err(
                    anyhow::Error::new(error).context("cannot start a worker thread")
                ));
            }
        }
        drop(sender);
        let mut first_error = None;
        for outcome in receiver {
            let handled = outcome.and_then(&mut on_result);
            if let Err(error) = handled {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(error);
            }
        }
        first_error.map_or(Ok(()), Err)
    })
}
