//! Backpressure between a client and the server: the requests it owes an answer and the lines
//! not yet written to stdout.
//!
//! rmcp reads every request it is given and answers each from a task of its own, so a client
//! that never reads stdout would have the server queue answers without end. The pre-parser is
//! the only gate in front of rmcp: it reads the next line only while fewer than
//! `MAX_QUEUED_ANSWERS` answers are owed or queued and fewer than `MAX_QUEUED_ANSWER_BYTES` wait
//! to be written; otherwise the pipe fills and the client's writes block. Nothing is dropped:
//! the server reads on as the client reads.
//!
//! An answer is owed from the moment its request is forwarded until rmcp hands back the
//! response line; that moment must come for every forwarded request, or the slot would never
//! free. Two things made rmcp keep an answer back, and the pre-parser removes both: a request
//! rmcp cannot decode (it answered with id null; the pre-parser now refuses it with its id),
//! and `notifications/cancelled` (rmcp dropped the answer of a request cancelled while it ran,
//! or sent it when the cancel came late, with no way to tell which). Cancels stop here instead:
//! the call's token is cancelled ([`InFlight::on_cancel`]) and its answer, when it comes, is
//! dropped, which is what MCP asks of a cancelled request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use tokio::sync::Notify;

use crate::limits::{MAX_QUEUED_ANSWER_BYTES, MAX_QUEUED_ANSWERS};

/// What stops the work of a running call.
type Canceller = Box<dyn FnOnce() + Send>;

/// The requests forwarded and not yet answered, and the lines queued for stdout. A request id
/// in flight is never taken again (MCP: an id must not be reused), so no client gets two
/// answers for one id.
#[derive(Clone, Default)]
pub struct InFlight(Arc<Shared>);

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Default)]
struct State {
    /// Forwarded requests by id (the id's JSON text), until rmcp answers them.
    owed: HashMap<String, Owed>,
    /// Lines accepted for stdout and not yet written, and their bytes.
    queued: usize,
    queued_bytes: usize,
}

#[derive(Default)]
struct Owed {
    cancelled: bool,
    canceller: Option<Canceller>,
}

impl State {
    fn room_to_read(&self) -> bool {
        self.owed.len() + self.queued < MAX_QUEUED_ANSWERS
            && self.queued_bytes < MAX_QUEUED_ANSWER_BYTES
    }

    fn room_to_queue(&self) -> bool {
        self.queued < MAX_QUEUED_ANSWERS && self.queued_bytes < MAX_QUEUED_ANSWER_BYTES
    }
}

impl InFlight {
    fn state(&self) -> MutexGuard<'_, State> {
        self.0.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn changed(&self) {
        self.0.changed.notify_waiters();
    }

    async fn wait_until(&self, ready: fn(&State) -> bool) {
        loop {
            let notified = self.0.changed.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if ready(&self.state()) {
                return;
            }
            notified.await;
        }
    }

    /// Until the server may read the next line from the client: every line can cost an
    /// answer.
    pub async fn room_to_read(&self) {
        self.wait_until(State::room_to_read).await
    }

    /// Until the server may take the next line from rmcp into the stdout queue (progress
    /// notifications come without a request; answers are bounded by `room_to_read`).
    pub async fn room_to_queue(&self) {
        self.wait_until(State::room_to_queue).await
    }

