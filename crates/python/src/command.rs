//! The harness's commands from Python: `_khela.command(["solve", "--game", …])` runs one as the command line
//! would (the same options, the same refusals), on a thread of its own while the interpreter waits without the
//! GIL. Ctrl-C in the interpreter stops the command at its next unit of work (see
//! [`bench_suite::interrupt`]) and raises `KeyboardInterrupt` once it has stopped; files are written whole or
//! not at all, so a stopped command leaves none.

use bench_suite::{Failure, interrupt};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

pyo3::create_exception!(
    khela,
    DisagreedError,
    pyo3::exceptions::PyException,
    "Results checked against known truth (a benchmark file's scores) disagree with it."
);

/// How often the waiting interpreter looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs the harness command `args` (the subcommand first, as after `bench-suite` on the command line). Nothing
/// is printed on stdout: the caller reads the CSV the command writes with `--out`. Raises `ValueError` with
/// the command line's message for bad input, `DisagreedError` for results that disagree with known truth, and
/// `KeyboardInterrupt` when Ctrl-C stopped it.
#[pyfunction]
pub fn command(py: Python<'_>, args: Vec<String>) -> PyResult<()> {
    interrupt::clear();
    let (finished, mut done) = mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        let outcome = bench_suite::run(args);
        drop(finished);
        outcome
    });
    loop {
        // The receiver goes to the waiting (GIL-free) side and back: it may be sent, not shared.
        let (outcome, back) = py.detach(move || (done.recv_timeout(POLL), done));
        done = back;
        match outcome {
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    // Stop the command and wait for it: nothing of it may run on after the exception.
                    interrupt::request();
                    let _ = py.detach(|| worker.join());
                    interrupt::clear();
                    return Err(signal);
                }
            }
            Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    match worker.join() {
        Ok(Ok(())) => Ok(()),
        Ok(Err(failure @ (Failure::Usage(_) | Failure::Failed(_)))) => Err(PyValueError::new_err(failure.to_string())),
        Ok(Err(failure @ Failure::Disagreed(_))) => Err(DisagreedError::new_err(failure.to_string())),
        Ok(Err(Failure::Interrupted)) => Err(PyKeyboardInterrupt::new_err("interrupted")),
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            Err(PyRuntimeError::new_err(format!("khela failed (a bug, please report it): {why}")))
        }
    }
}
