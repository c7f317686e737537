//! A fast hasher for the maps that group results (by task, by unit, by group), where SipHash
//! was most of the time of a rescore. Keys come from the bundle being explored, and a bundle
//! crafted to collide only slows down the tab or command that opened it, so HashDoS resistance
//! buys nothing here. Iteration order of these maps is never observed: every grouping is sorted
//! afterwards, so results stay deterministic.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// The multiply-rotate hash of rustc's `FxHasher`, on 8 bytes at a time.
#[derive(Debug, Default, Clone, Copy)]
pub struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_close_keys_differ() {
        let mut map: FastMap<(&str, Option<&str>), u32> = FastMap::default();
        map.insert(("task/1", Some("m")), 1);
        map.insert(("task/1", None), 2);
        map.insert(("task/10", Some("m")), 3);
        assert_eq!(map.get(&("task/1", Some("m"))), Some(&1));
        assert_eq!(map.get(&("task/1", None)), Some(&2));
        assert_eq!(map.len(), 3);
    }
}
