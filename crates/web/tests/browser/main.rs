//! khela's pages in a real browser: Debian's Chromium, headless, driven through chromedriver (WebDriver) against
//! the server started in-process. One browser serves every test, one test after another; each test opens its page
//! afresh ([`Browser::open`]) and ends with the browser's log free of errors (console errors, uncaught exceptions,
//! failed loads), which the runner checks after it.
//!
//! Where chromedriver is missing the tests are reported ignored, saying so, unless `KHELA_BROWSER_TESTS=required`
//! (as CI sets), where that is a failure. Screenshots go to `target/screenshots/`.
//!
//! A module of tests lists them in a `TESTS` table, added to [`all_tests`].

mod games;
mod harness;
mod textbook;

use harness::{Availability, Browser};
use libtest_mimic::{Arguments, Failed, Trial};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// A browser test: its name and its body, which drives the one browser.
pub type Test = (&'static str, fn(&Browser) -> anyhow::Result<()>);

/// Every browser test, module by module.
fn all_tests() -> Vec<Test> {
    [games::TESTS, textbook::TESTS].concat()
}

/// The browser, started by the first test that runs (none is started to list the tests), or why it could not be.
type Shared = Arc<Mutex<Option<Result<Browser, String>>>>;

fn main() -> ExitCode {
    let mut args = Arguments::from_args();
    // One browser, one test at a time.
    args.test_threads = Some(1);
    let required = std::env::var("KHELA_BROWSER_TESTS").is_ok_and(|v| v == "required");
    let driver = match harness::availability() {
        Availability::Here(path) => path,
        Availability::Missing(message) if required => {
            let missing = message.trim_start_matches("browser tests skipped: ");
            eprintln!(
                "error: the browser tests cannot run: {missing}; KHELA_BROWSER_TESTS=required makes that a failure"
            );
            return ExitCode::FAILURE;
        }
        Availability::Missing(message) => {
            println!("{message}");
            let trials = all_tests()
                .into_iter()
                .map(|(name, _)| {
                    let message = message.clone();
                    Trial::test(name, move || Err(message.into())).with_ignored_flag(true)
                })
                .collect();
            return libtest_mimic::run(&args, trials).exit_code();
        }
    };
    let shared: Shared = Arc::new(Mutex::new(None));
    let trials = all_tests()
        .into_iter()
        .map(|(name, test)| {
            let shared = shared.clone();
            let driver = driver.clone();
            Trial::test(name, move || run(&shared, &driver, test))
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    // Closes the session, kills chromedriver and Chromium, stops the server.
    drop(shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take());
    conclusion.exit_code()
}

/// Runs one test on the shared browser, starting it if none is, and fails it if the browser logged an error.
fn run(shared: &Shared, driver: &std::path::Path, test: fn(&Browser) -> anyhow::Result<()>) -> Result<(), Failed> {
    let mut slot = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let browser = slot.get_or_insert_with(|| Browser::start(driver).map_err(|err| format!("{err:#}")));
    let browser = browser.as_ref().map_err(|err| Failed::from(format!("the browser did not start: {err}")))?;
    // What an earlier test left in the log is not this one's.
    browser.console_errors().map_err(|err| format!("{err:#}"))?;
    browser.desktop().map_err(|err| format!("{err:#}"))?;
    test(browser).map_err(|err| format!("{err:#}"))?;
    let errors = browser.console_errors().map_err(|err| format!("{err:#}"))?;
    if !errors.is_empty() {
        return Err(format!("the browser logged errors:\n{}", errors.join("\n")).into());
    }
    Ok(())
}
