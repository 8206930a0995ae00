//! `serve`: every game on a local web server (the `khela-web` crate), until the process is stopped.

use anyhow::Result;
use clap::Args;
use khela::Spec;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

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
    /// A game served with its endgame tables, as GAME=DIR (repeatable): the tables `retro` wrote in DIR for the
    /// game string GAME (bagh-chal=tables/bagh-chal). Requests naming that game string value its positions from
    /// the tables (Bagh-Chal's sliding phase, Sixteen Soldiers' endgames) and play them perfectly.
    #[arg(long, value_name = "GAME=DIR", value_parser = game_and_dir)]
    pub tables: Vec<(Spec, PathBuf)>,
    /// The directory of the trained networks the server plays by name (`net:NAME` players, NAME the file's stem):
    /// every NAME.safetensors with its NAME.json, as `zero train` writes them. None where it does not exist.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub nets: PathBuf,
}

/// `GAME=DIR`, split at the first `=` outside the game string's parentheses.
fn game_and_dir(text: &str) -> Result<(Spec, PathBuf), String> {
    let mut depth = 0i32;
    let split = text.char_indices().find(|&(_, c)| {
        depth += i32::from(c == '(') - i32::from(c == ')');
        c == '=' && depth == 0
    });
    let Some((at, _)) = split else { return Err(format!("{text:?} is not GAME=DIR, like bagh-chal=tables/bagh-chal")) };
    let spec = text[..at].parse::<Spec>().map_err(|e| format!("{e:#}"))?;
    Ok((spec, PathBuf::from(&text[at + 1..])))
}

/// Runs `serve`: prints the address once the server listens, and serves until the process is stopped (Ctrl-C).
pub fn run(args: &ServeArgs) -> Result<()> {
    let mut limits = khela_web::Limits::default();
    if let Some(n) = args.max_searches {
        limits.max_searches = n as usize;
    }
    let mut served = khela_web::Served::default();
    for (spec, dir) in &args.tables {
        let game = khela::Game::new(spec)?.with_tables(Some(dir))?;
        eprintln!("serve: {} with its tables from {}", game.title(), dir.display());
        served.tables.push(game);
    }
    if args.nets.is_dir() {
        served.nets = khela_web::nets_in(&args.nets)?;
        let names: Vec<String> = served.nets.iter().map(|net| format!("{} ({})", net.name, net.game)).collect();
        eprintln!("serve: the networks of {}: {}", args.nets.display(), names.join(", "));
    }
    let addr = SocketAddr::new(args.bind, args.port);
    khela_web::run(
        addr,
        khela_web::router_with(limits, served),
        |addr| {
            println!("khela serves http://{addr}/ (the JSON API under /api; Ctrl-C stops it)");
            let _ = std::io::stdout().flush();
        },
        std::future::pending(),
    )
}
