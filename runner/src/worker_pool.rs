//! The worker pool: runs a job on many items with a fixed number of threads, handing each result
//! back to the calling thread as it finishes. `run` evaluates samples on it, `analyze` measures
//! code on it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use wasmeval_core::{Sample, Task};

/// Stack of a worker thread: guest code runs on it (see `sandbox::MAX_WASM_STACK`, 8 MiB) and the
/// static analyser walks deeply nested syntax trees recursively on it.
const WORKER_STACK: usize = 64 << 20;

/// One sample to evaluate, with its task.
#[derive(Debug, Clone, Copy)]
pub struct Job<'a> {
    /// The task.
    pub task: &'a Task,
    /// The sample to run against it.
    pub sample: &'a Sample,
}

/// Runs `work` on every item with `workers` threads and gives each result to `on_result` on the
/// calling thread, in finishing order. The first error (of `work` or `on_result`) stops the pool:
/// items already running finish, none starts, and the error is returned.
pub fn run_pool<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(&T) -> anyhow::Result<R> + Sync,
    mut on_result: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<anyhow::Result<R>>();
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1).min(items.len().max(1)) {
            let worker_sender = sender.clone();
            let (next, stop, work) = (&next, &stop, &work);
            let worker = std::thread::Builder::new()
                .name("wasmeval-worker".into())
                .stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if worker_sender.send(work(item)).is_err() {
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
