//! Virtual time: clocks that advance with what the guest does, never with the host's clock.
//!
//! Every reading of a clock moves time forward by one microsecond, and a sleep moves it forward by
//! the time slept and returns at once. Two runs of the same program therefore see the same times.
//! Virtual time counts, though: a sleep that takes it past the execution's time limit ends the
//! execution, a `timeout` as deterministic as fuel. The runner's clock (`runner/src/sandbox/
//! clock.rs`) and the browser's share these rules and [`poll_oneoff`].

use crate::{Errno, Memory};

/// 2025-01-01T00:00:00Z, in nanoseconds since the Unix epoch: the wall clock of every guest starts
/// here.
pub const WALL_CLOCK_START_NANOS: u64 = 1_735_689_600_000_000_000;
/// How far a clock reading advances time, in nanoseconds.
pub const TICK_NANOS: u64 = 1_000;

// Layout of WASI preview 1's `subscription` and `event` records.
const SUBSCRIPTION_SIZE: u32 = 48;
const EVENT_SIZE: u32 = 32;
const EVENTTYPE_CLOCK: u8 = 0;
const SUBCLOCKFLAGS_ABSTIME: u16 = 1;
/// WASI's realtime clock id.
pub const CLOCKID_REALTIME: u32 = 0;

/// Nanoseconds since the execution started, shared by every clock, and the execution's limit.
#[derive(Debug, Clone, Copy)]
pub struct VirtualTime {
    now: u64,
    limit: u64,
}

impl VirtualTime {
    /// Time 0, whose sleeps may not take it past `limit_nanos`.
    pub fn with_limit(limit_nanos: u64) -> VirtualTime {
        VirtualTime {
            now: 0,
            limit: limit_nanos,
        }
    }

    /// Time `now`, whose sleeps may not take it past `limit_nanos` (a host keeping the time
    /// elsewhere, between calls).
    pub fn at(now: u64, limit_nanos: u64) -> VirtualTime {
        VirtualTime {
            now,
            limit: limit_nanos,
        }
    }

    /// Nanoseconds since the start, without advancing.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Whether virtual time has passed the limit.
    pub fn past_limit(&self) -> bool {
        self.now > self.limit
    }

    /// A clock reading: time advances by [`TICK_NANOS`] and the new time is read.
    pub fn tick(&mut self) -> u64 {
        self.now = self.now.saturating_add(TICK_NANOS);
        self.now
    }

    /// The wall clock now, in nanoseconds since the Unix epoch, without advancing (file times).
    pub fn wall_nanos(&self) -> u64 {
        WALL_CLOCK_START_NANOS.saturating_add(self.now)
    }

    /// `poll_oneoff` on virtual time: file descriptors are always ready (stdio is in memory), and
    /// when only clocks are waited on, time jumps to the earliest deadline and one tick past it.
    pub fn poll_oneoff(
        &mut self,
        mem: &mut dyn Memory,
        subs: u32,
        events: u32,
        count: u32,
        nevents_out: u32,
    ) -> Errno {
        if count == 0 {
            return Errno::Inval;
        }
        let Some(len) = count.checked_mul(SUBSCRIPTION_SIZE) else {
            return Errno::Fault;
        };
        let Some(subs_bytes) = mem.read(subs, len) else {
            return Errno::Fault;
        };
        let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8"));
        // (userdata, tag) of the subscriptions that fire now.
        let mut fired: Vec<(u64, u8)> = Vec::new();
        let mut earliest: Option<(u64, u64)> = None; // (deadline, userdata)
        for sub in subs_bytes.chunks_exact(SUBSCRIPTION_SIZE as usize) {
            let userdata = u64_at(sub, 0);
            let tag = sub[8];
            if tag == EVENTTYPE_CLOCK {
                let clock_id = u32::from_le_bytes(sub[16..20].try_into().expect("4"));
                let timeout = u64_at(sub, 24);
                let flags = u16::from_le_bytes(sub[40..42].try_into().expect("2"));
                let deadline = if flags & SUBCLOCKFLAGS_ABSTIME != 0 {
                    let start = if clock_id == CLOCKID_REALTIME {
                        WALL_CLOCK_START_NANOS
                    } else {
                        0
                    };
                    timeout.saturating_sub(start)
                } else {
                    self.now.saturating_add(timeout)
                };
                if earliest.is_none_or(|(d, _)| deadline < d) {
                    earliest = Some((deadline, userdata));
                }
            } else {
                fired.push((userdata, tag));
            }
        }
        if fired.is_empty() {
            let (deadline, userdata) = earliest.expect("count > 0 and no fd subscription");
            self.now = self.now.max(deadline).saturating_add(TICK_NANOS);
            fired.push((userdata, EVENTTYPE_CLOCK));
        }
        let mut out = vec![0u8; fired.len() * EVENT_SIZE as usize];
        for (event, (userdata, tag)) in out.chunks_exact_mut(EVENT_SIZE as usize).zip(&fired) {
            event[0..8].copy_from_slice(&userdata.to_le_bytes());
            event[10] = *tag;
            // For fd events: nbytes stays 0 and flags 0; the following read or write tells the truth.
        }
        if !mem.write(events, &out) {
            return Errno::Fault;
        }
        if !mem.write(nevents_out, &(fired.len() as u32).to_le_bytes()) {
            return Errno::Fault;
        }
        Errno::Success
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock_subscription(userdata: u64, timeout: u64) -> [u8; 48] {
        let mut sub = [0u8; 48];
        sub[0..8].copy_from_slice(&userdata.to_le_bytes());
        sub[8] = EVENTTYPE_CLOCK;
        sub[16..20].copy_from_slice(&1u32.to_le_bytes());
        sub[24..32].copy_from_slice(&timeout.to_le_bytes());
        sub
    }

    #[test]
    fn sleeping_advances_virtual_time_and_returns_at_once() {
        let mut time = VirtualTime::with_limit(3_600 * 1_000_000_000);
        let mut mem = vec![0u8; 256];
        mem[..48].copy_from_slice(&clock_subscription(7, 10u64.pow(15)));
        assert_eq!(time.poll_oneoff(&mut mem, 0, 64, 1, 200), Errno::Success);
        assert_eq!(u32::from_le_bytes(mem[200..204].try_into().unwrap()), 1);
        assert_eq!(u64::from_le_bytes(mem[64..72].try_into().unwrap()), 7);
        assert!(time.now() >= 10u64.pow(15));
        assert!(time.past_limit());
    }

    #[test]
    fn out_of_bounds_pointers_are_a_fault_not_a_panic() {
        let mut time = VirtualTime::with_limit(u64::MAX);
        let mut mem = vec![0u8; 64];
        assert_eq!(time.poll_oneoff(&mut mem, 40, 0, 1, 0), Errno::Fault);
        assert_eq!(
            time.poll_oneoff(&mut mem, 0, 0, u32::MAX / 2, 0),
            Errno::Fault
        );
    }
}
