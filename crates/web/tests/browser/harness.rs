//! The browser the tests drive: khela's server in-process on a free port, Debian's chromedriver on another, and
//! one headless Chromium session through it (fantoccini over plain HTTP), with blocking helpers so that a test
//! reads as a list of steps. Everything started is stopped when the [`Browser`] is dropped, on a panic too.

use anyhow::{Context, Result, anyhow, bail};
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use khela_web::Limits;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where Debian's chromium-driver installs chromedriver.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long a page may take to become idle, an element to appear, chromedriver to answer.
const PATIENCE: Duration = Duration::from_secs(15);

/// The window of the desktop screenshots, and the width of a phone's.
pub const DESKTOP: (u32, u32) = (1280, 900);
/// A small phone's width in CSS pixels, and a height.
pub const PHONE: (u32, u32) = (360, 780);

/// khela's server on a free port of 127.0.0.1, on a thread of its own until dropped.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Server {
    fn start() -> Result<Server> {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            khela_web::run(
                "127.0.0.1:0".parse().expect("an address"),
                khela_web::router_with(Limits::default(), crate::games::served()),
                move |addr| addr_tx.send(addr).expect("the test waits for the address"),
                async move {
                    let _ = stop_rx.await;
                },
            )
        });
        let addr = addr_rx.recv_timeout(PATIENCE).context("khela's server did not start")?;
        Ok(Server { addr, stop: Some(stop_tx), thread: Some(thread) })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A chromedriver process, killed when dropped, with the browsers it started.
struct Driver {
    child: Child,
    port: u16,
    profile: tempfile::TempDir,
}

impl Driver {
    fn start(path: &Path) -> Result<Driver> {
        let port = free_port()?;
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {}", path.display()))?;
        let profile = tempfile::Builder::new().prefix("khela-chromium-").tempdir()?;
        let mut driver = Driver { child, port, profile };
        let deadline = Instant::now() + PATIENCE;
        while !driver.ready() {
            if let Some(status) = driver.child.try_wait()? {
                bail!("{} exited at once ({status})", path.display());
            }
            if Instant::now() > deadline {
                bail!("{} did not answer on port {port} within {PATIENCE:?}", path.display());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(driver)
    }

    /// Whether chromedriver answers `GET /status` saying it is ready.
    fn ready(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else { return false };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
        let request = format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", self.port);
        if stream.write_all(request.as_bytes()).is_err() {
            return false;
        }
        // chromedriver keeps the connection open whatever the request says: read until the answer says ready.
        let (mut answer, mut chunk) = (Vec::new(), [0u8; 1024]);
        while let Ok(n @ 1..) = stream.read(&mut chunk) {
            answer.extend_from_slice(&chunk[..n]);
            if String::from_utf8_lossy(&answer).contains("\"ready\":true") {
                return true;
            }
        }
        false
    }

    /// Kills, by process id, any browser process still running on this driver's fresh profile (after a session that
    /// could not be closed): they are ours alone, named by the profile's unique path on their command line.
    fn kill_browsers(&self) {
        let marker = format!("--user-data-dir={}", self.profile.path().display());
        let Ok(entries) = std::fs::read_dir("/proc") else { return };
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<u32>().ok()) else { continue };
            let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
            if cmdline.split(|&b| b == 0).any(|arg| arg == marker.as_bytes()) {
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).stderr(Stdio::null()).status();
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.kill_browsers();
    }
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// `POST /session/{id}/se/log`: the browser's log since the last call (chromedriver's extension, which Selenium's
/// `get_log` uses).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(json!({"type": "browser"}).to_string()))
    }
}

/// Whether the browser tests can run here, and why not.
pub enum Availability {
    /// chromedriver is installed at this path.
    Here(PathBuf),
    /// It is not; the message says so and how to install it.
    Missing(String),
}

/// Where chromedriver is: [`CHROMEDRIVER`], or the path in the environment variable `CHROMEDRIVER`.
pub fn availability() -> Availability {
    let path = std::env::var_os("CHROMEDRIVER").map_or_else(|| PathBuf::from(CHROMEDRIVER), PathBuf::from);
    if path.is_file() {
        Availability::Here(path)
    } else {
        Availability::Missing(format!(
            "browser tests skipped: {} not found (install Debian's chromium and chromium-driver)",
            path.display()
        ))
    }
}

