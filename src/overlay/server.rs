//! The overlay's web server (axum): the page, its bundled files, `/api/state` and the live
//! `/api/events` stream.
//!
//! Safety properties, each enforced here:
//! - Binds a loopback address unless the caller passes `allow_remote` (the CLI's
//!   `--allow-remote`); without it, requests whose `Host` is not a loopback name are refused
//!   too (DNS rebinding).
//! - Read-only: every route is GET/HEAD (anything else is 405); nothing changes state.
//! - Serves only the bundled files from fixed tables; request paths are never decoded into
//!   file names, so no path reaches the file system.
//! - Bounded: at most [`Options::max_requests`] requests and event streams at once (503
//!   beyond), at most [`Options::max_connections`] TCP connections (more are closed at once),
//!   and a connection that makes no progress for [`Options::idle_timeout`] is closed.
//! - Publishing never waits for clients (see [`Hub`]).

use super::assets;
use super::hub::Hub;
use axum::body::Body;
use axum::extract::{Extension, Request, State};
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;
use tokio::time::{Instant, Sleep};

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServeError {
    #[error("refusing to listen on {0}: that address is reachable from other machines; pass --allow-remote to serve the overlay beyond this computer (it is read-only and unauthenticated)")]
    NotLoopback(SocketAddr),
    #[error(
        "cannot listen on {addr}: {source} (is another overlay running? choose another --port)"
    )]
    Bind { addr: SocketAddr, source: io::Error },
}

/// Server limits; [`Options::default`] is what `riichi-lens overlay` uses.
#[derive(Clone, Debug)]
pub struct Options {
    /// Allow a non-loopback bind address and any `Host` header.
    pub allow_remote: bool,
    /// Requests being answered plus open event streams; more get 503.
    pub max_requests: usize,
    /// Open TCP connections; more are closed as soon as they are accepted.
    pub max_connections: usize,
    /// A connection with no bytes read or written for this long is closed.
    pub idle_timeout: Duration,
    /// Interval of keep-alive comments on event streams.
    pub keep_alive: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            allow_remote: false,
            max_requests: 32,
            max_connections: 64,
            idle_timeout: Duration::from_secs(60),
            keep_alive: Duration::from_secs(15),
        }
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    closing: watch::Sender<bool>,
    task: JoinHandle<io::Result<()>>,
}

impl Server {
    /// The address it listens on (with the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL, e.g. `http://127.0.0.1:7878/overlay`.
    pub fn url(&self) -> String {
        format!("http://{}/overlay", self.addr)
    }

    /// Ends every event stream, stops accepting, and waits (at most 3 s) for open requests.
    pub async fn shutdown(self) {
        let _ = self.closing.send(true);
        let mut task = self.task;
        if tokio::time::timeout(Duration::from_secs(3), &mut task)
            .await
            .is_err()
        {
            task.abort();
        }
    }

    /// Runs until the server stops by itself (it does not, unless it fails).
    pub async fn wait(self) -> io::Result<()> {
        self.task.await.unwrap_or_else(|e| Err(io::Error::other(e)))
    }
}

/// Starts the overlay server on `addr` with the default limits, on the current tokio runtime.
/// A non-loopback `addr` is refused unless `allow_remote`.
pub async fn serve(addr: SocketAddr, hub: Hub, allow_remote: bool) -> Result<Server, ServeError> {
    serve_with(
        addr,
        hub,
        Options {
            allow_remote,
            ..Options::default()
        },
    )
    .await
}

/// [`serve`] with explicit limits.
pub async fn serve_with(
    addr: SocketAddr,
    hub: Hub,
    options: Options,
) -> Result<Server, ServeError> {
    check_bind_address(addr, options.allow_remote)?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind { addr, source })?;
    let local = listener
        .local_addr()
        .map_err(|source| ServeError::Bind { addr, source })?;
    let (closing, closing_rx) = watch::channel(false);
    let app = router(hub, &options, closing_rx.clone());
    let listener = Limited {
        inner: listener,
        slots: Arc::new(Semaphore::new(options.max_connections)),
        idle: options.idle_timeout,
    };
    let mut stop = closing_rx;
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stop.wait_for(|c| *c).await;
            })
            .await
    });
    Ok(Server {
        addr: local,
        closing,
        task,
    })
}

