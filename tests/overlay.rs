//! HTTP tests of the stream overlay: a real server on 127.0.0.1:0 and a hand-written
//! HTTP/1.1 client over std's TcpStream (blocking, on the test thread; the server runs on
//! its own tokio runtime).

mod common;

use common::video::still_clip;
use riichi_lens::overlay::{self, source, Hub, Options, ServeError, Server, State};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

struct Fixture {
    runtime: tokio::runtime::Runtime,
    server: Option<Server>,
    hub: Hub,
    addr: SocketAddr,
}

impl Fixture {
    fn start(options: Options) -> Fixture {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let hub = Hub::new();
        let server = runtime
            .block_on(overlay::serve_with(
                "127.0.0.1:0".parse().unwrap(),
                hub.clone(),
                options,
            ))
            .unwrap();
        let addr = server.local_addr();
        Fixture {
            runtime,
            server: Some(server),
            hub,
            addr,
        }
    }

    fn demo() -> Fixture {
        let f = Fixture::start(Options::default());
        f.hub.publish(source::demo_state());
        f
    }

    fn get(&self, path: &str) -> Response {
        request(self.addr, "GET", path, &[])
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            self.runtime.block_on(server.shutdown());
        }
    }
}

#[derive(Debug)]
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
}

fn request(addr: SocketAddr, method: &str, path: &str, extra: &[(&str, &str)]) -> Response {
    let mut stream = connect(addr);
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !extra.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> Response {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete response head");
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let line_end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..line_end]).unwrap().trim(), 16)
                    .unwrap();
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
            rest = &rest[line_end + 2 + size + 2..];
        }
        body = out;
    }
    Response {
        status,
        headers,
        body,
    }
}

/// An open `/api/events` stream.
struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// Connects and checks the response head; `None` when the server answered otherwise
    /// (the status is returned then).
    fn open(addr: SocketAddr) -> Result<Events, u16> {
        let mut stream = connect(addr);
        write!(
            stream,
            "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let code: u16 = status.split(' ').nth(1).unwrap().parse().unwrap();
        let mut content_type = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if line.to_ascii_lowercase().starts_with("content-type:") {
                content_type = line;
            }
        }
        if code != 200 {
            return Err(code);
        }
        assert!(content_type.contains("text/event-stream"), "{content_type}");
        Ok(Events { reader })
    }

    /// The next `state` event's JSON and the raw lines of the event.
    fn next_state(&mut self) -> (Value, Vec<String>) {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("an event in time");
            assert!(n > 0, "the event stream ended");
            let line = line.trim_end().to_string();
            if let Some(data) = line.strip_prefix("data: ") {
                lines.push(line.clone());
                return (serde_json::from_str(data).unwrap(), lines);
            }
            lines.push(line);
        }
    }

    /// Reads events until one has `version`.
    fn wait_for_version(&mut self, version: u64) -> Value {
        loop {
            let (state, _) = self.next_state();
            if state["version"].as_u64() == Some(version) {
                return state;
            }
        }
    }
}

