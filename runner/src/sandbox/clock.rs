//! Virtual time: clocks that advance with what the guest does, never with the host's clock.
//!
//! Every reading of a clock moves time forward by one microsecond, and a sleep moves it forward by
//! the time slept and returns at once. Two runs of the same program therefore see the same times,
//! and `time.sleep(10**6)` costs nothing on the host. Virtual time counts, though: a sleep that
//! takes it past the execution's time limit ends the execution ([`VirtualTimeExceeded`]), a
//! `timeout` as deterministic as fuel, so a sample cannot pass by sleeping longer than any
//! real harness would wait.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wasmeval_virtual_wasi::clock::{VirtualTime, TICK_NANOS, WALL_CLOCK_START_NANOS};
use wasmtime::{Caller, Linker};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock};

/// The wall clock of every guest starts here (2025-01-01T00:00:00Z).
const WALL_CLOCK_START: Duration = Duration::from_nanos(WALL_CLOCK_START_NANOS);

/// Nanoseconds since the execution started, shared by both clocks and by `poll_oneoff`, with the
/// execution's limit.
#[derive(Debug, Clone)]
pub struct VirtualClock(Arc<AtomicU64>, u64);

/// The error a guest's sleep traps with when it takes virtual time past the limit.
#[derive(Debug, thiserror::Error)]
#[error("virtual time passed the time limit of {limit:?}")]
pub struct VirtualTimeExceeded {
    /// The limit.
    pub limit: Duration,
}

impl VirtualClock {
    /// A clock at 0 whose sleeps may not take it past `limit`.
    pub fn with_limit(limit: Duration) -> VirtualClock {
        let limit = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        VirtualClock(Arc::new(AtomicU64::new(0)), limit)
    }

    /// Whether virtual time has passed the limit.
    fn past_limit(&self) -> bool {
        self.now() > self.1
    }

    fn tick(&self) -> u64 {
        self.0.fetch_add(TICK_NANOS, Ordering::Relaxed) + TICK_NANOS
    }

    fn advance_to(&self, nanos: u64) {
        self.0.fetch_max(nanos, Ordering::Relaxed);
    }

    fn now(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// The virtual wall clock now, in nanoseconds since the Unix epoch, without advancing it:
    /// the times the guest's files report.
    pub fn wall_nanos(&self) -> u64 {
        (WALL_CLOCK_START.as_nanos() as u64).saturating_add(self.now())
    }
}

impl HostMonotonicClock for VirtualClock {
    fn resolution(&self) -> u64 {
        TICK_NANOS
    }

    fn now(&self) -> u64 {
        self.tick()
    }
}

impl HostWallClock for VirtualClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(TICK_NANOS)
    }

    fn now(&self) -> Duration {
        WALL_CLOCK_START + Duration::from_nanos(self.tick())
    }
}

const ERRNO_FAULT: i32 = 21;

/// Replaces WASI's `poll_oneoff` with one on virtual time.
///
/// wasmtime-wasi's own version sleeps on the host (blocking the worker, out of reach of the epoch
/// deadline). Ours answers at once: file descriptors are always ready (stdio is in memory), and when
/// only clocks are waited on, virtual time jumps to the earliest deadline.
pub fn add_virtual_poll_oneoff<T: 'static>(
    linker: &mut Linker<T>,
    clock_of: fn(&T) -> &VirtualClock,
) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    linker.func_wrap(
        "wasi_snapshot_preview1",
        "poll_oneoff",
        move |mut caller: Caller<'_, T>,
              subs: i32,
              events: i32,
              count: i32,
              nevents_out: i32|
              -> wasmtime::Result<i32> {
            let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
                return Ok(ERRNO_FAULT);
            };
            let clock = clock_of(caller.data()).clone();
            let mut data = memory.data_mut(&mut caller);
            let mut time = VirtualTime::at(clock.now(), clock.1);
            let errno = time.poll_oneoff(
                &mut data,
                subs as u32,
                events as u32,
                count as u32,
                nevents_out as u32,
            ) as i32;
            clock.advance_to(time.now());
            if clock.past_limit() {
                return Err(VirtualTimeExceeded {
                    limit: Duration::from_nanos(clock.1),
                }
                .into());
            }
            Ok(errno)
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}
