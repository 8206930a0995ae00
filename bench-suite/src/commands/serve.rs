//! `serve`: every game on a local web server (the `khela-web` crate), until the process is stopped.

use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on: this machine alone by default; 0.0.0.0 (or ::) opens the server to the network.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// The port; 0 for any free port (the one chosen is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The searches (analyses and players' moves) run at once; a request beyond them is answered "busy, retry".
    /// By default, one a core.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_searches: Option<u32>,
}

/// Runs `serve`: prints the address once the server listens, and serves until the process is stopped (Ctrl-C).
pub fn run(args: &ServeArgs) -> Result<()> {
    let mut limits = khela_web::Limits::default();
    if let Some(n) = args.max_searches {
        limits.max_searches = n as usize;
    }
    let addr = SocketAddr::new(args.bind, args.port);
    khela_web::run(
        addr,
        limits,
        |addr| {
            println!("khela serves http://{addr}/ (the JSON API under /api; Ctrl-C stops it)");
            let _ = std::io::stdout().flush();
        },
        std::future::pending(),
    )
}
