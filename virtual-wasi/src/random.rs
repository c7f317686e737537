//! The guest's "random" numbers: a fixed cycle of bytes from a seed, so that every run of a
//! program draws the same ones (the runner's `sandbox/random.rs` and the browser alike).

/// The seed of `random_get`'s stream.
pub const SEED: u64 = 0x5eed;

/// 4096 pseudo-random bytes (splitmix64 from `seed`), the cycle a stream repeats.
pub fn seeded_bytes(seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..512)
        .flat_map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)).to_le_bytes()
        })
        .collect()
}

/// A position in a cycle of bytes.
#[derive(Debug, Clone)]
pub struct RandomStream {
    cycle: Vec<u8>,
    position: usize,
}

impl RandomStream {
    /// The stream of `random_get`: [`seeded_bytes`] of [`SEED`] from its start.
    pub fn new() -> RandomStream {
        RandomStream::with_cycle(seeded_bytes(SEED))
    }

    /// A stream repeating `cycle` (not empty).
    pub fn with_cycle(cycle: Vec<u8>) -> RandomStream {
        assert!(!cycle.is_empty(), "a random cycle has bytes");
        RandomStream { cycle, position: 0 }
    }

    /// Fills `out` with the next bytes of the cycle.
    pub fn fill(&mut self, out: &mut [u8]) {
        let mut written = 0;
        while written < out.len() {
            let available = &self.cycle[self.position..];
            let n = available.len().min(out.len() - written);
            out[written..written + n].copy_from_slice(&available[..n]);
            written += n;
            self.position = (self.position + n) % self.cycle.len();
        }
    }
}

impl Default for RandomStream {
    fn default() -> Self {
        RandomStream::new()
    }
}
