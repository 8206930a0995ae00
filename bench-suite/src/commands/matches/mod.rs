//! `match`: players against each other on one game — every pairing of the players named, each pairing a number
//! of games with the colours alternating and each pair of games from the same seeded opening — with wins,
//! draws and losses (by side), the draws by repetition and by the length cap, the mean game length in moves (a
//! roll of the dice is not one), and A's score (a draw half a win) with its 95% Wilson interval; with
//! `--ratings`, each player's Elo fitted to all the pairings ([`elo`]). In a dice game
//! the two games of an opening see the same rolls, turn by turn (fewer games tell the players apart).
//!
//! Every game is seeded from the seed, its pairing and its number, and games run in parallel on the rayon pool:
//! the table is the same for any number of threads. With `--out FILE`, each game's result is kept in a
//! checkpoint as it finishes ([`checkpoint`]), and the same command run again resumes a match stopped part way.

mod checkpoint;
mod elo;
mod judge;

use crate::args::Threads;
use crate::games::{self, Capability, Entry, GameArgs, Visit};
use crate::machine::Sidecar;
use crate::output::{self, OutArg, Sink};
use crate::progress::Progress;
use anyhow::{Result, bail};
use checkpoint::{Checkpoint, Kept, Played};
use clap::Args;
use elo::{Pairing, ratings};
use khela::known::Known;
use khela::net::GuideOf;
use khela::players::{Contender, Seat, TableMove, play_out, roll_to_decision};
use khela_games::line::{End, Line};
use khela_games::notation::plies as in_words;
use khela_games::rng::splitmix64;
use khela_games::settled::{Settle, Settled, Through};
use khela_games::{Game, Notation, Player};
use khela_mcts::random::{Pcg, Random};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most games a match plays in all.
const MAX_GAMES: u64 = 1_000_000;

/// Options of `match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The players, comma-separated: engine:DEPTH, mcts:ITERATIONS, net:PATH[:SIMULATIONS] (a network trained by
    /// `zero train` guiding PUCT, 200 simulations a move unless given), random, perfect (needs --tables). Every
    /// pair of them plays.
    #[arg(long, value_delimiter = ',', default_value = "engine:2,engine:4,mcts:300,mcts:1000,random")]
    pub players: Vec<Contender>,
    /// Games per pairing, an even number: each opening is played twice, the colours swapped.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Plies of seeded random moves before the players take over. An opening that ends the game is drawn again
    /// (the players' results are theirs, not chance's); one too long for the game to survive is refused.
    #[arg(long, default_value_t = 2)]
    pub opening: u32,
    /// The seed of the openings and of the players' random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: Threads,
    /// The endgame tables in DIR (`retro --out DIR`: Bagh-Chal's sliding phase, Sixteen
    /// Soldiers' few pieces): every player plays their move
    /// wherever they hold the position, and the searches stop at every position they hold;
    /// `perfect` plays their move everywhere, from tables of the whole game (Bagh-Chal's with
    /// its placement phase, `retro --phase placement`).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Rate the players (Elo, the first at 0, fitted to every pairing's score) into this CSV file
    /// `player,elo,games,score`, and print the ratings after the table.
    #[arg(long, value_name = "PATH")]
    pub ratings: Option<PathBuf>,
    /// Judge every move the players choose themselves against the exact tables of the whole game
    /// (--tables DIR valuing every position, as Bagh-Chal's with its placement phase), into this CSV
    /// file `player,side,games,judged_moves,won,wins_thrown,drawn,draws_thrown,lost,thrown_share`,
    /// and print it after the table.
    #[arg(long, value_name = "PATH")]
    pub judge: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// A player's rating, as `--ratings` holds it.
#[derive(Debug, Serialize)]
struct Rating {
    player: String,
    elo: String,
    games: u64,
    score: String,
}

/// One pairing's results, as the CSV holds them.
#[derive(Clone, Debug, Default, Serialize)]
struct Row {
    a: String,
    b: String,
    games: u64,
    a_wins: u64,
    draws: u64,
    b_wins: u64,
    a_wins_first: u64,
    a_wins_second: u64,
    b_wins_first: u64,
    b_wins_second: u64,
    repetitions: u64,
    capped: u64,
    mean_plies: String,
    a_score: String,
    a_score_low: String,
    a_score_high: String,
}

/// One game's result, and whether A moved first.
struct Game1 {
    kept: Kept,
    a_first: bool,
}

