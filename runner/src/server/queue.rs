//! The server's work queue: a fixed pool of worker threads (the sandbox's, with 64 MiB stacks,
//! never the async runtime's) fed by one bounded queue, with two ways in:
//!
//! - [`WorkQueue::submit`] (the native API) refuses at once when `capacity` jobs wait beyond the
//!   running ones (the caller answers 429 with `Retry-After`);
//! - [`WorkQueue::enqueue`] (SandboxFusion's routes, whose clients retry a 504 and nothing else)
//!   waits in the same queue up to `patient_capacity` waiting jobs; past that it is refused (503).
//!   Its [`Ticket`] gives the job up when no worker took it before the request's own deadline
//!   (504), and a ticket dropped (a client gone) takes its job out of the queue at once, so what
//!   the queue holds is bounded whatever clients send.
//!
//! A job whose client went away before a worker took it is skipped; a panic inside one
//! evaluation becomes that job's error, and the worker carries on.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use tokio::sync::oneshot;

/// A job: runs on a worker, its answer goes back to the waiting request.
pub type Work = Box<dyn FnOnce() -> anyhow::Result<serde_json::Value> + Send>;

/// A job's answer: its JSON, or why there is none.
pub type Answer = Result<serde_json::Value, JobError>;

struct Job {
    id: u64,
    work: Work,
    answer: oneshot::Sender<Answer>,
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
    /// The queue holds as many waiting jobs as this way in allows.
    Full,
}

/// A queued job no worker took before its deadline; it was taken out of the queue.
#[derive(Debug, PartialEq, Eq)]
pub struct NotStarted;

struct State {
    waiting: VecDeque<Job>,
    running: usize,
    next_id: u64,
}

struct Shared {
    state: Mutex<State>,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A worker never panics while holding the lock (evaluations run outside it).
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes job `id` out of the queue; false when a worker has it (or it is done).
    fn withdraw(&self, id: u64) -> bool {
        let mut state = self.lock();
        match state.waiting.iter().position(|job| job.id == id) {
            Some(at) => {
                state.waiting.remove(at);
                true
            }
            None => false,
        }
    }
}

/// The queue and its workers.
pub struct WorkQueue {
    shared: Arc<Shared>,
    capacity: usize,
    patient_capacity: usize,
    workers: usize,
}

impl WorkQueue {
    /// Starts `workers` threads taking jobs from one queue, in which the native API's jobs may
    /// find at most `capacity` waiting and SandboxFusion's at most `patient_capacity`.
    pub fn start(
        workers: usize,
        capacity: usize,
        patient_capacity: usize,
    ) -> anyhow::Result<WorkQueue> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                waiting: VecDeque::new(),
                running: 0,
                next_id: 0,
            }),
            ready: Condvar::new(),
        });
        for index in 0..workers {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("wasmeval-serve-{index}"))
                .stack_size(64 << 20)
                .spawn(move || work(&shared))?;
        }
        Ok(WorkQueue {
            shared,
            capacity,
            patient_capacity,
            workers,
        })
    }

    /// Queues `work` unless `capacity` jobs already wait; its answer arrives on the returned
    /// receiver (an `Err` is a host failure). Refused, the work comes back, to try again later.
    pub fn submit(&self, work: Work) -> Result<oneshot::Receiver<Answer>, (Refused, Work)> {
        match self.push(work, self.capacity) {
            Ok((_, receiver)) => Ok(receiver),
            Err(refused) => Err(refused),
        }
    }

    /// Queues `work` unless `patient_capacity` jobs already wait; the ticket waits for its
    /// answer, giving the job up at a deadline if no worker took it by then.
    pub fn enqueue(&self, work: Work) -> Result<Ticket, Refused> {
        match self.push(work, self.patient_capacity) {
            Ok((id, answer)) => Ok(Ticket {
                id,
                answer,
                shared: self.shared.clone(),
            }),
            Err((refused, _)) => Err(refused),
        }
    }

    fn push(
        &self,
        work: Work,
        room: usize,
    ) -> Result<(u64, oneshot::Receiver<Answer>), (Refused, Work)> {
        let mut state = self.shared.lock();
        // Waiting jobs are at most `room`, running ones at most `workers`: counted together, a
        // job queued a moment before a free worker takes it does not make the queue look full.
        if state.waiting.len() + state.running >= room + self.workers {
            return Err((Refused::Full, work));
        }
        let (answer, receiver) = oneshot::channel();
        let id = state.next_id;
        state.next_id += 1;
        state.waiting.push_back(Job { id, work, answer });
        drop(state);
        self.shared.ready.notify_one();
        Ok((id, receiver))
    }

    /// Jobs queued or running.
    pub fn depth(&self) -> usize {
        let state = self.shared.lock();
        state.waiting.len() + state.running
    }

    /// Jobs of the native API that may wait.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Jobs of SandboxFusion's routes that may wait.
    pub fn patient_capacity(&self) -> usize {
        self.patient_capacity
    }

    /// Worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }
}

