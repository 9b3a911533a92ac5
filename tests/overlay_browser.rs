//! The overlay page in a real browser driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`): a live update reaching the page's DOM, and the page reconnecting by
//! itself when the program restarts. Fails with a message naming the fix where they are not installed
//! (`apt-get install chromium chromium-driver`).

use riichi_lens::overlay::state::{HandView, Problem, SourceStatus, Status};
use riichi_lens::overlay::{self, source, Hub, Server, State};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Option<Value> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    // Read the head, then Content-Length bytes (the driver may keep the connection open).
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        if length.is_some_and(|len| raw.len() >= end + 4 + len) {
            break;
        }
    }
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    serde_json::from_slice(&raw[end + 4..]).ok()
}

/// A chromedriver process and one headless browser session.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    profile: PathBuf,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path, profile: PathBuf) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let start = Instant::now();
        while http(addr, "GET", "/status", None).is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                let _ = driver.kill();
                panic!("chromedriver is not up");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = std::fs::remove_dir_all(&profile);
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--window-size=1280,400",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let reply = http(addr, "POST", "/session", Some(&caps)).unwrap_or(Value::Null);
        let Some(session) = reply["value"]["sessionId"].as_str().map(String::from) else {
            let _ = driver.kill();
            panic!("no browser session: {reply}");
        };
        Browser {
            driver,
            addr,
            session,
            profile,
        }
    }

    fn open(&self, url: &str) {
        let path = format!("/session/{}/url", self.session);
        http(self.addr, "POST", &path, Some(&json!({ "url": url }))).expect("navigates");
    }

    /// Runs a script in the page and returns its value.
    fn eval(&self, script: &str) -> Value {
        let path = format!("/session/{}/execute/sync", self.session);
        let body = json!({"script": script, "args": []});
        http(self.addr, "POST", &path, Some(&body))
            .map(|v| v["value"].clone())
            .unwrap_or(Value::Null)
    }

    /// Polls `script` until it returns `want`; the time it took.
    fn wait_for(&self, script: &str, want: &str, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            let got = self.eval(script);
            if got.as_str() == Some(want) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < limit,
                "the page shows {got} instead of {want:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = http(self.addr, "DELETE", &path, None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn tools() -> Option<(PathBuf, PathBuf)> {
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())?;
    let driver = PathBuf::from("/usr/bin/chromedriver");
    driver.is_file().then_some((chromium, driver))
}

const LIMIT: &str =
    "const e = document.querySelector('#panel-score .limit'); return e ? e.textContent : '';";
const FIRST_NAME: &str =
    "const e = document.querySelector('.players .name'); return e ? e.textContent : '';";

#[test]
fn the_page_updates_live_and_reconnects_after_a_restart() {
    let (chromium, chromedriver) = tools().expect(
        "chromium and chromium-driver are not installed: run scripts/setup.sh as root, \
         or apt-get install chromium chromium-driver fonts-noto-cjk",
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let start = |addr: &str, state: State| -> (Server, Hub) {
        let hub = Hub::new();
        hub.publish(state);
        let server = runtime
            .block_on(overlay::serve(addr.parse().unwrap(), hub.clone(), false))
            .unwrap();
        (server, hub)
    };
    let (first, hub) = start("127.0.0.1:0", source::demo_state());
    let addr = first.local_addr().to_string();
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("overlay-browser-profile");
    let browser = Browser::start(&chromium, &chromedriver, profile);
    browser.open(&first.url());
    browser.wait_for(LIMIT, "Haneman", Duration::from_secs(20));

    // Live updates, publish to DOM.
    let mut times = Vec::new();
    for round in 0..10 {
        let mut state = source::demo_state();
        let name = format!("Player {round}");
        if let Some(table) = state.table.as_mut() {
            table.players[0].name = name.clone();
        }
        hub.publish(state);
        times.push(browser.wait_for(FIRST_NAME, &name, Duration::from_secs(2)));
    }
    times.sort();
    println!(
        "publish → page DOM over 10 updates: median {:?}, max {:?} (5 ms polling)",
        times[5], times[9]
    );

    // A hand shown a tile short: the page names its waits as tile images.
    let mut short = source::demo_state();
    let mut hand = HandView::from_notation("23m456p11z [789s] [1*23p]", "", false, false).unwrap();
    hand.problem = Some(Problem {
        kind: "not_complete".into(),
        message: "the tiles read do not make a complete hand".into(),
    });
    short.hand = Some(hand);
    hub.publish(short);
    browser.wait_for(
        "const n = document.querySelector('.note.waits'); \
         return n ? n.textContent + ' ' + [...n.querySelectorAll('img')].map(i => i.alt).join(' ') : '';",
        "One tile short: waiting on 1m 4m",
        Duration::from_secs(2),
    );

    // The program restarts: the old server goes away, a new one comes up on the same port
    // with other data.
    runtime.block_on(first.shutdown());
    std::thread::sleep(Duration::from_millis(1500));
    let mut restarted = source::demo_state();
    restarted.score = None;
    restarted.source = SourceStatus::new(
        "images",
        None,
        Status::Error,
        Some("camera unplugged".into()),
    );
    let (second, hub) = start(&addr, restarted);
    let took = browser.wait_for(
        "return document.querySelector('#panel-status').textContent;",
        "camera unplugged",
        Duration::from_secs(15),
    );
    println!("page showed the restarted server's state {took:?} after it came up");
    assert_eq!(
        browser.eval("return document.querySelector('#panel-score').hidden;"),
        json!(true)
    );
    // And it follows the new server live.
    hub.publish(source::demo_state());
    browser.wait_for(LIMIT, "Haneman", Duration::from_secs(2));
    drop(browser);
    runtime.block_on(second.shutdown());
}
