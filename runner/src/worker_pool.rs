//! The worker pool: runs a job on many items with a fixed number of threads, handing each result
//! back to the calling thread as it finishes. `run` evaluates samples on it, `analyze` measures
//! code on it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// Stack of a worker thread: guest code runs on it (see `sandbox::MAX_WASM_STACK`, 8 MiB) and the
/// static analyser walks deeply nested syntax trees recursively on it.
pub(crate) const WORKER_STACK: usize = 64 << 20;

/// Runs `work` on every item with `workers` threads and gives each result to `on_result` on the
/// calling thread, in finishing order. The first error (of `work` or `on_result`) stops the pool:
/// items already running finish, none starts, and the error is returned.
///
/// Items are drawn from `items` one at a time as workers free up, so an iterator that reads its
/// items from a file holds only those being worked on.
pub fn run_pool<T: Send, R: Send>(
    items: impl IntoIterator<Item = T, IntoIter: Send>,
    workers: usize,
    work: impl Fn(T) -> anyhow::Result<R> + Sync,
    mut on_result: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let items = Mutex::new(items.into_iter());
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<anyhow::Result<R>>();
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            let worker_sender = sender.clone();
            let (items, stop, work) = (&items, &stop, &work);
            let worker = std::thread::Builder::new()
                .name("wasmeval-worker".into())
                .stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || {
                while !stop.load(Ordering::Relaxed) {
                    // A panic elsewhere poisons the lock; the items left are still fine to take.
                    let next = items.lock().unwrap_or_else(|p| p.into_inner()).next();
                    let Some(item) = next else {
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