/// Refuses a non-loopback address unless `allow_remote`.
pub fn check_bind_address(addr: SocketAddr, allow_remote: bool) -> Result<(), ServeError> {
    if addr.ip().is_loopback() || allow_remote {
        Ok(())
    } else {
        Err(ServeError::NotLoopback(addr))
    }
}

#[derive(Clone)]
struct App {
    hub: Hub,
    requests: Arc<Semaphore>,
    closing: watch::Receiver<bool>,
    allow_remote: bool,
    keep_alive: Duration,
}

/// The request's slot in the request limit; the event stream takes it for its lifetime.
#[derive(Clone)]
struct PermitSlot(Arc<Mutex<Option<OwnedSemaphorePermit>>>);

impl PermitSlot {
    fn take(&self) -> Option<OwnedSemaphorePermit> {
        self.0.lock().ok().and_then(|mut p| p.take())
    }
}

/// The overlay's routes and middleware, for tests that drive it without a socket
/// (`tower::ServiceExt::oneshot`). `closing` set to `true` ends every event stream.
pub fn router(hub: Hub, options: &Options, closing: watch::Receiver<bool>) -> Router {
    let app = App {
        hub,
        requests: Arc::new(Semaphore::new(options.max_requests)),
        closing,
        allow_remote: options.allow_remote,
        keep_alive: options.keep_alive,
    };
    Router::new()
        .route("/", get(|| async { Redirect::to("/overlay") }))
        .route("/overlay", get(page))
        .route("/overlay.js", get(script))
        .route("/overlay.css", get(style))
        .route("/tiles/{file}", get(tile))
        .route("/api/state", get(state))
        .route("/api/events", get(events))
        .fallback(not_found)
        .layer(from_fn_with_state(app.clone(), limit))
        .layer(from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

fn text(status: StatusCode, message: &'static str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

async fn not_found() -> Response {
    text(StatusCode::NOT_FOUND, "not found\n")
}

/// Whether a `Host` header names this machine: `localhost`, a 127.x.x.x address or `[::1]`,
/// with any port.
fn loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((inside, _)) => inside,
            None => return false,
        }
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Host check (unless remote access is allowed) and common security headers.
async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    if !app.allow_remote {
        if let Some(host) = request.headers().get(header::HOST) {
            if !host.to_str().is_ok_and(loopback_host) {
                return text(
                    StatusCode::FORBIDDEN,
                    "this overlay only answers requests for localhost (start it with --allow-remote to serve other names)\n",
                );
            }
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// The request limit: 503 when every slot is taken.
async fn limit(State(app): State<App>, mut request: Request, next: Next) -> Response {
    let Ok(permit) = app.requests.clone().try_acquire_owned() else {
        let mut response = text(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many connections to the overlay; try again shortly\n",
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
        return response;
    };
    let slot = PermitSlot(Arc::new(Mutex::new(Some(permit))));
    request.extensions_mut().insert(slot.clone());
    let response = next.run(request).await;
    drop(slot); // the permit goes now, unless an event stream took it
    response
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn page() -> Response {
    let mut response = asset("text/html; charset=utf-8", assets::PAGE_HTML);
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'",
        ),
    );
    response
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", assets::PAGE_JS)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", assets::PAGE_CSS)
}

/// `/tiles/NAME.png`: looked up by the raw (undecoded) path in the fixed tile table.
async fn tile(uri: Uri) -> Response {
    let png = uri
        .path()
        .strip_prefix("/tiles/")
        .and_then(|file| file.strip_suffix(".png"))
        .and_then(assets::tile_png);
    match png {
        Some(png) => (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            Body::from(png),
        )
            .into_response(),
        None => text(StatusCode::NOT_FOUND, "no such tile\n"),
    }
}

async fn state(State(app): State<App>) -> Response {
    let snapshot = app.hub.current();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        snapshot.json.clone(),
    )
        .into_response()
}

struct Stream {
    rx: watch::Receiver<Arc<super::hub::Snapshot>>,
    closing: watch::Receiver<bool>,
    first: bool,
    _permit: Option<OwnedSemaphorePermit>,
}

/// `/api/events`: the current state at once, then every change (only the newest when a
/// client falls behind), and keep-alive comments.
async fn events(State(app): State<App>, Extension(slot): Extension<PermitSlot>) -> Response {
    let stream = Stream {
        rx: app.hub.subscribe(),
        closing: app.closing.clone(),
        first: true,
        _permit: slot.take(),
    };
    let events = futures_util::stream::unfold(stream, |mut s| async move {
        if !s.first {
            tokio::select! {
                changed = s.rx.changed() => changed.ok()?,
                _ = s.closing.wait_for(|c| *c) => return None,
            }
        }
        if *s.closing.borrow() {
            return None;
        }
        let snapshot = s.rx.borrow_and_update().clone();
        let mut event = Event::default()
            .event("state")
            .id(snapshot.state.version.to_string());
        if s.first {
            // Browsers reconnect after this long when the stream drops.
            event = event.retry(Duration::from_millis(1000));
            s.first = false;
        }
        Some((Ok::<Event, Infallible>(event.data(&snapshot.json)), s))
    });
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(app.keep_alive))
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A TCP listener that keeps at most a fixed number of connections open.
struct Limited {
    inner: TcpListener,
    slots: Arc<Semaphore>,
    idle: Duration,
}

impl axum::serve::Listener for Limited {
    type Io = Conn;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Conn, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    // E.g. out of file descriptors: wait a little instead of spinning.
                    if !matches!(
                        e.kind(),
                        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
                    ) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            };
            let Ok(permit) = self.slots.clone().try_acquire_owned() else {
                drop(stream); // full: close at once
                continue;
            };
            let _ = stream.set_nodelay(true);
            return (Conn::new(stream, permit, self.idle), addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// An accepted connection: holds its slot and fails once idle for too long.
struct Conn {
    io: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl Conn {
    fn new(io: TcpStream, permit: OwnedSemaphorePermit, idle: Duration) -> Conn {
        Conn {
            io,
            _permit: permit,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    fn progress(&mut self) {
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    fn pending<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "overlay connection idle for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    this.progress();
                }
                Poll::Ready(result)
            }
            Poll::Pending => this.pending(cx),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_write(cx, buf) {
            Poll::Ready(result) => {
                if result.as_ref().is_ok_and(|&n| n > 0) {
                    this.progress();
                }
                Poll::Ready(result)
            }
            Poll::Pending => this.pending(cx),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_write_vectored(cx, bufs) {
            Poll::Ready(result) => {
                if result.as_ref().is_ok_and(|&n| n > 0) {
                    this.progress();
                }
                Poll::Ready(result)
            }
            Poll::Pending => this.pending(cx),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_flush(cx) {
            Poll::Pending => this.pending(cx),
            ready => ready,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost",
            "localhost:7878",
            "LOCALHOST:1",
            "127.0.0.1:7878",
            "127.1.2.3",
            "[::1]:7878",
            "[::1]",
        ] {
            assert!(loopback_host(host), "{host}");
        }
        for host in [
            "evil.example:7878",
            "192.168.1.2:7878",
            "[::2]:1",
            "[::1",
            "localhost.evil.example",
            "0.0.0.0:7878",
        ] {
            assert!(!loopback_host(host), "{host}");
        }
    }

    #[test]
    fn non_loopback_bind_needs_the_flag() {
        let any: SocketAddr = "0.0.0.0:7878".parse().unwrap();
        let err = check_bind_address(any, false).unwrap_err();
        assert!(err.to_string().contains("--allow-remote"));
        assert!(check_bind_address(any, true).is_ok());
        assert!(check_bind_address("[::1]:1".parse().unwrap(), false).is_ok());
    }
}
