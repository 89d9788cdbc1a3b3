//! The pilot-e2e swarm's session workload on the Rust duroxide runtime, so a Rust worker can
//! serve the same schema as duro's workers, each picking up any turn or activity of any session.

mod activities;
mod delivery_ledger;
mod digest;
mod kv_fifo;
mod seeded_random;
mod session;
mod session_state;
mod worker;
