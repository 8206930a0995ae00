//! Stopping a long command from outside it. On the command line Ctrl-C ends the process (a sweep first says
//! how to resume it: `on_ctrl_c`); a front end that keeps its own Ctrl-C handling (the Python package, whose
//! interpreter must survive it) asks for a stop with [`request`] instead, and the long commands stop at their
//! next unit of work — a sweep's tree, a count's subtree or ply, a solve's position or iteration, a Monte Carlo
//! iteration — with [`Interrupted`], writing no file.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a stop has been asked for.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether the process's Ctrl-C belongs to a front end, not to the commands.
static CALLERS_CTRL_C: AtomicBool = AtomicBool::new(false);

/// A command stopped by [`request`].
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// Asks every running command to stop at its next unit of work. The request stands until [`clear`].
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Withdraws a stop request, before a new command starts.
pub fn clear() {
    REQUESTED.store(false, Ordering::Relaxed);
}

/// Whether a stop has been asked for.
pub(crate) fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Fails with [`Interrupted`] when a stop has been asked for: long commands call it between units of work.
pub(crate) fn check() -> anyhow::Result<()> {
    if requested() { Err(Interrupted.into()) } else { Ok(()) }
}

/// From now on Ctrl-C is the front end's: [`on_ctrl_c`] installs nothing.
pub(crate) fn leave_ctrl_c_to_the_caller() {
    CALLERS_CTRL_C.store(true, Ordering::Relaxed);
}

/// On the command line, makes Ctrl-C (and a scheduler's SIGTERM) print `message` on stderr and end the process
/// with status 130; under a front end that keeps Ctrl-C, does nothing (the front end stops the command with
/// [`request`]).
pub(crate) fn on_ctrl_c(message: String) -> anyhow::Result<()> {
    if CALLERS_CTRL_C.load(Ordering::Relaxed) {
        return Ok(());
    }
    ctrlc::set_handler(move || {
        let _ = writeln!(std::io::stderr(), "\n{message}");
        std::process::exit(130);
    })
    .map_err(|err| anyhow::anyhow!("cannot catch interruptions: {err}"))
}

/// On the command line, makes Ctrl-C (and a scheduler's SIGTERM) ask the command to stop at its next unit of work
/// ([`request`]), so that it can save what it has before it ends; a second Ctrl-C ends the process at once
/// (status 130). Under a front end that keeps Ctrl-C, does nothing (the front end asks with [`request`]).
pub(crate) fn stop_on_ctrl_c() -> anyhow::Result<()> {
    if CALLERS_CTRL_C.load(Ordering::Relaxed) {
        return Ok(());
    }
    ctrlc::set_handler(|| {
        if requested() {
            std::process::exit(130);
        }
        request();
    })
    .map_err(|err| anyhow::anyhow!("cannot catch interruptions: {err}"))
}
