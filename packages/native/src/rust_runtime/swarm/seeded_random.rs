//! The swarm's deterministic random source, bit for bit the one of
//! `apps/pilot-e2e/src/workload/seeded-random.ts` (mulberry32 seeded by FNV-1a over the seed
//! parts joined by NUL), so a session makes the same choices on either runtime.

pub struct SeededRandom {
    state: u32,
}

impl SeededRandom {
    /// Seeds from the parts as JavaScript writes them as text (`String(part)`).
    pub fn new(parts: &[&str]) -> Self {
        Self {
            state: hash_seed(&parts.join("\u{0}")),
        }
    }

    /// A float in [0, 1).
    pub fn next(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x6d2b_79f5);
        let mut t = self.state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    }

    /// An integer in [min, max], both included.
    pub fn between(&mut self, min: u64, max: u64) -> u64 {
        // The product is below `max - min + 1`, so the cast back is exact.
        min + (self.next() * (max - min + 1) as f64).floor() as u64
    }

    /// True with probability `share` (0..1).
    pub fn chance(&mut self, share: f64) -> bool {
        self.next() < share
    }
}

/// FNV-1a over the code points of `text`.
fn hash_seed(text: &str) -> u32 {
    text.chars().fold(0x811c_9dc5_u32, |hash, char| {
        (hash ^ u32::from(char)).wrapping_mul(0x0100_0193)
    })
}
