//! The harness's commands from Python: `_khela.command(["solve", "--game", …])` runs one as the command line
//! would (the same options, the same refusals), on a thread of its own while the interpreter waits without the
//! GIL. Ctrl-C in the interpreter stops the command at its next unit of work (see
//! [`bench_suite::interrupt`]) and raises `KeyboardInterrupt` once it has stopped; files are written whole or
//! not at all, so a stopped command leaves none.

use crate::waiting::{AfterStop, interruptibly, panicked};
use bench_suite::{Failure, interrupt};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    khela,
    DisagreedError,
    pyo3::exceptions::PyException,
    "Results checked against known truth (a benchmark file's scores) disagree with it."
);

/// Runs the harness command `args` (the subcommand first, as after `bench-suite` on the command line). Nothing
/// is printed on stdout: the caller reads the CSV the command writes with `--out`. Raises `ValueError` with
/// the command line's message for bad input, `DisagreedError` for results that disagree with known truth, and
/// `KeyboardInterrupt` when Ctrl-C stopped it.
#[pyfunction]
pub fn command(py: Python<'_>, args: Vec<String>) -> PyResult<()> {
    if let Some(name) = args.first().filter(|name| bench_suite::left_out(name)) {
        return Err(PyValueError::new_err(format!(
            "{name:?}: this khela was installed without the games' commands (the default wheel has the sweep, \
             merge, ordering and trace alone, beside states, searches and environments); install the full build: \
             pip install ./crates/python -C build-args=\"--features full\""
        )));
    }
    interrupt::clear();
    // On Ctrl-C the command is stopped and waited for: nothing of it may run on after the exception.
    let outcome = interruptibly(py, move || bench_suite::run(args), interrupt::request, AfterStop::Wait);
    interrupt::clear();
    match outcome? {
        Ok(Ok(())) => Ok(()),
        Ok(Err(failure @ (Failure::Usage(_) | Failure::Failed(_)))) => Err(PyValueError::new_err(failure.to_string())),
        Ok(Err(failure @ Failure::Disagreed(_))) => Err(DisagreedError::new_err(failure.to_string())),
        Ok(Err(Failure::Interrupted)) => Err(PyKeyboardInterrupt::new_err("interrupted")),
        Err(payload) => Err(panicked(payload)),
    }
}