/// Runs `match`.
pub fn run(args: &MatchArgs) -> Result<()> {
    if args.players.len() < 2 {
        bail!("--players names {} player(s); a match needs two or more", args.players.len());
    }
    if args.games == 0 || !args.games.is_multiple_of(2) {
        bail!("--games {}: an even number of 2 or more (each opening is played with both colours)", args.games);
    }
    let pairings = (args.players.len() * (args.players.len() - 1) / 2) as u64;
    if pairings.saturating_mul(args.games) > MAX_GAMES {
        bail!("{pairings} pairings of {} games is more than {MAX_GAMES} games", args.games);
    }
    games::visit(&args.game, Match(args))?
}

struct Match<'a>(&'a MatchArgs);

impl Visit for Match<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        let scale = entry.scale();
        if scale.is_none() && args.players.iter().any(|p| matches!(p, Contender::Engine(_))) {
            return Err(games::refuse("match with an engine", &args.game.game, Capability::Evaluator));
        }
        let (_, start) = games::position(&entry, &args.game, Some("match"))?;
        let ratings_file = args.ratings.as_deref().map(output::writable).transpose()?;
        let judge_file = args.judge.as_deref().map(output::writable).transpose()?;
        let sink = Sink::new(&args.out, None)?;
        if let (Some(ratings), Sink::TableAndFile(out)) = (&ratings_file, &sink)
            && *ratings == output::writable(out)?
        {
            bail!("--ratings {} is the file of --out as well: give each its own", ratings.display());
        }
        let checkpoint = match sink.kept_beside() {
            Some(path) => Some(checkpoint::open(path, &describe(args))?),
            None => None,
        };
        let game = entry.game();
        let known = args
            .tables
            .as_deref()
            .map(|dir| Known::load(&entry, args.game.game.name.into(), dir, "match"))
            .transpose()?;
        // The players search the game whose positions the tables hold are settled, and play the tables' move there.
        let searched = Settled::new(game, known.as_ref().map(|k| k as &dyn Settle<E::Game>));
        let evaluator = scale.as_ref().map(|s| Through(&s.evaluator));
        if args.players.contains(&Contender::Perfect) {
            Known::whole_game_from(known.as_ref(), &start, "match with a perfect player")?;
        }
        if judge_file.is_some() {
            Known::whole_game_from(known.as_ref(), &start, "match --judge")?;
        }
        let table_move =
            |s: &<E::Game as Game>::State, perfect| known.as_ref().map_or(Ok(None), |k| k.table_move(s, perfect));
        let (endgame_move, perfect_move) = (|s: &_| table_move(s, false), |s: &_| table_move(s, true));
        // Each network named is loaded once, for all the games it plays.
        let guides = args
            .players
            .iter()
            .map(|player| match player {
                Contender::Net(path, _) => {
                    khela::net::guide(&entry, args.game.game.name.into(), path, "match with net:PATH").map(Some)
                }
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>>>()?;
        let players = Players {
            searched: &searched,
            evaluator: evaluator.as_ref(),
            tables: [&endgame_move, &perfect_move],
            contenders: &args.players,
            guides: &guides,
            judge: known.as_ref().filter(|_| judge_file.is_some()),
        };
        let pairs: Vec<(usize, usize)> =
            (0..args.players.len()).flat_map(|i| (i + 1..args.players.len()).map(move |j| (i, j))).collect();
        let jobs: Vec<(usize, u64)> = (0..pairs.len()).flat_map(|p| (0..args.games).map(move |g| (p, g))).collect();
        let total = jobs.len() as u64;
        let before = checkpoint.as_ref().map_or(0, |c| c.done.len() as u64);
        if let Some(checkpoint) = checkpoint.as_ref().filter(|_| before > 0) {
            eprintln!("resuming: {before} of {total} games from {}", checkpoint.path().display());
        }
        // A game whose start is dealt (EinStein's setups) gets one a pair of games, from the opening's seed,
        // unless a position is given: `dealt[p · pairs + n]` for pair n of pairing p.
        let pairs_of_games = (args.games / 2) as usize;
        let mut dealt = Vec::new();
        if args.game.position.is_none() && entry.deal(0).is_some() {
            for (p, n) in (0..pairs.len()).flat_map(|p| (0..pairs_of_games as u64).map(move |n| (p, n))) {
                let text = entry.deal(stream(args.seed, 0, p, n)).expect("a dealt start");
                dealt.push(game.parse_position(&text)?);
            }
        }
        // The two games of an opening share its seed, its dealt start and its dice; each game's players have their
        // own seeds.
        let opening_of = |p: usize, g: u64| Opening {
            plies: args.opening,
            seed: stream(args.seed, 0, p, g / 2),
            dice: stream(args.seed, 3, p, g / 2),
        };
        let start_of = |p: usize, g: u64| dealt.get(p * pairs_of_games + (g / 2) as usize).unwrap_or(&start);
        // Every opening is drawn before the first game: one that no draw lets the game survive is refused now, not
        // hours into the match (and again at every resume).
        for &(p, g) in jobs.iter().filter(|(_, g)| g.is_multiple_of(2)) {
            let opening = opening_of(p, g);
            opened(game, start_of(p, g), opening, &mut Pcg::from_seed(opening.dice))?;
        }
        let bar = Progress::new("match", total, before);
        let done = AtomicU64::new(before);
        let play = |&(p, g): &(usize, u64)| -> Result<Game1> {
            let a_first = g.is_multiple_of(2);
            if let Some(played) = checkpoint.as_ref().and_then(|c| c.done.get(&(p, g))) {
                return Ok(Game1 { kept: played.kept, a_first });
            }
            let seeds = [stream(args.seed, 1, p, g), stream(args.seed, 2, p, g)];
            let players_of = [pairs[p].0, pairs[p].1];
            let kept = one_game(game, &players, start_of(p, g), players_of, a_first, opening_of(p, g), seeds)?;
            if let Some(checkpoint) = &checkpoint {
                checkpoint.keep(&Played { pairing: p, game: g, kept })?;
            }
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            bar.update(n, total, || format!("{n}/{total} games"));
            Ok(Game1 { kept, a_first })
        };
        let results: Vec<Game1> = args.threads.pool()?.install(|| jobs.par_iter().map(play).collect::<Result<_>>())?;
        bar.finish();
        let rows: Vec<Row> = pairs
            .iter()
            .enumerate()
            .map(|(p, &(i, j))| {
                let games = &results[p * args.games as usize..(p + 1) * args.games as usize];
                tally(&args.players[i], &args.players[j], games)
            })
            .collect();
        let ratings = ratings_file.as_ref().map(|_| rate(&args.players, &pairs, &rows));
        let judged = judge_file.as_ref().map(|_| {
            let names: Vec<String> = args.players.iter().map(|p| p.to_string()).collect();
            let games: Vec<_> = results
                .iter()
                .enumerate()
                .map(|(k, g)| {
                    let (i, j) = pairs[k / args.games as usize];
                    ([i, j], g.a_first, g.kept.judged.as_ref())
                })
                .collect();
            judge::rows(&names, [game.player_name(Player::Max), game.player_name(Player::Min)], &games)
        });
        let facts = Sidecar::now();
        let (first, second) = (game.player_name(Player::Max), game.player_name(Player::Min));
        sink.emit(&rows, || {
            let mut table = output::table(&[
                "A",
                "B",
                "games",
                "A wins",
                "draws",
                "B wins",
                &format!("A as {first}"),
                &format!("A as {second}"),
                "by repetition",
                "by length",
                "mean plies",
                "A's score (95% CI)",
            ]);
            for r in &rows {
                table.add_row(vec![
                    r.a.clone(),
                    r.b.clone(),
                    r.games.to_string(),
                    r.a_wins.to_string(),
                    r.draws.to_string(),
                    r.b_wins.to_string(),
                    format!("{} won", r.a_wins_first),
                    format!("{} won", r.a_wins_second),
                    r.repetitions.to_string(),
                    r.capped.to_string(),
                    r.mean_plies.clone(),
                    format!("{} ({}–{})", r.a_score, r.a_score_low, r.a_score_high),
                ]);
            }
            let rated = ratings.as_ref().map_or(String::new(), |ratings| {
                let mut table = output::table(&["player", "Elo", "games", "score"]);
                for r in ratings {
                    table.add_row(vec![r.player.clone(), r.elo.clone(), r.games.to_string(), r.score.clone()]);
                }
                format!("\n{table}")
            });
            let rated = match &judged {
                Some(judged) => format!("{rated}\nmoves judged by the tables:\n{}", judge::table(judged)),
                None => rated,
            };
            format!(
                "{}: {} games a pairing, {}-ply seeded openings, seed {}\n{table}{rated}\nmachine: {}",
                entry.title(),
                args.games,
                args.opening,
                args.seed,
                facts.summary()
            )
        })?;
        if let (Some(path), Some(ratings)) = (&ratings_file, &ratings) {
            output::write_csv_atomically(path, ratings)?;
        }
        if let (Some(path), Some(judged)) = (&judge_file, &judged) {
            output::write_csv_atomically(path, judged)?;
            let players: Vec<String> = args.players.iter().map(|p| p.to_string()).collect();
            facts.write(path, &serde_json::json!({ "players": players, "match": describe(args) }))?;
        }
        if let Sink::TableAndFile(path) = &sink {
            let players: Vec<String> = args.players.iter().map(|p| p.to_string()).collect();
            facts.write(path, &serde_json::json!({ "players": players }))?;
        }
        // The table is whole: the games' checkpoint has served.
        checkpoint.map_or(Ok(()), Checkpoint::remove)
    }
}

