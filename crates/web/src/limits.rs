//! What a request may ask of the server.

/// What a request may ask of the server.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// The most moves a request's position names.
    pub max_moves: usize,
    /// The deepest depth-limited analysis, and the deepest engine player.
    pub max_depth: u32,
    /// The most Monte Carlo iterations of an analysis or a player's move.
    pub max_iterations: u64,
    /// The searches (analyses and players' moves) running at once; a request beyond them is answered "busy".
    pub max_searches: usize,
    /// How long a request waits for its search, in milliseconds.
    pub max_search_millis: u64,
}

impl Default for Limits {
    /// A body of 64 KiB, 1,000 moves, depth 10, 200,000 iterations, a search a core, 30 seconds.
    fn default() -> Limits {
        Limits {
            max_body_bytes: 64 * 1024,
            max_moves: 1_000,
            max_depth: 10,
            max_iterations: 200_000,
            max_searches: std::thread::available_parallelism().map_or(1, usize::from),
            max_search_millis: 30_000,
        }
    }
}
