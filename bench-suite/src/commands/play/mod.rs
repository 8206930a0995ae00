//! `play`: a game in the terminal against the engine (or Monte Carlo, or random moves) — the board drawn with
//! its point labels, the legal moves listed, moves typed in the game's notation (bad input asks again), the
//! opponent's reply with its value and principal variation, `undo`, and a game record that `play --load`
//! resumes. Moves are read from standard input line by line, so `printf 'c3\nb2\n' | bench-suite play …` plays
//! without a terminal.

use crate::games::{self, Entry, GameArgs, View, Visit};
use crate::output;
use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use indicatif::HumanCount;
use khela::dynamic::Record;
use khela::known::Known;
use khela::players::{Contender, Seat, Seen, legal};
use khela_games::line::{End, Line};
use khela_games::notation::plies as in_words;
use khela_games::rng::splitmix64;
use khela_games::settled::{Settle, Settled, Through};
use khela_games::{Game, Node, Notation, Player};
use khela_mcts::random::{Pcg, Random, roll};
use std::io::BufRead;
use std::path::PathBuf;

/// Options of `play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The side typed at the keyboard: first, second, a player's name (goats, tigers, X, O), both, or none (the
    /// opponent plays both sides).
    #[arg(long, default_value = "first")]
    pub human: String,
    /// The opponent: engine:DEPTH, mcts:ITERATIONS, net:PATH[:SIMULATIONS] (a network trained by `zero train`
    /// guiding PUCT, 200 simulations a move unless given), random, or perfect (the best move of --tables DIR
    /// everywhere: tables of the whole game, as Bagh-Chal's with its placement phase).
    #[arg(long, default_value = "engine:4")]
    pub engine: Contender,
    /// The seed of the opponent's random choices, of the dice and of a dealt start (EinStein's setup).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A game record to resume (written by --record or the `save` command).
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// Writes the game record to this file after every move.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// The endgame tables in DIR (`retro --out DIR`: Bagh-Chal's sliding phase, Sixteen
    /// Soldiers' few pieces): the opponent plays their move
    /// wherever they hold the position, and its searches stop at every position they hold.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

/// What a person types besides moves.
const HELP: &str = "type a move as listed, or: moves (list them), undo (take back your last move), \
                    save FILE (write the game record), quit";

/// The tag that sets the dice's stream of the seed apart.
const DICE: u64 = 0xD1CE;

/// Runs `play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    games::visit(&args.game, Play(args))?
}

struct Play<'a>(&'a PlayArgs);