/// One headless Chromium session on khela's server, and what a test does with it. Its helpers wait for what they
/// need (the page idle, an element present) up to a patience of 15 seconds.
pub struct Browser {
    // Dropped in this order: the session (which closes Chromium), chromedriver, the server, the runtime.
    client: Option<Client>,
    _driver: Driver,
    server: Server,
    runtime: tokio::runtime::Runtime,
}

impl Browser {
    /// Starts the server, chromedriver (at `driver`) and a headless Chromium session in a fresh profile, its window
    /// [`DESKTOP`].
    pub fn start(driver: &Path) -> Result<Browser> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let server = Server::start()?;
        let driver = Driver::start(driver)?;
        let profile = driver.profile.path().display().to_string();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--lang=en-US",
            &format!("--user-data-dir={profile}"),
            &format!("--window-size={},{}", DESKTOP.0, DESKTOP.1),
        ];
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        });
        let serde_json::Value::Object(capabilities) = capabilities else { unreachable!("an object") };
        let url = format!("http://127.0.0.1:{}", driver.port);
        let client = runtime.block_on(async {
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(capabilities)
                .connect(&url)
                .await
        });
        let client = client.with_context(|| format!("cannot open a Chromium session through chromedriver at {url}"))?;
        Ok(Browser { client: Some(client), _driver: driver, server, runtime })
    }

    fn client(&self) -> &Client {
        self.client.as_ref().expect("the session is open until the browser is dropped")
    }

    fn block<T>(&self, work: impl Future<Output = Result<T, fantoccini::error::CmdError>>) -> Result<T> {
        self.runtime.block_on(work).map_err(|err| anyhow!("WebDriver: {err}"))
    }

    /// The server's address, as `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://{}", self.server.addr)
    }

    /// Opens `path` of khela's server with nothing remembered from earlier tests (the browser's storage cleared:
    /// English, Latin digits), and waits until it is idle.
    pub fn open(&self, path: &str) -> Result<()> {
        let url = format!("{}{path}", self.base());
        // A new document, not a change of the last one's address (`#…`), which would keep its page's state.
        self.block(self.client().goto("about:blank"))?;
        self.block(self.client().goto(&url))?;
        self.wait_idle()?;
        self.eval("window.localStorage.clear(); return null")?;
        self.block(self.client().refresh())?;
        self.wait_idle()
    }

    /// Runs `script` (a function body: `return …` for a value) in the page.
    pub fn eval(&self, script: &str) -> Result<Value> {
        self.eval_with(script, Vec::new())
    }

    /// Runs `script` with `arguments`, as `arguments[0]`, ….
    pub fn eval_with(&self, script: &str, arguments: Vec<Value>) -> Result<Value> {
        self.block(self.client().execute(script, arguments))
    }

    /// Waits until the page has loaded and says it is idle: `document.body.dataset.busy === "0"`.
    pub fn wait_idle(&self) -> Result<()> {
        self.wait_until("the page to be idle (body[data-busy=\"0\"])", || {
            let idle = self.eval(
                "return document.readyState === 'complete' && !!document.body && document.body.dataset.busy === '0'",
            )?;
            Ok(idle == Value::Bool(true))
        })
    }

    /// Waits until `ready` answers true, checking every 50 ms.
    pub fn wait_until(&self, what: &str, mut ready: impl FnMut() -> Result<bool>) -> Result<()> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if ready()? {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("waited {PATIENCE:?} for {what}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn find(&self, css: &str) -> Result<fantoccini::elements::Element> {
        self.block(self.client().wait().at_most(PATIENCE).for_element(Locator::Css(css)))
            .with_context(|| format!("no element {css}"))
    }

    /// Clicks the element `css` and waits until the page is idle.
    pub fn click(&self, css: &str) -> Result<()> {
        let element = self.find(css)?;
        self.block(element.click()).with_context(|| format!("clicking {css}"))?;
        self.wait_idle()
    }

    /// Chooses the option of value `value` in the `select` element `css` and waits until the page is idle.
    pub fn select(&self, css: &str, value: &str) -> Result<()> {
        let element = self.find(css)?;
        self.block(element.select_by_value(value)).with_context(|| format!("choosing {value:?} in {css}"))?;
        self.wait_idle()
    }

    /// Replaces the text of the field `css` with `text`, as typed, and waits until the page is idle.
    pub fn type_into(&self, css: &str, text: &str) -> Result<()> {
        let element = self.find(css)?;
        self.block(element.clear())?;
        self.block(element.send_keys(text)).with_context(|| format!("typing into {css}"))?;
        self.wait_idle()
    }

    /// Sends the keys `keys` to the element `css` (a point of the board, a button), as typed, and waits until the
    /// page is idle.
    pub fn press(&self, css: &str, keys: &str) -> Result<()> {
        let element = self.find(css)?;
        self.block(element.send_keys(keys)).with_context(|| format!("pressing keys on {css}"))?;
        self.wait_idle()
    }

    /// The text of the element `css` as rendered (what a person sees; empty when hidden).
    pub fn text(&self, css: &str) -> Result<String> {
        let element = self.find(css)?;
        self.block(element.text())
    }

    /// The text content of every element `css`, in document order (none is an empty list).
    pub fn texts(&self, css: &str) -> Result<Vec<String>> {
        let found = self.eval_with(
            "return [...document.querySelectorAll(arguments[0])].map((el) => el.textContent)",
            vec![json!(css)],
        )?;
        Ok(serde_json::from_value(found)?)
    }

    /// The attribute `name` of the element `css` (`None` where it has none).
    pub fn attr(&self, css: &str, name: &str) -> Result<Option<String>> {
        let element = self.find(css)?;
        self.block(element.attr(name))
    }

    /// The attribute `name` of every element `css`, in document order (`None` where one has none).
    pub fn attrs(&self, css: &str, name: &str) -> Result<Vec<Option<String>>> {
        let found = self.eval_with(
            "return [...document.querySelectorAll(arguments[0])].map((el) => el.getAttribute(arguments[1]))",
            vec![json!(css), json!(name)],
        )?;
        Ok(serde_json::from_value(found)?)
    }

    /// How many elements `css` the page has.
    pub fn count(&self, css: &str) -> Result<usize> {
        let found = self.eval_with("return document.querySelectorAll(arguments[0]).length", vec![json!(css)])?;
        found.as_u64().map(|n| n as usize).ok_or_else(|| anyhow!("counting {css}: {found}"))
    }

    /// Sets the window to `width` × `height` pixels (the page's viewport, in headless Chromium) and waits until
    /// the page has laid itself out again.
    pub fn resize(&self, (width, height): (u32, u32)) -> Result<()> {
        self.block(self.client().set_window_size(width, height))?;
        self.wait_until(&format!("a viewport {width} px wide, the page idle"), || {
            let laid_out = self.eval(
                "const busy = document.body?.dataset.busy; \
                 return [window.innerWidth, busy === undefined || busy === '0']",
            )?;
            Ok(laid_out == json!([width, true]))
        })
    }

    /// A small phone's width, [`PHONE`].
    pub fn phone(&self) -> Result<()> {
        self.resize(PHONE)
    }

    /// The desktop window, [`DESKTOP`].
    pub fn desktop(&self) -> Result<()> {
        self.resize(DESKTOP)
    }

    /// Saves a PNG of the viewport as `target/screenshots/NAME.png` (the target directory of `CARGO_TARGET_DIR`
    /// or the workspace's); returns its path.
    pub fn screenshot(&self, name: &str) -> Result<PathBuf> {
        // The bundled fonts loaded first, so that the picture shows the Bengali a person sees.
        self.block(self.client().execute_async("document.fonts.ready.then(() => arguments[0](true))", Vec::new()))?;
        let png = self.block(self.client().screenshot())?;
        let dir = target_dir().join("screenshots");
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    }

    /// The errors the browser logged since the last call (console errors, uncaught exceptions, resources that
    /// failed to load), from chromedriver's log.
    pub fn console_errors(&self) -> Result<Vec<String>> {
        let log = self.block(self.client().issue_cmd(BrowserLog))?;
        let entries = log.as_array().cloned().unwrap_or_default();
        Ok(entries
            .iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .map(|entry| entry["message"].as_str().unwrap_or_default().to_string())
            .collect())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Closing the session quits Chromium; `Driver`'s drop then kills chromedriver and any browser left over.
        if let Some(client) = self.client.take() {
            let _ =
                self.runtime.block_on(async { tokio::time::timeout(Duration::from_secs(10), client.close()).await });
        }
    }
}

/// The build's target directory: `CARGO_TARGET_DIR` (relative to the workspace when relative), else the
/// workspace's `target/`.
pub fn target_dir() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        Some(dir) => workspace.join(dir),
        None => workspace.join("target"),
    }
}