    /// Record a request about to be forwarded; false when its id is already in flight.
    pub fn start(&self, id: &Value) -> bool {
        match self.state().owed.entry(id.to_string()) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(Owed::default());
                true
            }
        }
    }

    /// `notifications/cancelled` for `id`: stop the call's work, and drop its answer. A
    /// request not in flight (answered, or never sent) is left alone.
    pub fn cancel(&self, id: &Value) {
        let canceller = match self.state().owed.get_mut(&id.to_string()) {
            Some(owed) => {
                owed.cancelled = true;
                owed.canceller.take()
            }
            None => None,
        };
        if let Some(cancel) = canceller {
            cancel();
        }
    }

    /// A tool call that has started: `cancel` stops its work when the client cancels it
    /// (at once if the cancel came first).
    pub fn on_cancel(&self, id: &rmcp::model::RequestId, cancel: impl FnOnce() + Send + 'static) {
        let Ok(id) = serde_json::to_value(id) else {
            return;
        };
        let mut state = self.state();
        match state.owed.get_mut(&id.to_string()) {
            Some(owed) if owed.cancelled => {
                drop(state);
                cancel();
            }
            Some(owed) => owed.canceller = Some(Box::new(cancel)),
            None => {}
        }
    }

    /// A line from rmcp: true when it goes to stdout (it is then queued), false for the answer
    /// of a cancelled request. An answer frees its request's id.
    pub fn from_server(&self, line: &str) -> bool {
        #[derive(serde::Deserialize)]
        struct Response {
            id: Option<Value>,
            result: Option<serde::de::IgnoredAny>,
            error: Option<serde::de::IgnoredAny>,
        }
        let answered = match serde_json::from_str::<Response>(line) {
            Ok(Response {
                id: Some(id),
                result,
                error,
            }) if result.is_some() || error.is_some() => Some(id.to_string()),
            _ => None,
        };
        let mut state = self.state();
        let owed = answered.and_then(|id| state.owed.remove(&id));
        if owed.is_some_and(|owed| owed.cancelled) {
            drop(state);
            self.changed();
            return false;
        }
        state.queued += 1;
        state.queued_bytes += line.len();
        true
    }

    /// A line of the pre-parser's own (an error reply) queued for stdout.
    pub fn reply(&self, line: &str) {
        let mut state = self.state();
        state.queued += 1;
        state.queued_bytes += line.len();
    }

    /// A queued line of `bytes` has been written (or could not be: the client is gone).
    pub fn written(&self, bytes: usize) {
        {
            let mut state = self.state();
            state.queued = state.queued.saturating_sub(1);
            state.queued_bytes = state.queued_bytes.saturating_sub(bytes);
        }
        self.changed();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    fn ready(future: impl std::future::Future<Output = ()>) -> bool {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            tokio::time::timeout(Duration::from_millis(20), future)
                .await
                .is_ok()
        })
    }

    #[test]
    fn reading_stops_at_64_owed_or_queued_answers_and_resumes_as_they_are_written() {
        let in_flight = InFlight::default();
        for id in 0..MAX_QUEUED_ANSWERS - 1 {
            assert!(in_flight.start(&json!(id)));
        }
        assert!(ready(in_flight.room_to_read()));
        in_flight.reply(r#"{"jsonrpc":"2.0","id":null,"error":{}}"#);
        assert!(!ready(in_flight.room_to_read()), "63 owed + 1 queued");
        // An answer moves from owed to queued: still no room.
        let answer = r#"{"jsonrpc":"2.0","id":0,"result":{}}"#;
        assert!(in_flight.from_server(answer));
        assert!(!ready(in_flight.room_to_read()));
        in_flight.written(answer.len());
        assert!(ready(in_flight.room_to_read()));
        // The id is free again once answered.
        assert!(in_flight.start(&json!(0)));
        assert!(!in_flight.start(&json!(1)), "an id in flight is refused");
    }

    #[test]
    fn reading_stops_at_64_mib_of_queued_lines() {
        let in_flight = InFlight::default();
        let big = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":"{}"}}"#,
            "a".repeat(MAX_QUEUED_ANSWER_BYTES)
        );
        assert!(in_flight.from_server(&big));
        assert!(!ready(in_flight.room_to_read()));
        assert!(!ready(in_flight.room_to_queue()));
        in_flight.written(big.len());
        assert!(ready(in_flight.room_to_read()) && ready(in_flight.room_to_queue()));
    }

    #[test]
    fn a_cancelled_call_is_stopped_and_its_answer_dropped_whichever_comes_first() {
        let id = rmcp::model::RequestId::Number(5);
        let stopped = Arc::new(AtomicUsize::new(0));
        let count = |stopped: &Arc<AtomicUsize>| {
            let stopped = Arc::clone(stopped);
            move || {
                stopped.fetch_add(1, Ordering::SeqCst);
            }
        };
        // Registered, then cancelled.
        let in_flight = InFlight::default();
        assert!(in_flight.start(&json!(5)));
        in_flight.on_cancel(&id, count(&stopped));
        assert_eq!(stopped.load(Ordering::SeqCst), 0);
        in_flight.cancel(&json!(5));
        assert_eq!(stopped.load(Ordering::SeqCst), 1);
        assert!(!in_flight.from_server(r#"{"jsonrpc":"2.0","id":5,"result":{}}"#));
        assert!(ready(in_flight.room_to_read()));
        assert_eq!(
            in_flight.state().queued,
            0,
            "a dropped answer is not queued"
        );
        // Cancelled before the call started: stopped as it registers.
        assert!(in_flight.start(&json!(5)));
        in_flight.cancel(&json!(5));
        in_flight.on_cancel(&id, count(&stopped));
        assert_eq!(stopped.load(Ordering::SeqCst), 2);
        // A cancel after the answer changes nothing.
        assert!(!in_flight.from_server(r#"{"jsonrpc":"2.0","id":5,"error":{}}"#));
        in_flight.cancel(&json!(5));
        assert!(in_flight.start(&json!("5")), "a string id is another id");
        assert!(in_flight.from_server(r#"{"jsonrpc":"2.0","id":"5","result":{}}"#));
    }
}
