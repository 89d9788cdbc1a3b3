//! The session's FIFO in its key-value store, as `apps/pilot-e2e/src/workload/kv-fifo.ts` keeps
//! it: a ring of slots plus head and tail counters, read and written in the same order.

use duroxide::OrchestrationContext;

/// Slots of the ring; a session stops draining its queue while the ring is full.
pub const FIFO_CAPACITY: u64 = 40;

const HEAD_KEY: &str = "fifo.head";
const TAIL_KEY: &str = "fifo.tail";

fn slot_key(index: u64) -> String {
    format!("fifo.{}", index % FIFO_CAPACITY)
}

pub struct KvFifo<'a> {
    ctx: &'a OrchestrationContext,
}

impl<'a> KvFifo<'a> {
    pub fn new(ctx: &'a OrchestrationContext) -> Self {
        Self { ctx }
    }

    fn counter(&self, key: &str) -> u64 {
        self.ctx
            .get_kv_value(key)
            .and_then(|text| text.parse().ok())
            .unwrap_or(0)
    }

    /// Entries waiting.
    pub fn size(&self) -> u64 {
        self.counter(TAIL_KEY) - self.counter(HEAD_KEY)
    }

    pub fn full(&self) -> bool {
        self.size() >= FIFO_CAPACITY
    }

    /// Appends one entry; an error when the ring is full (callers check `full` first).
    pub fn push(&self, entry: &str) -> Result<(), String> {
        if self.full() {
            return Err(format!("KV FIFO is full ({FIFO_CAPACITY} entries)"));
        }
        let tail = self.counter(TAIL_KEY);
        self.ctx.set_kv_value(slot_key(tail), entry);
        self.ctx.set_kv_value(TAIL_KEY, (tail + 1).to_string());
        Ok(())
    }

    /// Removes and returns up to `count` entries, oldest first.
    pub fn take(&self, count: u64) -> Vec<String> {
        let head = self.counter(HEAD_KEY);
        let taking = count.min(self.size());
        let taken: Vec<String> = (head..head + taking)
            .map(|index| {
                let key = slot_key(index);
                let entry = self
                    .ctx
                    .get_kv_value(&key)
                    .unwrap_or_else(|| format!("<missing {key}>"));
                self.ctx.clear_kv_value(key);
                entry
            })
            .collect();
        if !taken.is_empty() {
            self.ctx.set_kv_value(HEAD_KEY, (head + taken.len() as u64).to_string());
        }
        taken
    }
}