/// A worker: takes the oldest job, runs it unless its client left, sends its answer.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut state = shared.lock();
            loop {
                if let Some(job) = state.waiting.pop_front() {
                    state.running += 1;
                    break job;
                }
                state = shared
                    .ready
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        // The client left while the job waited: nobody wants its answer.
        if !job.answer.is_closed() {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job.work));
            let answer = match outcome {
                Ok(Ok(value)) => Ok(value),
                Ok(Err(error)) => Err(JobError {
                    message: format!("{error:#}"),
                    bad_request: crate::errors::exit_code(&error) == crate::errors::EXIT_BAD_INPUT,
                }),
                Err(_) => Err(JobError {
                    message: "the evaluation panicked (a wasmeval bug)".to_owned(),
                    bad_request: false,
                }),
            };
            let _ = job.answer.send(answer);
        }
        shared.lock().running -= 1;
    }
}

/// A job in the queue, for a request that waits for it ([`WorkQueue::enqueue`]). Dropped
/// before a worker took the job (its client gone), it takes the job out of the queue.
pub struct Ticket {
    id: u64,
    answer: oneshot::Receiver<Answer>,
    shared: Arc<Shared>,
}

impl Ticket {
    /// The job's answer, or [`NotStarted`] when no worker took it before `deadline` (it is then
    /// out of the queue). A job a worker took runs to its end whatever the deadline: its own
    /// limits bound it.
    pub async fn answer_by(
        mut self,
        deadline: tokio::time::Instant,
    ) -> Result<Option<Answer>, NotStarted> {
        match tokio::time::timeout_at(deadline, &mut self.answer).await {
            Ok(answer) => Ok(answer.ok()),
            Err(_) if self.shared.withdraw(self.id) => Err(NotStarted),
            // A worker has it: wait for its end.
            Err(_) => Ok((&mut self.answer).await.ok()),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.shared.withdraw(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sleeper(ms: u64) -> Work {
        Box::new(move || {
            std::thread::sleep(Duration::from_millis(ms));
            Ok(serde_json::json!(ms))
        })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_no_worker_takes_in_time_leaves_the_queue_and_the_rest_are_answered() {
        let queue = WorkQueue::start(1, 1, 3).unwrap();
        let busy = queue.enqueue(sleeper(300)).unwrap();
        // Wait until the worker has the first job, so the next ones wait.
        while queue.depth() != 1 || queue.shared.lock().running != 1 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let late = queue.enqueue(sleeper(1)).unwrap();
        let patient = queue.enqueue(sleeper(1)).unwrap();
        assert_eq!(queue.depth(), 3);
        // The native way in allows one waiting job: there are two.
        assert!(queue.submit(sleeper(1)).is_err());
        let soon = tokio::time::Instant::now() + Duration::from_millis(50);
        assert_eq!(late.answer_by(soon).await.unwrap_err(), NotStarted);
        assert_eq!(queue.depth(), 2, "the job given up left the queue");
        let later = tokio::time::Instant::now() + Duration::from_secs(30);
        let answer = patient.answer_by(later).await.unwrap().unwrap().unwrap();
        assert_eq!(answer, serde_json::json!(1));
        let answer = busy.answer_by(later).await.unwrap().unwrap().unwrap();
        assert_eq!(answer, serde_json::json!(300));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_patient_way_in_is_bounded_and_a_dropped_ticket_frees_its_place() {
        let queue = WorkQueue::start(1, 0, 2).unwrap();
        let _busy = queue.enqueue(sleeper(200)).unwrap();
        while queue.shared.lock().running != 1 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let first = queue.enqueue(sleeper(1)).unwrap();
        let _second = queue.enqueue(sleeper(1)).unwrap();
        assert!(matches!(queue.enqueue(sleeper(1)), Err(Refused::Full)));
        drop(first);
        assert_eq!(queue.depth(), 2);
        assert!(queue.enqueue(sleeper(1)).is_ok());
    }
}
