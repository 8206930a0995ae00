//! Long work called from Python: run on a thread of its own while the interpreter waits without the GIL, looking
//! for Ctrl-C, so that a long search or command can be stopped as a Python call should be.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::any::Any;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the waiting interpreter looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// What follows Ctrl-C, once the work has been asked to stop.
pub enum AfterStop {
    /// Wait for the work to end: nothing of it may run on after the exception (a command, which writes files).
    Wait,
    /// Wait for at most this long, then leave the work to end in the background, its result dropped (a search
    /// that cannot stop midway, and writes nothing).
    AtMost(Duration),
}

/// Runs `work` on a thread of its own while the interpreter waits without the GIL, looking for Ctrl-C every
/// 50 ms. On Ctrl-C, `stop` is called, the work is waited for as `after` says, and the signal's exception
/// (`KeyboardInterrupt`) is returned. Otherwise the work's result, or the payload of its panic.
pub fn interruptibly<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
    stop: impl FnOnce(),
    after: AfterStop,
) -> PyResult<std::thread::Result<T>> {
    let (done, mut finished) = mpsc::channel::<T>();
    let worker = std::thread::spawn(move || {
        // The receiver is gone only when the caller has stopped waiting: the result is dropped.
        let _ = done.send(work());
    });
    loop {
        // The receiver goes to the waiting (GIL-free) side and back: it may be sent, not shared.
        let (outcome, back) = py.detach(move || (finished.recv_timeout(POLL), finished));
        finished = back;
        match outcome {
            Ok(value) => {
                let _ = worker.join();
                return Ok(Ok(value));
            }
            // The work ended without sending its result: it panicked.
            Err(RecvTimeoutError::Disconnected) => {
                return Ok(Err(worker.join().expect_err("a worker that sent nothing panicked")));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    stop();
                    match after {
                        AfterStop::Wait => {
                            let _ = py.detach(|| worker.join());
                        }
                        AfterStop::AtMost(grace) => {
                            let _ = py.detach(move || finished.recv_timeout(grace));
                        }
                    }
                    return Err(signal);
                }
            }
        }
    }
}

/// A panic of khela's as Python's `RuntimeError`, naming it a bug.
pub fn panicked(payload: Box<dyn Any + Send>) -> PyErr {
    let why = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    PyRuntimeError::new_err(format!("khela failed (a bug, please report it): {why}"))
}