/// A game's opening: random plies, drawn from a seed (which also deals a start, for a game whose start is
/// dealt), and the seed of its dice.
#[derive(Clone, Copy)]
struct Opening {
    plies: u32,
    seed: u64,
    dice: u64,
}

/// Everything a match's games depend on, in one line: what its checkpoint must agree with to be resumed.
fn describe(args: &MatchArgs) -> String {
    let players: Vec<String> = args.players.iter().map(|p| p.to_string()).collect();
    let or_none = |o: Option<String>| o.unwrap_or_else(|| "-".into());
    format!(
        "game={} rules={} quiet-limit={} position={} players={} games={} opening={} seed={}{}{}{}",
        args.game.game,
        or_none(args.game.rules.clone()),
        or_none(args.game.quiet_limit.map(|q| q.to_string())),
        or_none(args.game.position.clone()),
        players.join(","),
        args.games,
        args.opening,
        args.seed,
        // Only when given, so that the checkpoints of matches without them read as before.
        args.tables.as_ref().map_or(String::new(), |dir| format!(" tables={}", dir.display())),
        if args.judge.is_some() { " judged" } else { "" },
        args.game.setup.as_ref().map_or(String::new(), |setup| format!(" setup={setup}"))
    )
}

/// The seed of random stream `tag` (0: an opening, 1: the first seat, 2: the second) of number `n` of pairing
/// `pairing`: the four numbers, disjoint in their bits (a match has fewer than 2²² pairings and 2⁴⁰ games a
/// pairing), mixed — no two streams of a match share a seed.
fn stream(seed: u64, tag: u64, pairing: usize, n: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ tag << 62 ^ (pairing as u64) << 40 ^ n)
}