impl Visit for Play<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        let game = entry.game();
        let humans = humans(game, &args.human)?;
        if let Some(path) = &args.record {
            output::writable(path)?;
        }
        let (start, mut line) = match &args.load {
            Some(path) => resume(&entry, args, path)?,
            None => {
                let (text, state) = games::position(&entry, &args.game, Some("play"))?;
                // A game whose start is dealt (EinStein's setups) is dealt from the seed, unless a position is given.
                match entry.deal(args.seed).filter(|_| args.game.position.is_none()) {
                    Some(dealt) => {
                        let state = game.parse_position(&dealt)?;
                        (dealt, Line::new(game, state))
                    }
                    None => (text, Line::new(game, state)),
                }
            }
        };
        // The dice: their own stream of the seed, apart from the opponent's.
        let mut dice = Pcg::from_seed(splitmix64(args.seed ^ DICE));
        let known = args
            .tables
            .as_deref()
            .map(|dir| Known::load(&entry, args.game.game.name.into(), dir, "play"))
            .transpose()?;
        // The opponent's searches stop at every position the tables hold; where the game is in them, it plays
        // their move.
        let settled = Settled::new(game, known.as_ref().map(|k| k as &dyn Settle<E::Game>));
        let scale = entry.scale();
        let through = scale.as_ref().map(|s| Through(&s.evaluator));
        let perfect = args.engine == Contender::Perfect;
        if perfect {
            Known::whole_game_from(known.as_ref(), line.state(), "play --engine perfect")?;
        }
        let table_move = |s: &<E::Game as Game>::State| known.as_ref().map_or(Ok(None), |k| k.table_move(s, perfect));
        let guide = match &args.engine {
            Contender::Net(path, _) => {
                Some(khela::net::guide(&entry, args.game.game.name.into(), path, "play --engine net:PATH")?)
            }
            _ => None,
        };
        let mut seat = Seat::new(&settled, through.as_ref(), &args.engine, guide.as_deref(), 16, args.seed)?
            .with_tables(&table_move);
        // Lines as bytes: text that is not UTF-8 is a move not understood, asked again, not the end of the game.
        let mut input = std::io::stdin().lock().split(b'\n');
        output::say(format!("{}: you play {}, against {}; {HELP}", entry.title(), args.human, args.engine))?;
        let mut show = true;
        loop {
            if std::mem::take(&mut show) {
                output::say(format!("\n{}", game.picture(line.state())))?;
            }
            if let Some(end) = line.end(game) {
                output::say(ending(game, end, line.moves().len()))?;
                return Ok(());
            }
            let mover = match game.node(line.state()) {
                Node::Decision(mover) => mover,
                _ => {
                    let outcome = roll(game, line.state(), &mut dice);
                    output::say(format!("the die shows {}", game.write_move(outcome)))?;
                    line.play(game, outcome);
                    continue;
                }
            };
            let name = game.player_name(mover);
            if !humans[usize::from(mover == Player::Min)] {
                let choice = seat.choose(&line)?;
                let mut said = format!("{name}: {}", game.write_move(choice.mv));
                match choice.seen {
                    Seen::Engine(value, pv) => {
                        // The view named: the first player's, or the mover's (the engine's own side).
                        let (shown, view) = match entry.view() {
                            View::Mover => (mover.view(value), format!("{}, the side to move", output::view_of(name))),
                            View::First => (value, output::view_of(game.player_name(Player::Max))),
                        };
                        let pv: Vec<String> = pv.iter().map(|&m| game.write_move(m)).collect();
                        let (shown, pv) = (output::value(shown), pv.join(" "));
                        said.push_str(&format!(" (value {shown} from {view}; principal variation {pv})"));
                    }
                    Seen::Mcts(mean, visits, iterations) => {
                        let visits = format!("{} of {} iterations", HumanCount(visits), HumanCount(iterations));
                        said.push_str(&format!(" (mean score {mean:.3} for {name}, {visits})"));
                    }
                    Seen::Tables(verdict) => said.push_str(&format!(" (the tables: {verdict} for {name})")),
                    Seen::Nothing => {}
                }
                output::say(said)?;
                line.play(game, choice.mv);
                show = true;
            } else {
                let mut moves = Vec::new();
                game.moves(line.state(), &mut moves);
                let written: Vec<String> = moves.iter().map(|&m| game.write_move(m)).collect();
                output::say(format!("{name} to move: {}", written.join(" ")))?;
                output::prompt(format!("{name}> "))?;
                let Some(typed) = input.next().transpose()? else {
                    output::say("\n(end of input: the game is left unfinished)")?;
                    return Ok(());
                };
                let typed = String::from_utf8_lossy(&typed);
                let typed = typed.trim();
                match typed.split_once(' ').unwrap_or((typed, "")) {
                    ("", _) => continue,
                    ("quit", _) => return Ok(()),
                    ("help", _) | ("moves", _) => output::say(HELP)?,
                    ("undo", _) => {
                        show = undo(game, &mut line, &humans);
                        if !show {
                            output::say("nothing to undo")?;
                        }
                    }
                    ("save", path) if !path.is_empty() => {
                        let record = record_of(game, args, &start, &line)?.text();
                        // A file that cannot be written is said, and the game goes on.
                        match output::write_atomically(path.as_ref(), record.as_bytes()) {
                            Ok(()) => output::say(format!("saved {path}"))?,
                            Err(err) => output::say(format!("not saved: {err:#}"))?,
                        }
                    }
                    _ => match written.iter().position(|w| w.eq_ignore_ascii_case(typed)) {
                        Some(i) => {
                            line.play(game, moves[i]);
                            show = true;
                        }
                        None => output::say(format!("{typed:?} is not a legal move here; {HELP}"))?,
                    },
                }
            }
            if let Some(path) = &args.record {
                output::write_atomically(path, record_of(game, args, &start, &line)?.text().as_bytes())?;
            }
        }
    }
}

