//! The session's delivery ledger, the rules of `apps/pilot-e2e/src/workload/delivery-ledger.ts`:
//! client messages arrive as 0, 1, 2, …; a child's updates likewise, where an update already
//! delivered may come again with a new nonce (its activity ran again); anything else is an
//! anomaly. Children are kept in first-delivery order, as a JavaScript object keeps its keys.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::session_state::SessionMessage;

const MAX_RECORDED_ANOMALIES: usize = 20;
const REMEMBERED_NONCES: usize = 4;

#[derive(Serialize, Deserialize, Clone, Default)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryLedger {
    pub client: u64,
    pub children: ChildrenProgress,
    pub resent: u64,
    pub anomaly_count: u64,
    pub anomalies: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone, Default)]
pub struct ChildProgress {
    pub next: u64,
    pub nonces: Vec<String>,
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// Each child's progress keyed by its id, in insertion order (a JSON object on the wire).
#[derive(Clone, Default)]
pub struct ChildrenProgress(Vec<(String, ChildProgress)>);

impl ChildrenProgress {
    fn get(&self, child: &str) -> Option<&ChildProgress> {
        self.0.iter().find(|(id, _)| id == child).map(|(_, progress)| progress)
    }

    /// Replaces a child's progress where it stands, or appends it.
    fn set(&mut self, child: &str, progress: ChildProgress) {
        match self.0.iter_mut().find(|(id, _)| id == child) {
            Some(entry) => entry.1 = progress,
            None => self.0.push((child.to_string(), progress)),
        }
    }
}

impl Serialize for ChildrenProgress {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (id, progress) in &self.0 {
            map.serialize_entry(id, progress)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ChildrenProgress {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = ChildrenProgress;
            fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
                formatter.write_str("an object of child progress entries")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(ChildrenProgress(entries))
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

impl DeliveryLedger {
    fn record_anomaly(&mut self, description: String) {
        self.anomaly_count += 1;
        if self.anomalies.len() < MAX_RECORDED_ANOMALIES {
            self.anomalies.push(description);
        }
    }

    /// Records one delivered message.
    pub fn record(&mut self, message: &SessionMessage) {
        if message.kind != "update" {
            if message.seq == self.client {
                self.client += 1;
            } else {
                let due = self.client;
                self.record_anomaly(format!("client message {} arrived when {due} was due", message.seq));
            }
            return;
        }
        let nonce = message.nonce.clone().unwrap_or_default();
        let progress = self.children.get(&message.from).cloned().unwrap_or_default();
        if message.seq == progress.next && !progress.is_final {
            let mut nonces = progress.nonces;
            nonces.push(nonce);
            let keep_from = nonces.len().saturating_sub(REMEMBERED_NONCES);
            let next = ChildProgress {
                next: progress.next + 1,
                nonces: nonces.split_off(keep_from),
                is_final: message.is_final.unwrap_or(false),
            };
            self.children.set(&message.from, next);
            return;
        }
        let seen = progress.nonces.contains(&nonce);
        if message.seq < progress.next && !seen {
            self.resent += 1;
            return;
        }
        let why = if seen {
            "twice (same nonce)".to_string()
        } else {
            format!("when {} was due", progress.next)
        };
        self.record_anomaly(format!("update {} of {} arrived {why}", message.seq, message.from));
    }

    /// How many children have sent their final update.
    pub fn finished_children(&self) -> u64 {
        self.children.0.iter().filter(|(_, progress)| progress.is_final).count() as u64
    }
}
