//! Serving the stream overlay from the app: the overlay's own server ([`crate::overlay`])
//! on a small tokio runtime, fed with the app's confirmed hand and score.

use crate::jsonl::Request;
use crate::overlay::state::{HandView, ScoreView, SourceStatus, Status};
use crate::overlay::{serve, Hub, Server};
use std::net::{Ipv4Addr, SocketAddr};

/// A running overlay server.
pub struct OverlayLink {
    runtime: tokio::runtime::Runtime,
    server: Option<Server>,
    hub: Hub,
    pub url: String,
}

impl OverlayLink {
    /// Serves on `127.0.0.1:port` (loopback only: the app has no remote option).
    pub fn start(port: u16) -> Result<OverlayLink, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("overlay")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the overlay's runtime: {e}"))?;
        let hub = Hub::new();
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let server = runtime
            .block_on(serve(addr, hub.clone(), false))
            .map_err(|e| e.to_string())?;
        let url = server.url();
        hub.update(|s| s.source = SourceStatus::new("app", None, Status::Running, None));
        Ok(OverlayLink {
            runtime,
            server: Some(server),
            hub,
            url,
        })
    }

    /// Shows `request`'s hand and, when it scores, its score (a failed score keeps the last
    /// confirmed win, as in headless mode). Cheap when nothing changed: the hub publishes
    /// only changes.
    pub fn show(&self, request: Option<&Request>) {
        let Some(request) = request else {
            self.hub.update(|s| s.hand = None);
            return;
        };
        let mut hand_text = request.hand.clone();
        for m in &request.melds {
            hand_text.push(' ');
            hand_text.push_str(m);
        }
        let dora = match &request.dora_indicators {
            crate::jsonl::Tiles::Text(t) => t.clone(),
            crate::jsonl::Tiles::List(l) => l.concat(),
            crate::jsonl::Tiles::None => String::new(),
        };
        let score = ScoreView::score(request).ok();
        let hand = HandView::from_notation(&hand_text, &dora, false, score.is_some()).ok();
        self.hub.update(|s| {
            s.hand = hand;
            if score.is_some() {
                s.score = score;
            }
        });
    }
}

impl Drop for OverlayLink {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            self.runtime.block_on(server.shutdown());
        }
    }
}
