//! The server's work queue: a fixed pool of worker threads (the sandbox's, with 64 MiB stacks,
//! never the async runtime's) fed by a bounded queue. A full queue refuses at once (the caller
//! answers 429); a job whose client went away before a worker took it is skipped; a panic inside
//! one evaluation becomes that job's error, and the worker carries on.

use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// A job: runs on a worker, its answer goes back to the waiting request.
pub type Work = Box<dyn FnOnce() -> anyhow::Result<serde_json::Value> + Send>;

struct Job {
    work: Work,
    answer: oneshot::Sender<Result<serde_json::Value, JobError>>,
}

/// Why a job has no answer.
#[derive(Debug)]
pub struct JobError {
    /// What went wrong, with its causes.
    pub message: String,
    /// The request's own fault (an [`crate::errors::ExpectedError`] in the chain, such as a
    /// memory limit too small for the interpreter to start): a 400, not a 500.
    pub bad_request: bool,
}

impl JobError {
    /// The status a response about this error carries.
    pub fn status(&self) -> axum::http::StatusCode {
        match self.bad_request {
            true => axum::http::StatusCode::BAD_REQUEST,
            false => axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Why a job was not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Every worker is busy and the queue is full.
    Full,
}

/// The queue and its workers.
pub struct WorkQueue {
    sender: SyncSender<Job>,
    /// Jobs queued or running.
    depth: Arc<Mutex<usize>>,
    capacity: usize,
    workers: usize,
}

impl WorkQueue {
    /// Starts `workers` threads taking jobs from a queue of `capacity` waiting jobs.
    pub fn start(workers: usize, capacity: usize) -> anyhow::Result<WorkQueue> {
        // Admission is the depth count's (queued + running < capacity + workers); the channel can
        // hold that many, so a job a worker has not yet taken out never makes it look full.
        let (sender, receiver) = sync_channel::<Job>(capacity.saturating_add(workers));
        let receiver = Arc::new(Mutex::new(receiver));
        let depth = Arc::new(Mutex::new(0usize));
        for index in 0..workers {
            let (receiver, depth) = (receiver.clone(), depth.clone());
            std::thread::Builder::new()
                .name(format!("wasmeval-serve-{index}"))
                .stack_size(64 << 20)
                .spawn(move || loop {
                    let job = match receiver.lock().expect("queue lock").recv() {
                        Ok(job) => job,
                        Err(_) => return,
                    };
                    // The client left while the job waited: nobody wants its answer.
                    if !job.answer.is_closed() {
                        let outcome =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(job.work));
                        let answer = match outcome {
                            Ok(Ok(value)) => Ok(value),
                            Ok(Err(error)) => Err(JobError {
                                message: format!("{error:#}"),
                                bad_request: crate::errors::exit_code(&error)
                                    == crate::errors::EXIT_BAD_INPUT,
                            }),
                            Err(_) => Err(JobError {
                                message: "the evaluation panicked (a wasmeval bug)".to_owned(),
                                bad_request: false,
                            }),
                        };
                        let _ = job.answer.send(answer);
                    }
                    *depth.lock().expect("depth lock") -= 1;
                })?;
        }
        Ok(WorkQueue {
            sender,
            depth,
            capacity,
            workers,
        })
    }

    /// Queues `work`; its answer arrives on the returned receiver (an `Err` is a host failure).
    /// Refused, the work comes back, to try again later.
    pub fn submit(
        &self,
        work: Work,
    ) -> Result<oneshot::Receiver<Result<serde_json::Value, JobError>>, (Refused, Work)> {
        let (answer, receiver) = oneshot::channel();
        let mut depth = self.depth.lock().expect("depth lock");
        // Waiting jobs are at most `capacity`, running ones at most `workers`.
        if *depth >= self.capacity + self.workers {
            return Err((Refused::Full, work));
        }
        match self.sender.try_send(Job { work, answer }) {
            Ok(()) => {
                *depth += 1;
                Ok(receiver)
            }
            Err(TrySendError::Full(job)) | Err(TrySendError::Disconnected(job)) => {
                Err((Refused::Full, job.work))
            }
        }
    }

    /// Jobs queued or running.
    pub fn depth(&self) -> usize {
        *self.depth.lock().expect("depth lock")
    }

    /// Jobs that may wait.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }
}
