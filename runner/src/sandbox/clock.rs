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
use wasmtime::{Caller, Linker};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock};

/// 2025-01-01T00:00:00Z: the wall clock of every guest starts here.
const WALL_CLOCK_START: Duration = Duration::from_secs(1_735_689_600);
/// How far a clock reading advances time, in nanoseconds.
const TICK_NANOS: u64 = 1_000;

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

    fn advance_by(&self, nanos: u64) {
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(nanos))
            });
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

// Layout of WASI preview 1's `subscription` and `event` records.
const SUBSCRIPTION_SIZE: usize = 48;
const EVENT_SIZE: usize = 32;
const EVENTTYPE_CLOCK: u8 = 0;
const SUBCLOCKFLAGS_ABSTIME: u16 = 1;
const CLOCKID_REALTIME: u32 = 0;
const ERRNO_SUCCESS: i32 = 0;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;

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
            let data = memory.data_mut(&mut caller);
            let errno = poll_oneoff(
                data,
                &clock,
                subs as u32 as usize,
                events as u32 as usize,
                count as u32 as usize,
                nevents_out as u32 as usize,
            );
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

fn poll_oneoff(
    mem: &mut [u8],
    clock: &VirtualClock,
    subs: usize,
    events: usize,
    count: usize,
    nevents_out: usize,
) -> i32 {
    if count == 0 {
        return ERRNO_INVAL;
    }
    let Some(subs_bytes) = count
        .checked_mul(SUBSCRIPTION_SIZE)
        .and_then(|len| mem.get(subs..subs.checked_add(len)?))
    else {
        return ERRNO_FAULT;
    };
    let read_u64 =
        |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    // (userdata, tag) of the subscriptions that fire now.
    let mut fired: Vec<(u64, u8)> = Vec::new();
    let mut earliest_clock: Option<(u64, u64)> = None; // (deadline in virtual ns, userdata)
    for sub in subs_bytes.chunks_exact(SUBSCRIPTION_SIZE) {
        let userdata = read_u64(sub, 0);
        let tag = sub[8];
        if tag == EVENTTYPE_CLOCK {
            let clock_id = u32::from_le_bytes(sub[16..20].try_into().expect("4 bytes"));
            let timeout = read_u64(sub, 24);
            let flags = u16::from_le_bytes(sub[40..42].try_into().expect("2 bytes"));
            let deadline = if flags & SUBCLOCKFLAGS_ABSTIME != 0 {
                let start = if clock_id == CLOCKID_REALTIME {
                    WALL_CLOCK_START.as_nanos() as u64
                } else {
                    0
                };
                timeout.saturating_sub(start)
            } else {
                clock.now().saturating_add(timeout)
            };
            if earliest_clock.is_none_or(|(d, _)| deadline < d) {
                earliest_clock = Some((deadline, userdata));
            }
        } else {
            fired.push((userdata, tag));
        }
    }
    if fired.is_empty() {
        let (deadline, userdata) = earliest_clock.expect("count > 0 and no fd subscription");
        clock.advance_to(deadline);
        clock.advance_by(TICK_NANOS);
        fired.push((userdata, EVENTTYPE_CLOCK));
    }
    let Some(out) = fired
        .len()
        .checked_mul(EVENT_SIZE)
        .and_then(|len| mem.get_mut(events..events.checked_add(len)?))
    else {
        return ERRNO_FAULT;
    };
    for (event, (userdata, tag)) in out.chunks_exact_mut(EVENT_SIZE).zip(&fired) {
        event.fill(0);
        event[0..8].copy_from_slice(&userdata.to_le_bytes());
        event[10] = *tag;
        // For fd events: nbytes stays 0 and flags 0; the following read or write tells the truth.
    }
    let Some(slot) = mem.get_mut(nevents_out..nevents_out + 4) else {
        return ERRNO_FAULT;
    };
    slot.copy_from_slice(&(fired.len() as u32).to_le_bytes());
    ERRNO_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock_subscription(userdata: u64, timeout: u64) -> [u8; SUBSCRIPTION_SIZE] {
        let mut sub = [0u8; SUBSCRIPTION_SIZE];
        sub[0..8].copy_from_slice(&userdata.to_le_bytes());
        sub[8] = EVENTTYPE_CLOCK;
        sub[16..20].copy_from_slice(&1u32.to_le_bytes());
        sub[24..32].copy_from_slice(&timeout.to_le_bytes());
        sub
    }

    #[test]
    fn sleeping_advances_virtual_time_and_returns_at_once() {
        let clock = VirtualClock::with_limit(Duration::from_secs(3600));
        let mut mem = vec![0u8; 256];
        mem[..48].copy_from_slice(&clock_subscription(7, 10u64.pow(15)));
        assert_eq!(poll_oneoff(&mut mem, &clock, 0, 64, 1, 200), ERRNO_SUCCESS);
        assert_eq!(u32::from_le_bytes(mem[200..204].try_into().unwrap()), 1);
        assert_eq!(u64::from_le_bytes(mem[64..72].try_into().unwrap()), 7);
        assert!(clock.now() >= 10u64.pow(15));
    }

    #[test]
    fn out_of_bounds_pointers_are_a_fault_not_a_panic() {
        let clock = VirtualClock::with_limit(Duration::from_secs(3600));
        let mut mem = vec![0u8; 64];
        assert_eq!(poll_oneoff(&mut mem, &clock, 40, 0, 1, 0), ERRNO_FAULT);
        assert_eq!(
            poll_oneoff(&mut mem, &clock, 0, 0, usize::MAX / 2, 0),
            ERRNO_FAULT
        );
    }
}