/// Which players (MAX, MIN) a person plays, from `--human`.
fn humans<G: Notation>(game: &G, text: &str) -> Result<[bool; 2]> {
    let (first, second) = (game.player_name(Player::Max), game.player_name(Player::Min));
    Ok(match text {
        "first" => [true, false],
        "second" => [false, true],
        "both" => [true, true],
        "none" => [false, false],
        _ if text.eq_ignore_ascii_case(first) => [true, false],
        _ if text.eq_ignore_ascii_case(second) => [false, true],
        _ => bail!("--human {text:?}: first, second, {first}, {second}, both or none"),
    })
}

/// Takes back moves until a person is to move again, at least one; whether there was one. The dice rolled
/// before a person's move stay rolled: undoing goes back past the rolls after it, never past the one before it.
fn undo<G: Game>(game: &G, line: &mut Line<G>, humans: &[bool; 2]) -> bool {
    if line.undo().is_none() {
        return false;
    }
    loop {
        let theirs = match game.node(line.state()) {
            Node::Chance => true,
            Node::Decision(mover) => !humans[usize::from(mover == Player::Min)],
            Node::Terminal(_) => false,
        };
        if !theirs || line.undo().is_none() {
            return true;
        }
    }
}

/// How the game ended, in words.
fn ending<G: Notation>(game: &G, end: End, plies: usize) -> String {
    match end {
        End::Over(payoff) => format!("{} after {}", games::outcome(game, payoff), in_words(plies as u64)),
        End::Repetition => format!("a draw by repetition after {}", in_words(plies as u64)),
        End::LengthCap => format!("a draw: the game reached its maximum length, {}", in_words(plies as u64)),
    }
}

/// The record of the game so far, from the start written `start`.
fn record_of<G: Notation>(game: &G, args: &PlayArgs, start: &str, line: &Line<G>) -> Result<Record> {
    Ok(Record {
        game: args.game.spec()?.to_string(),
        start: start.to_string(),
        moves: line.moves().iter().map(|&m| game.write_move(m)).collect(),
    })
}

/// The start and the line of the record in `path`, replayed, after checking it is a record of this game with
/// these options.
fn resume<E: Entry>(entry: &E, args: &PlayArgs, path: &std::path::Path) -> Result<(String, Line<E::Game>)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let record = Record::parse(&path.display().to_string(), &text)?;
    let game = entry.game();
    let ours = args.game.spec()?.to_string();
    if record.game != ours {
        bail!("{} is a record of {}, not of {ours}; give the same --game and options", path.display(), record.game);
    }
    if args.game.position.is_some() {
        bail!("--load resumes the record's game from its own start; drop --position");
    }
    let start = game.parse_position(&record.start).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut line = Line::new(game, start);
    let mut moves = Vec::new();
    for (i, text) in record.moves.iter().enumerate() {
        if line.end(game).is_some() {
            bail!("{}: move {} comes after the end of the game", path.display(), i + 1);
        }
        legal(game, line.state(), &mut moves);
        let Some(&mv) = moves.iter().find(|&&m| game.write_move(m) == *text) else {
            bail!("{}: move {} {text:?} is not legal there", path.display(), i + 1);
        };
        line.play(game, mv);
    }
    Ok((record.start, line))
}
