//! The process a command that runs a trained network runs in (the networks themselves: [`khela::net`]).

/// On the command line, runs the command again as a new process with candle's thread counts set, where the
/// environment does not set them: `RAYON_NUM_THREADS` to rayon's own default (the available parallelism) and
/// `CANDLE_NUM_THREADS` to 1; returns only if it cannot (then the command runs as it is, slower).
///
/// Why: candle asks for the thread count at every matrix product, and without `RAYON_NUM_THREADS` works it out by
/// reading files under /proc, which puts much of self-play's time in the kernel. And candle splits each element-wise
/// operation among `CANDLE_NUM_THREADS` threads of its own that spin while they wait: where self-play's threads already
/// keep every core busy, the spinning threads take the cores from them, and each operation waits for a thread that is
/// not running. (Both measured: see docs/src/measured-choices.md, 'The harness'.) With 1, the operations run on the
/// thread that asks for them; the games in flight on each thread are the parallelism. Setting a variable in a running
/// program is `unsafe` (another thread may read the environment meanwhile), which the workspace forbids; a new process
/// is the safe way. The Python package runs commands in its own process: its `__init__.py` sets the variables when the
/// native module loads, before any command runs.
pub fn with_thread_count() {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let variables = [("RAYON_NUM_THREADS", cores.to_string()), ("CANDLE_NUM_THREADS", "1".into())];
        let unset: Vec<_> = variables.into_iter().filter(|(name, _)| std::env::var_os(name).is_none()).collect();
        if !unset.is_empty()
            && let Ok(exe) = std::env::current_exe()
        {
            // `exec` returns only on failure.
            let _ = std::process::Command::new(exe).args(std::env::args_os().skip(1)).envs(unset).exec();
        }
    }
}