#[test]
fn the_page_and_its_files() {
    let f = Fixture::demo();
    let page = f.get("/overlay");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(page.text().contains("/overlay.js"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'none'") && csp.contains("connect-src 'self'"));
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    let js = f.get("/overlay.js");
    assert_eq!(js.status, 200);
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert!(js.text().contains("EventSource"));
    let css = f.get("/overlay.css");
    assert_eq!(css.status, 200);
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
    assert!(css.text().contains("background: transparent"));
    let root = f.get("/");
    assert_eq!(root.status, 303);
    assert_eq!(root.header("location"), Some("/overlay"));
    let head = request(f.addr, "HEAD", "/overlay", &[]);
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
}

#[test]
fn api_state_is_the_documented_json() {
    let f = Fixture::demo();
    let r = f.get("/api/state");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let s = r.json();
    assert_eq!(s["version"], 2);
    assert!(s["updated_at"].as_str().unwrap().ends_with('Z'));
    assert!(s["instance"].as_str().is_some_and(|i| !i.is_empty()));
    assert_eq!(s["source"]["kind"], "demo");
    assert_eq!(s["source"]["status"], "running");
    let hand = &s["hand"];
    assert_eq!(hand["notation"], "234m067p34522s (8888m)");
    assert_eq!(hand["concealed"][3]["tile"], "0p");
    assert_eq!(hand["concealed"][3]["uncertain"], false);
    assert_eq!(hand["win"], "2s");
    assert_eq!(hand["win_set_apart"], true);
    assert_eq!(hand["melds"][0]["kind"], "closed_kan");
    assert_eq!(hand["melds"][0]["tiles"][0]["face_down"], true);
    assert_eq!(hand["dora_indicators"][0]["tile"], "1s");
    assert_eq!(hand["complete"], true);
    let score = &s["score"];
    assert_eq!(score["han"], 6);
    assert_eq!(score["fu"], 40);
    assert_eq!(score["limit"], "haneman");
    assert_eq!(score["tsumo"], true);
    assert_eq!(score["seat_wind"], "W");
    let yaku: Vec<&str> = score["yaku"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        yaku,
        ["riichi", "menzen_tsumo", "tanyao", "dora", "aka_dora"]
    );
    assert_eq!(score["points"]["total"], 13300);
    assert_eq!(score["points"]["tsumo_dealer"], 6100);
    assert_eq!(score["points"]["tsumo_non_dealer"], 3100);
    let table = &s["table"];
    assert_eq!(table["round"], "east");
    assert_eq!(table["round_label"], "East 3");
    assert_eq!(table["honba"], 1);
    assert_eq!(table["sticks"], 1);
    assert_eq!(table["players"][1]["name"], "Bob");
    assert_eq!(table["players"][1]["riichi"], true);
    assert_eq!(table["players"][2]["dealer"], true);
    assert_eq!(table["players"][2]["wind"], "E");
    let points: i64 = table["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_i64().unwrap())
        .sum();
    assert_eq!(points + 1000, 100_000);
    assert!(s["table_source"].is_null());
}

#[test]
fn tiles_are_served_from_the_fixed_table_only() {
    let f = Fixture::start(Options::default());
    for name in ["5p", "0p", "1z", "7z", "9s", "back", "front"] {
        let r = f.get(&format!("/tiles/{name}.png"));
        assert_eq!(r.status, 200, "{name}");
        assert_eq!(r.header("content-type"), Some("image/png"));
        assert!(r.body.starts_with(b"\x89PNG\r\n\x1a\n"), "{name}");
    }
    for path in [
        "/tiles/../Cargo.toml",
        "/tiles/%2e%2e/Cargo.toml",
        "/tiles/%2e%2e%2fCargo.toml",
        "/tiles/%2E%2E%2FCargo.toml",
        "/tiles/..%2fCargo.toml",
        "/tiles/..%5cCargo.toml",
        "/tiles/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/tiles/..%2f..%2fassets%2friichi-tiles-fluffystuff%2fRegular%2fMan1.png",
        "/tiles/Man1.png",
        "/tiles/5p",
        "/tiles/5p.png%00",
        "/tiles/8z.png",
        "/tiles/",
        "/../Cargo.toml",
        "/overlay/../Cargo.toml",
        "/Cargo.toml",
        "/src/overlay/page/overlay.html",
        "/assets/riichi-tiles-fluffystuff/Regular/Man1.png",
    ] {
        let r = f.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert!(!r.body.starts_with(b"\x89PNG"), "{path}");
        assert!(!r.text().contains("[package]"), "{path}");
    }
}

#[test]
fn read_only_get_and_head_only() {
    let f = Fixture::demo();
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        for path in ["/api/state", "/overlay", "/tiles/5p.png", "/api/events"] {
            let r = request(f.addr, method, path, &[("Content-Length", "0")]);
            assert_eq!(r.status, 405, "{method} {path}");
            assert!(r.header("allow").unwrap().contains("GET"));
        }
    }
    assert_eq!(f.get("/api/state").json()["version"], 2, "nothing changed");
}

#[test]
fn foreign_host_names_are_refused() {
    let f = Fixture::demo();
    let evil = request(
        f.addr,
        "GET",
        "/api/state",
        &[("Host", "evil.example:7878")],
    );
    assert_eq!(evil.status, 403);
    assert!(evil.text().contains("--allow-remote"));
    for host in ["localhost:7878", "127.0.0.1", "[::1]:7878"] {
        assert_eq!(
            request(f.addr, "GET", "/api/state", &[("Host", host)]).status,
            200,
            "{host}"
        );
    }
}

#[test]
fn every_live_update_arrives_in_order() {
    let f = Fixture::demo();
    let mut events = Events::open(f.addr).unwrap();
    let (first, lines) = events.next_state();
    assert_eq!(first["version"], 2, "the current state comes first");
    assert!(lines.iter().any(|l| l == "event: state"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "id: 2"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "retry: 1000"), "{lines:?}");
    let mut times = Vec::new();
    for round in 0..20u32 {
        let mut state: State = source::demo_state();
        if let Some(table) = state.table.as_mut() {
            table.players[0].points += i64::from(round) * 100;
        }
        let sent = Instant::now();
        let version = f.hub.publish(state);
        let got = events.wait_for_version(version);
        let elapsed = sent.elapsed();
        assert_eq!(
            got["table"]["players"][0]["points"],
            27_700 + i64::from(round) * 100
        );
        times.push(elapsed);
    }
    times.sort();
    let median = times[times.len() / 2];
    let max = *times.last().unwrap();
    // Printed for the record; the latency figure in the README comes from a
    // benchmark run, not from this test.
    println!("live update latency over 20 updates: median {median:?}, max {max:?}");
    // /api/state agrees with the last event.
    assert_eq!(f.get("/api/state").json()["version"], 22);
}

#[test]
fn a_stalled_client_does_not_stall_publishing() {
    let f = Fixture::demo();
    let mut big = source::demo_state();
    if let Some(table) = big.table.as_mut() {
        table.players[0].name = "x".repeat(64 * 1024); // fills socket buffers fast
    }
    let publish = |n: usize| {
        let start = Instant::now();
        let mut slowest = Duration::ZERO;
        let mut version = 0;
        for _ in 0..n {
            let one = Instant::now();
            version = f.hub.publish(big.clone());
            slowest = slowest.max(one.elapsed());
        }
        (start.elapsed(), slowest, version)
    };
    let (alone, _, _) = publish(300);
    // A client that subscribes and then never reads: its socket buffers fill up at once.
    let stalled = connect(f.addr);
    (&stalled)
        .write_all(format!("GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n", f.addr).as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let (with_stalled, slowest, version) = publish(300);
    println!(
        "300 publishes of 64 KiB states: {alone:?} without clients, {with_stalled:?} with a stalled client (slowest {slowest:?})"
    );
    // A publisher that waited on the stalled socket would block for good; the
    // generous bound tells that deadlock apart from a slow, loaded machine.
    assert!(
        with_stalled < Duration::from_secs(30),
        "{with_stalled:?} vs {alone:?}"
    );
    // Another client still gets the newest state at once.
    let mut events = Events::open(f.addr).unwrap();
    assert_eq!(events.next_state().0["version"], version);
    drop(stalled);
}

#[test]
fn the_request_limit_answers_503() {
    let f = Fixture::demo();
    let mut open: Vec<Events> = (0..32)
        .map(|_| {
            let mut e = Events::open(f.addr).expect("room for 32 streams");
            e.next_state();
            e
        })
        .collect();
    let full = f.get("/api/state");
    assert_eq!(full.status, 503);
    assert_eq!(full.header("retry-after"), Some("2"));
    assert_eq!(Events::open(f.addr).err(), Some(503));
    // Closing a stream frees its slot (noticed at the next write to it).
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        f.hub.update(|s| s.hand = None);
        if f.get("/api/state").status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the slot was never freed");
        std::thread::sleep(Duration::from_millis(20));
        f.hub.publish(source::demo_state());
    }
}

#[test]
fn tcp_connections_are_bounded_and_idle_ones_closed() {
    let f = Fixture::start(Options {
        max_connections: 2,
        idle_timeout: Duration::from_millis(300),
        ..Options::default()
    });
    let a = connect(f.addr);
    let b = connect(f.addr);
    std::thread::sleep(Duration::from_millis(50));
    // A third connection is closed at once.
    let mut c = connect(f.addr);
    let mut buf = [0u8; 16];
    let n = c.read(&mut buf).unwrap_or(0);
    assert_eq!(n, 0, "the third connection is closed");
    // The idle ones are closed after the idle timeout, freeing their slots.
    let start = Instant::now();
    for mut s in [a, b] {
        let n = s.read(&mut buf).unwrap_or(0);
        assert_eq!(n, 0);
    }
    let waited = start.elapsed();
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(f.get("/api/state").status, 200);
}

#[test]
fn event_streams_end_when_the_server_stops() {
    let mut f = Fixture::demo();
    let mut events = Events::open(f.addr).unwrap();
    events.next_state();
    let server = f.server.take().unwrap();
    let start = Instant::now();
    f.runtime.block_on(server.shutdown());
    assert!(start.elapsed() < Duration::from_secs(2), "graceful stop");
    let mut rest = String::new();
    let _ = events.reader.read_to_string(&mut rest);
    // The page's EventSource then reconnects by itself once a server is back.
    assert!(TcpStream::connect(f.addr).is_err(), "the port is closed");
}

#[test]
fn a_non_loopback_bind_is_refused_without_the_flag() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let err = runtime
        .block_on(overlay::serve(
            "0.0.0.0:0".parse().unwrap(),
            Hub::new(),
            false,
        ))
        .unwrap_err();
    assert!(matches!(err, ServeError::NotLoopback(_)));
    assert!(err.to_string().contains("--allow-remote"), "{err}");
    // With the flag it starts.
    let server = runtime
        .block_on(overlay::serve(
            "0.0.0.0:0".parse().unwrap(),
            Hub::new(),
            true,
        ))
        .unwrap();
    runtime.block_on(server.shutdown());
}

fn cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_riichi-lens"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_command_refuses_remote_binds_and_missing_sources() {
    let out = cli(&["overlay", "--demo", "--bind", "0.0.0.0", "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-remote"), "{err}");
    // A camera that is not there (no machine has 97 of them) is refused before serving.
    let out = cli(&["overlay", "--source", "97", "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no camera found") || err.contains("camera 97 not found"),
        "{err}"
    );
    let out = cli(&["overlay", "--source", "match.mp4", "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("match.mp4: no such file"), "{err}");
    // A file that is not a video is refused by ffprobe before serving.
    let dir = std::env::temp_dir().join(format!("rl-overlay-src-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("fake.mp4");
    std::fs::write(&fake, b"not a video").unwrap();
    let out = cli(&["overlay", "--source", fake.to_str().unwrap(), "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read the video") || err.contains("ffmpeg"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
    let out = cli(&["overlay", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2), "--source or --demo is required");
}

#[test]
fn every_yaku_name_has_a_japanese_name() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Yaku names")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let names: Vec<&str> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|n| {
            n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .collect();
    assert!(names.len() >= 50, "{names:?}");
    let js = overlay::assets::PAGE_JS;
    let table = js
        .split("const YAKU_JA = {")
        .nth(1)
        .unwrap()
        .split("};")
        .next()
        .unwrap();
    for name in names {
        let entry = format!("\n    {name}: \"");
        assert!(table.contains(&entry), "no Japanese name for {name}");
    }
}

fn detection(tile: riichi_lens::Tile, confidence: f32) -> riichi_lens::vision::Detection {
    use riichi_lens::vision::{picture::RotatedBox, Detection, Face, CLASS_COUNT};
    let face = Face::Tile(tile);
    let mut probs = [0.0; CLASS_COUNT];
    probs[face.class()] = confidence;
    Detection {
        tile: face,
        bounds: [0.0; 4],
        confidence,
        sideways: false,
        detector_score: 0.9,
        rotated: RotatedBox {
            cx: 0.0,
            cy: 0.0,
            w: 30.0,
            h: 40.0,
            phi: 0.0,
        },
        probs,
        turned: None,
    }
}

#[test]
fn a_reading_shows_the_hand_with_its_doubts_and_scores_it() {
    use riichi_lens::notation::parse_tiles;
    use riichi_lens::overlay::source::show_reading;
    use riichi_lens::vision::layout::{Layout, ReadHand};
    use riichi_lens::vision::PhotoReading;
    let tiles = parse_tiles("234m567p22s345678s").unwrap();
    let dora = parse_tiles("1m").unwrap();
    let mut detections: Vec<_> = tiles.iter().map(|&t| detection(t, 0.99)).collect();
    detections[4].confidence = 0.4;
    detections.push(detection(dora[0], 0.3));
    let reading = PhotoReading {
        width: 640,
        height: 480,
        tiles: detections,
        layout: Layout {
            concealed: (0..13).collect(),
            win: Some(13),
            melds: Vec::new(),
            dora: vec![14],
            unplaced: Vec::new(),
        },
        hand: Some(ReadHand {
            concealed: tiles.clone(),
            melds: Vec::new(),
            win: tiles[13],
            win_set_apart: true,
            dora_indicators: dora,
            uncertain: vec![4],
            corrected: Vec::new(),
            complete: true,
        }),
    };
    let base = Request::default();
    let mut state = State::default();
    show_reading(&mut state, &reading, &base);
    let hand = state.hand.as_ref().unwrap();
    assert!(hand.concealed[4].uncertain && !hand.concealed[3].uncertain);
    assert!(
        hand.dora_indicators[0].uncertain,
        "low-confidence indicator"
    );
    assert_eq!(hand.win, "8s");
    let score = state.score.as_ref().expect("scored with ron, seat E");
    assert!(!score.tsumo);
    assert_eq!(score.result.han, 3, "pinfu, tanyao, dora");
    assert_eq!(score.result.points.total, 5800);

    // An incomplete reading keeps the last win and says why.
    let mut incomplete = reading.clone();
    if let Some(h) = incomplete.hand.as_mut() {
        h.complete = false;
    }
    show_reading(&mut state, &incomplete, &base);
    assert_eq!(
        state.hand.as_ref().unwrap().problem.as_ref().unwrap().kind,
        "not_complete"
    );
    assert!(state.hand.as_ref().unwrap().completing.is_empty());
    assert_eq!(state.score.as_ref().unwrap().result.points.total, 5800);

    // Read without its winning tile, a tile short: the page is told its waits.
    let mut short = incomplete.clone();
    if let Some(h) = short.hand.as_mut() {
        h.concealed.pop();
    }
    show_reading(&mut state, &short, &base);
    let hand = state.hand.as_ref().unwrap();
    let waits: Vec<&str> = hand.completing.iter().map(|t| t.tile.as_str()).collect();
    assert_eq!(waits, ["2s", "5s", "8s"], "22s 34567s: a lone 2s, or 5s/8s");
    let json = serde_json::to_value(hand).unwrap();
    assert_eq!(json["completing"][1]["tile"], "5s");
    assert_eq!(state.score.as_ref().unwrap().result.points.total, 5800);
}

use riichi_lens::jsonl::Request;

#[test]
fn the_table_follows_the_game_database() {
    use riichi_lens::table::{Event, Preset, Rules, Seat, Store};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("overlay-table");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.sqlite3");
    let hub = Hub::new();
    let stop = Arc::new(AtomicBool::new(false));
    let poller = {
        let (db, hub, stop) = (db.clone(), hub.clone(), stop.clone());
        std::thread::spawn(move || source::run_table(db, None, hub, stop))
    };
    let wait = |what: &dyn Fn(&State) -> bool| -> Duration {
        let start = Instant::now();
        while !what(&hub.current().state) {
            assert!(start.elapsed() < Duration::from_secs(3), "timed out");
            std::thread::sleep(Duration::from_millis(2));
        }
        start.elapsed()
    };
    // No database yet: an error message, no table.
    wait(&|s| {
        s.table_source
            .as_ref()
            .and_then(|t| t.message.as_deref())
            .is_some_and(|m| m.contains("no game database"))
    });
    let mut store = Store::open(&db).unwrap();
    let names: Vec<String> = ["A", "B", "C", "D"].map(String::from).into();
    let id = store
        .create_game(&Rules::preset(Preset::Wiki), &names)
        .unwrap();
    wait(&|s| s.table.as_ref().is_some_and(|t| t.game_id == Some(id)));
    let mut times = Vec::new();
    for seat in 0..3 {
        store
            .append_event(
                id,
                &Event::Riichi {
                    seat: Seat::new(seat).unwrap(),
                },
            )
            .unwrap();
        let sticks = seat as u32 + 1;
        times.push(wait(&|s| {
            s.table.as_ref().is_some_and(|t| t.sticks == sticks)
        }));
    }
    // Latency is a benchmark figure, not a test condition: a loaded CI box
    // may take longer than the poll interval, so only the order is checked.
    println!("table change to overlay state: {times:?}");
    stop.store(true, Ordering::Relaxed);
    poller.join().unwrap();
}

/// Kills and reaps a child process when dropped.
struct Reaped(std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_command_reads_a_video_source() {
    // A 4-second clip of a sample photo (ffmpeg is installed by scripts/setup.sh), as a
    // recorded stream of a table would be.
    let dir = std::env::temp_dir().join(format!("rl-overlay-video-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clip = dir.join("table.mp4");
    let photo = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/photos/01-pinfu.jpg");
    still_clip(std::path::Path::new(photo), &clip, 4, 10, None);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_riichi-lens"))
        .args(["overlay", "--port", "0", "--source"])
        .arg(&clip)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Reaped(child);
    // The first line names the address (port 0: the system picks one).
    let mut line = String::new();
    BufReader::new(child.0.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    // The hand appears once 3 frames in a row read the same, scored with default conditions.
    let start = Instant::now();
    let state = loop {
        let state = request(addr, "GET", "/api/state", &[]).json();
        if !state["score"].is_null() || start.elapsed() > Duration::from_secs(60) {
            break state;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(state["source"]["kind"], "video", "{state}");
    assert_eq!(state["hand"]["notation"], "56778889m345675p", "{state}");
    assert_eq!(state["score"]["points"]["total"], 2900, "{state}");
    drop(child);
    let _ = std::fs::remove_dir_all(dir);
}