/// What the seats of a match play with: the game they search (the tables' positions settled), its evaluator,
/// the tables' moves (the endgame's for every player, every position's for a perfect one), and the players with
/// the networks of those that play with one.
struct Players<'a, G: Game, E> {
    searched: &'a Settled<'a, G>,
    evaluator: Option<&'a Through<'a, E>>,
    tables: [TableMove<'a, Settled<'a, G>>; 2],
    contenders: &'a [Contender],
    guides: &'a [Option<GuideOf<'a, G>>],
    /// The tables that judge the players' moves (`--judge`).
    judge: Option<&'a Known<G>>,
}

/// Plays one game of `game` between `players` (A, B: indices into the seated players), A first if `a_first`,
/// from `start` after the opening's random plies; the first and second seats draw from `seeds`.
fn one_game<G: Notation + Sync, E: khela_games::Evaluator<G>>(
    game: &G,
    seated: &Players<'_, G, E>,
    start: &G::State,
    players: [usize; 2],
    a_first: bool,
    opening: Opening,
    seeds: [u64; 2],
) -> Result<Kept> {
    let mut dice = Pcg::from_seed(opening.dice);
    let (mut line, mut rolls) = opened(game, start, opening, &mut dice)?;
    let (first, second) = if a_first { (players[0], players[1]) } else { (players[1], players[0]) };
    let seat = |i: usize, seed| -> Result<_> {
        let guide = seated.guides[i].as_deref();
        Ok(Seat::new(seated.searched, seated.evaluator, &seated.contenders[i], guide, 1, seed)?
            .with_tables(seated.tables[usize::from(seated.contenders[i] == Contender::Perfect)]))
    };
    let mut seats = [seat(first, seeds[0])?, seat(second, seeds[1])?];
    let (opened, from) = (line.moves().len(), line.state().clone());
    let (end, rolled) = play_out(game, &mut line, &mut seats, &mut dice, |_| {})?;
    rolls += rolled;
    let payoff = end.payoff();
    let a_view = if a_first { payoff } else { -payoff };
    let seat_of_first = [usize::from(!a_first), usize::from(a_first)];
    let judged = seated.judge.map(|known| judge::judge(game, known, &from, &line.moves()[opened..], seat_of_first));
    Ok(Kept { a_view, end, plies: line.moves().len() as u64 - rolls, judged: judged.transpose()? })
}

