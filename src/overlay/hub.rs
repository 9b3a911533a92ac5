//! The [`Hub`]: the one current [`State`], shared between whatever produces it (the
//! recognizer thread, the table poller) and the web server's clients.
//!
//! Publishing never waits for clients: the state lives in a `tokio::sync::watch` channel,
//! which keeps only the latest value. A client that reads slowly (or not at all) simply sees
//! the newest state when it next reads; nothing queues up and the publisher never blocks
//! beyond a short lock held while the new state is stored.

use super::state::{now_rfc3339, State};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// A published state with its JSON, serialized once for every client.
#[derive(Debug)]
pub struct Snapshot {
    pub state: State,
    pub json: String,
}

impl Snapshot {
    fn new(state: State) -> Snapshot {
        let json = serde_json::to_string(&state).unwrap_or_else(|e| {
            // Serializing plain data cannot fail; keep the server answering if it ever did.
            serde_json::json!({"version": state.version, "error": e.to_string()}).to_string()
        });
        Snapshot { state, json }
    }
}

/// The current overlay state and its change notifications. Cheap to clone; all clones share
/// the same state.
#[derive(Clone, Debug)]
pub struct Hub {
    tx: Arc<watch::Sender<Arc<Snapshot>>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new()
    }
}

impl Hub {
    /// A hub holding an empty state (version 1, source `none`).
    pub fn new() -> Hub {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let state = State {
            version: 1,
            updated_at: now_rfc3339(),
            instance: format!("{millis:x}-{:x}", std::process::id()),
            source: super::state::SourceStatus::new(
                "none",
                None,
                super::state::Status::Starting,
                None,
            ),
            ..State::default()
        };
        let (tx, _) = watch::channel(Arc::new(Snapshot::new(state)));
        Hub { tx: Arc::new(tx) }
    }

    /// Replaces the shown state (its `version`, `updated_at` and `instance` are set here).
    /// Returns the new version. Never blocks on clients.
    pub fn publish(&self, state: State) -> u64 {
        let mut version = 0;
        self.tx.send_modify(|snap| {
            version = snap.state.version + 1;
            *snap = Arc::new(Snapshot::new(State {
                version,
                updated_at: now_rfc3339(),
                instance: snap.state.instance.clone(),
                ..state
            }));
        });
        version
    }

    /// Changes part of the state. Publishes (and returns the new version) only when the
    /// content changed, so pollers can call it as often as they like.
    pub fn update(&self, change: impl FnOnce(&mut State)) -> Option<u64> {
        let mut version = None;
        self.tx.send_if_modified(|snap| {
            let mut next = snap.state.clone();
            change(&mut next);
            if next.same_content(&snap.state) {
                return false;
            }
            next.version = snap.state.version + 1;
            next.updated_at = now_rfc3339();
            next.instance = snap.state.instance.clone();
            version = Some(next.version);
            *snap = Arc::new(Snapshot::new(next));
            true
        });
        version
    }

    /// The current state.
    pub fn current(&self) -> Arc<Snapshot> {
        self.tx.borrow().clone()
    }

    /// A receiver that is told of every change (only the latest one is kept).
    pub fn subscribe(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.tx.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::overlay::state::{SourceStatus, Status};

    #[test]
    fn versions_increase_and_unchanged_updates_are_skipped() {
        let hub = Hub::new();
        let first = hub.current();
        assert_eq!(first.state.version, 1);
        let mut rx = hub.subscribe();
        let v = hub.publish(State {
            source: SourceStatus::new("demo", None, Status::Running, None),
            ..State::default()
        });
        assert_eq!(v, 2);
        assert!(rx.has_changed().unwrap());
        assert_eq!(rx.borrow_and_update().state.source.kind, "demo");
        assert_eq!(hub.update(|s| s.source.status = Status::Running), None);
        assert!(!rx.has_changed().unwrap());
        assert_eq!(hub.update(|s| s.source.status = Status::Error), Some(3));
        let now = hub.current();
        assert_eq!(now.state.instance, first.state.instance);
        assert!(now.json.contains(r#""version":3"#));
    }

    #[test]
    fn publishing_without_clients_or_with_a_stalled_one_does_not_block() {
        let hub = Hub::new();
        let stalled = hub.subscribe(); // never reads
        for _ in 0..10_000 {
            hub.update(|s| s.hand = None);
            hub.publish(State::default());
        }
        assert_eq!(hub.current().state.version, 10_001);
        drop(stalled);
    }
}