/// Random openings drawn for one game before a match gives up on its `--opening`: an opening that ends the game
/// before the players move would credit chance's result to them, and is drawn again.
const OPENING_TRIES: u32 = 100;

/// The line after `opening`'s random plies from `start` (drawn again, from where the draws left off, while they
/// end the game), the dice rolled from `dice`, and the rolls made. Plies are moves: a roll of the dice is not one
/// (it comes with the move after it).
fn opened<G: Game>(game: &G, start: &G::State, opening: Opening, dice: &mut Pcg) -> Result<(Line<G>, u64)> {
    let mut chooser = Pcg::from_seed(opening.seed);
    let mut moves = Vec::new();
    for _ in 0..OPENING_TRIES {
        let mut line = Line::new(game, start.clone());
        let (mut plies, mut rolls) = (0, 0);
        while plies < opening.plies {
            let (mover, rolled) = roll_to_decision(game, &mut line, dice);
            rolls += rolled;
            if mover.is_none() {
                break;
            }
            game.moves(line.state(), &mut moves);
            line.play(game, moves[chooser.below(moves.len())]);
            plies += 1;
        }
        if line.end(game).is_none() {
            return Ok((line, rolls));
        }
    }
    bail!(
        "--opening {}: {OPENING_TRIES} random openings of {} in a row ended the game before the players moved; \
         give a shorter opening",
        opening.plies,
        in_words(u64::from(opening.plies))
    )
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (95%) of a proportion `p` observed over `n` trials: unlike the normal
/// approximation it stays within [0, 1] and is not empty at 0 or 1. A's score counts a draw as half a win.
fn wilson(p: f64, n: u64) -> (f64, f64) {
    let (n, z2) = (n as f64, Z95 * Z95);
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

/// The players' ratings from the pairings' rows.
fn rate(players: &[Contender], pairs: &[(usize, usize)], rows: &[Row]) -> Vec<Rating> {
    let pairings: Vec<Pairing> = pairs
        .iter()
        .zip(rows)
        .map(|(&(a, b), r)| Pairing { a, b, a_points: r.a_wins as f64 + r.draws as f64 / 2.0, games: r.games })
        .collect();
    let elo = ratings(players.len(), &pairings);
    players
        .iter()
        .enumerate()
        .map(|(i, player)| {
            let (mut points, mut games) = (0.0, 0);
            for p in pairings.iter().filter(|p| p.a == i || p.b == i) {
                points += if p.a == i { p.a_points } else { p.games as f64 - p.a_points };
                games += p.games;
            }
            let score = format!("{:.4}", points / games.max(1) as f64);
            Rating { player: player.to_string(), elo: format!("{:.1}", elo[i]), games, score }
        })
        .collect()
}

/// A pairing's row from its games.
fn tally(a: &Contender, b: &Contender, games: &[Game1]) -> Row {
    let mut row = Row { a: a.to_string(), b: b.to_string(), games: games.len() as u64, ..Row::default() };
    let mut plies = 0;
    for Game1 { kept: g, a_first } in games {
        plies += g.plies;
        match (g.a_view.partial_cmp(&0.0), *a_first) {
            (Some(std::cmp::Ordering::Greater), true) => {
                (row.a_wins, row.a_wins_first) = (row.a_wins + 1, row.a_wins_first + 1)
            }
            (Some(std::cmp::Ordering::Greater), false) => {
                (row.a_wins, row.a_wins_second) = (row.a_wins + 1, row.a_wins_second + 1)
            }
            (Some(std::cmp::Ordering::Less), true) => {
                (row.b_wins, row.b_wins_second) = (row.b_wins + 1, row.b_wins_second + 1)
            }
            (Some(std::cmp::Ordering::Less), false) => {
                (row.b_wins, row.b_wins_first) = (row.b_wins + 1, row.b_wins_first + 1)
            }
            _ => row.draws += 1,
        }
        row.repetitions += u64::from(g.end == End::Repetition);
        row.capped += u64::from(g.end == End::LengthCap);
    }
    row.mean_plies = format!("{:.1}", plies as f64 / games.len().max(1) as f64);
    let score = (row.a_wins as f64 + row.draws as f64 / 2.0) / row.games as f64;
    let (low, high) = wilson(score, row.games);
    (row.a_score, row.a_score_low, row.a_score_high) =
        (format!("{score:.4}"), format!("{low:.4}"), format!("{high:.4}"));
    row
}
