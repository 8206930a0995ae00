//! The dynamic face: a game chosen at run time by its game string ([`load`]), for interactive front ends (the
//! Python states, the browser app). Its states ([`State`]) give their legal moves as numbers and as notation,
//! play and undo them, give the outcome and the chance outcomes, the picture and the board, the analysis of every move and a
//! player's move. It is written once, generically over the registry's entries ([`Face`] for every
//! [`Entry`]); the generic path stays for bulk work.
//!
//! A move's number is its place among the legal moves of the position, in the game's fixed order (at a chance
//! node, among the chance outcomes): numbers are the position's, the notation is the game's.
//!
//! A state is its line of play: the starting position (in the game's notation) and the moves played since, so
//! that undo goes back move by move, repetitions count in games whose positions repeat, and [`State::record`]
//! writes a state out whole, which [`Game::replay`] reads back.

use crate::analysis::{self, Analyser, Analysis, Limit, MoveValue, Source};
use crate::board::{Board, Gesture};
use crate::known::Known;
use crate::net;
use crate::players::{self, Contender, Seat};
pub use crate::record::Record;
use crate::registry::{self, Entry, GameName, Spec, Visit};
use crate::threat::{self, Threat};
use crate::verdict::Verdict;
use anyhow::{Result, anyhow, bail};
use khela_games::line::{End, Line};
use khela_games::{Game as _, Node, Notation, Player, Value};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

mod actions;
mod playouts;
mod searches;

pub use playouts::Playouts;

/// The game named by `text`, a game string with its parameters (`connect4(width=8)`; see
/// [`crate::registry::params`]).
///
/// # Errors
///
/// An unknown game, a string that is not a game string, or parameters the game refuses.
pub fn load(text: &str) -> Result<Game> {
    Game::new(&text.parse()?)
}

/// A game chosen at run time.
#[derive(Clone)]
pub struct Game {
    spec: Spec,
    face: Arc<dyn Face>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({})", self.spec)
    }
}

impl Game {
    /// The game `spec` names.
    ///
    /// # Errors
    ///
    /// Parameters the game refuses.
    pub fn new(spec: &Spec) -> Result<Game> {
        struct Build;
        impl Visit for Build {
            type Output = Arc<dyn Face>;
            fn visit<E: Entry>(self, entry: E) -> Arc<dyn Face> {
                Arc::new(Faced { entry, known: None })
            }
        }
        Ok(Game { spec: spec.clone(), face: registry::visit(spec, Build)? })
    }

    /// The game with its endgame tables, read from `dir` (written by `retro`), or with `dir` `None` solved here
    /// in memory (for small variants): the exact analysis of a position the tables hold, or whose every move
    /// leads into them, comes from them, with the plies to the end — the sliding phase of Bagh-Chal, the
    /// endgames of Sixteen Soldiers, positions whose repetitions no search can value.
    ///
    /// # Errors
    ///
    /// A game without an endgame, tables missing, unreadable or for other rules, or an endgame too large to
    /// solve in memory.
    pub fn with_tables(&self, dir: Option<&Path>) -> Result<Game> {
        struct Load<'a>(Option<&'a Path>, &'a str);
        impl Visit for Load<'_> {
            type Output = Result<Arc<dyn Face>>;
            fn visit<E: Entry>(self, entry: E) -> Result<Arc<dyn Face>> {
                let known = match self.0 {
                    Some(dir) => Known::load(&entry, self.1, dir, "the tables of")?,
                    None => Known::solve(&entry, self.1)?,
                };
                Ok(Arc::new(Faced { entry, known: Some(known) }))
            }
        }
        let face = registry::visit(&self.spec, Load(dir, self.spec.name.into()))??;
        Ok(Game { spec: self.spec.clone(), face })
    }

    /// Its game string, as it was given.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// Its name in headings: `Connect-4 7x6`.
    pub fn title(&self) -> String {
        self.face.title()
    }

    /// How its positions are written.
    pub fn notation(&self) -> &'static str {
        self.face.notation()
    }

    /// How its notation names `player`: `X`, `goats`.
    pub fn player_name(&self, player: Player) -> &'static str {
        self.face.player_name(player)
    }

    /// Its standard start.
    ///
    /// # Errors
    ///
    /// A game with no standard start (Nim: give the heaps, [`Game::state`]).
    pub fn start(&self) -> Result<State> {
        self.state_at(None)
    }

    /// The position `position`, in the game's notation.
    ///
    /// # Errors
    ///
    /// A text the notation refuses.
    pub fn state(&self, position: &str) -> Result<State> {
        self.state_at(Some(position))
    }

    /// The state a record describes (see [`State::record`]): its game's, from its start, its moves replayed.
    ///
    /// # Errors
    ///
    /// A record of another game, or a start or a move that this game refuses.
    pub fn replay(&self, record: &Record) -> Result<State> {
        let spec: Spec = record.game.parse()?;
        if spec != self.spec {
            bail!("the record is of {}, not of {}", record.game, self.spec);
        }
        // The game's own start is taken as it is (a game whose parameters fix its start refuses a position).
        let mut state = match self.start() {
            Ok(start) if start.line.start() == record.start => start,
            _ => self.state(&record.start)?,
        };
        for text in &record.moves {
            state.play_text(text)?;
        }
        Ok(state)
    }

    fn state_at(&self, position: Option<&str>) -> Result<State> {
        Ok(State { game: self.clone(), line: self.face.clone().line(position)? })
    }
}

/// A game's state with the line of play that led to it.
#[derive(Debug)]
pub struct State {
    game: Game,
    line: Box<dyn Play>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State { game: self.game.clone(), line: self.line.clone_box() }
    }
}

/// What is at a state: a player to move, nature to draw, or the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Turn {
    /// This player moves.
    Decision(Player),
    /// Nature draws one of the chance outcomes ([`State::chance_outcomes`]).
    Chance,
    /// The game is over: its payoff, the first player's view (a draw by repetition or by the length cap is 0).
    Over(Value),
}

impl State {
    /// Its game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Who is to move, or whether nature draws, or the end.
    pub fn turn(&self) -> Turn {
        self.line.turn()
    }

    /// The first player's payoff if the game is over.
    pub fn outcome(&self) -> Option<Value> {
        match self.turn() {
            Turn::Over(payoff) => Some(payoff),
            _ => None,
        }
    }

    /// The legal moves' numbers (at a chance node, the chance outcomes'): `0..n` in the game's order; none when
    /// the game is over.
    pub fn legal_moves(&self) -> Vec<usize> {
        (0..self.line.moves().len()).collect()
    }

    /// The legal moves (at a chance node, the chance outcomes) in the game's notation, in the game's order.
    pub fn move_texts(&self) -> Vec<String> {
        self.line.moves()
    }

    /// The chance outcomes with their probabilities, at a chance node (none elsewhere), by number.
    pub fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.line.chances().into_iter().enumerate().collect()
    }

    /// The move numbered `mv` in the game's notation.
    ///
    /// # Errors
    ///
    /// A number that is not a legal move's.
    pub fn move_text(&self, mv: usize) -> Result<String> {
        let texts = self.move_texts();
        texts.get(mv).cloned().ok_or_else(|| self.no_move(mv))
    }

    /// The number of the move written `text`.
    ///
    /// # Errors
    ///
    /// A text that is no legal move's: the message lists them.
    pub fn parse_move(&self, text: &str) -> Result<usize> {
        let texts = self.move_texts();
        let text = text.trim();
        texts.iter().position(|t| t == text).ok_or_else(|| {
            if texts.is_empty() {
                anyhow!("move {text:?}: the game is over")
            } else {
                anyhow!("move {text:?} is not legal here; the legal moves: {}", texts.join(", "))
            }
        })
    }

    /// Plays the move (or chance outcome) numbered `mv`.
    ///
    /// # Errors
    ///
    /// A number that is not a legal move's; the state is unchanged.
    pub fn play(&mut self, mv: usize) -> Result<()> {
        if !self.line.play(mv) {
            return Err(self.no_move(mv));
        }
        Ok(())
    }

    /// Plays the move written `text`.
    ///
    /// # Errors
    ///
    /// A text that is no legal move's; the state is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<()> {
        let mv = self.parse_move(text)?;
        self.play(mv)
    }

    /// Takes back the last move (or chance outcome); `false` at the start, where there is none.
    pub fn undo(&mut self) -> bool {
        self.line.undo()
    }

    /// The moves (and chance outcomes) played since the start, in the game's notation.
    pub fn history(&self) -> Vec<String> {
        self.line.played()
    }

    /// The state written out whole.
    pub fn record(&self) -> Record {
        Record { game: self.game.spec.to_string(), start: self.line.start().to_string(), moves: self.history() }
    }

    /// A picture of the position for people.
    pub fn picture(&self) -> String {
        self.line.picture()
    }

    /// The position drawn as a board ([`crate::board`]).
    pub fn board(&self) -> Board {
        self.line.board()
    }

    /// How each legal move (at a chance node, each outcome) is made on [`State::board`]'s board, by number.
    pub fn gestures(&self) -> Vec<Gesture> {
        self.line.gestures()
    }

    fn no_move(&self, mv: usize) -> anyhow::Error {
        match self.line.moves().len() {
            0 => anyhow!("move {mv}: the game is over"),
            n => anyhow!("move {mv} is not legal here; the moves are numbered 0 to {}", n - 1),
        }
    }
}

/// A game's entry, as the dynamic face asks it: what [`Game`] needs, for every entry.
pub trait Face: Send + Sync {
    /// The game's title.
    fn title(&self) -> String;
    /// Its notation, for messages.
    fn notation(&self) -> &'static str;
    /// A player's name in the notation.
    fn player_name(&self, player: Player) -> &'static str;
    /// A line of play from `position`, or from the start.
    fn line(self: Arc<Self>, position: Option<&str>) -> Result<Box<dyn Play>>;
    /// The size of the game's action space, where it numbers its moves ([`Entry::actions`]); else why not.
    fn action_count(&self) -> Result<usize, &'static str>;
    /// The shape of a position's planes (planes, height, width) and the largest value they hold, where the game
    /// has them ([`Entry::observer`]); else why not.
    fn observation_shape(&self) -> Result<([usize; 3], f32), &'static str>;
}

/// An entry, as the dynamic face serves it: with its endgame's tables, where they were loaded.
struct Faced<E: Entry> {
    entry: E,
    known: Option<Known<E::Game>>,
}

impl<E: Entry> Face for Faced<E> {
    fn title(&self) -> String {
        Entry::title(&self.entry)
    }

    fn notation(&self) -> &'static str {
        Entry::notation(&self.entry)
    }

    fn player_name(&self, player: Player) -> &'static str {
        self.entry.game().player_name(player)
    }

    fn line(self: Arc<Self>, position: Option<&str>) -> Result<Box<dyn Play>> {
        let (start, state) = registry::position(&self.entry, position, None)?;
        let line = Line::new(self.entry.game(), state);
        Ok(Box::new(Played { face: self, start, line }))
    }

    fn action_count(&self) -> Result<usize, &'static str> {
        self.entry.actions().map(|(count, _)| count)
    }

    fn observation_shape(&self) -> Result<([usize; 3], f32), &'static str> {
        self.entry.observer().map(|observer| (observer.shape, observer.largest))
    }
}

/// A line of play of some game, as the dynamic face asks it.
pub trait Play: Send + Sync + fmt::Debug {
    /// A copy.
    fn clone_box(&self) -> Box<dyn Play>;
    /// The starting position, in the notation.
    fn start(&self) -> &str;
    /// The moves played, in the notation.
    fn played(&self) -> Vec<String>;
    /// Who is to move, or the end.
    fn turn(&self) -> Turn;
    /// The legal moves, or chance outcomes, in the notation (none when over).
    fn moves(&self) -> Vec<String>;
    /// The chance outcomes' probabilities (none but at a chance node).
    fn chances(&self) -> Vec<f64>;
    /// Plays the move numbered `mv`; `false`, playing nothing, when there is no such legal move.
    fn play(&mut self, mv: usize) -> bool;
    /// Takes back the last move, if any.
    fn undo(&mut self) -> bool;
    /// The picture.
    fn picture(&self) -> String;
    /// The board.
    fn board(&self) -> Board;
    /// The legal moves' gestures, in the order of [`Play::moves`].
    fn gestures(&self) -> Vec<Gesture>;
    /// The analysis; `name` is the game's.
    fn analyse(&self, name: GameName, analyser: &Analyser, limit: &Limit) -> Result<Analysis>;
    /// The threats of the legal move numbered `mv`.
    fn threat(&self, mv: usize) -> Option<Threat>;
    /// A contender's move; `name` is the game's.
    fn choose(&self, name: GameName, contender: &Contender, seed: u64, limit: &Limit) -> Result<usize>;
    /// The legal moves' (or chance outcomes') actions, in the order of [`Play::moves`], where the game numbers
    /// its moves.
    fn actions(&self) -> Option<Vec<usize>>;
    /// The position encoded for a network, where the game has an encoding.
    fn observation(&self) -> Option<Vec<f32>>;
    /// `count` random playouts from here, seeded by `seed`.
    fn playouts(&self, count: u64, seed: u64) -> Playouts;
}

/// A line of play of the game of the entry `E`.
struct Played<E: Entry> {
    face: Arc<Faced<E>>,
    start: String,
    line: Line<E::Game>,
}

impl<E: Entry> fmt::Debug for Played<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} from {:?}, {:?}", self.face.entry.title(), self.start, self.played())
    }
}

impl<E: Entry> Played<E> {
    /// Every move's exact value and plies to the end from the tables, where they hold every position the moves
    /// lead to (a repetition in the line does not change them: the tables value positions, whose best play never
    /// repeats one to its cost).
    fn tables_analysis(&self, known: &Known<E::Game>) -> Result<Option<Analysis>> {
        let game = self.face.entry.game();
        if self.line.end(game).is_some() {
            return Ok(None);
        }
        let Node::Decision(mover) = game.node(self.line.state()) else { return Ok(None) };
        let Some(verdicts) = known.verdicts(self.line.state())? else { return Ok(None) };
        let moves = self
            .legal()
            .iter()
            .enumerate()
            .map(|(index, &mv)| {
                let verdict = verdicts.iter().find(|&&(m, _)| m == mv).map(|&(_, v)| v);
                MoveValue {
                    index,
                    text: game.write_move(mv),
                    value: verdict.map(|v| mover.view(f64::from(v.sign()))),
                    visits: None,
                    plies: verdict.and_then(Verdict::plies),
                }
            })
            .collect();
        Ok(Some(Analysis { source: Source::Exact, mover, moves, complete: true }))
    }

    /// The moves (or chance outcomes) of the current position, in the game's order; none when the line is over.
    fn legal(&self) -> Vec<<E::Game as khela_games::Game>::Move> {
        let game = self.face.entry.game();
        if self.line.end(game).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        players::legal(game, self.line.state(), &mut moves);
        moves
    }
}

impl<E: Entry> Play for Played<E> {
    fn clone_box(&self) -> Box<dyn Play> {
        Box::new(Played { face: self.face.clone(), start: self.start.clone(), line: self.line.clone() })
    }

    fn start(&self) -> &str {
        &self.start
    }

    fn played(&self) -> Vec<String> {
        self.line.moves().iter().map(|&mv| self.face.entry.game().write_move(mv)).collect()
    }

    fn turn(&self) -> Turn {
        let game = self.face.entry.game();
        if let Some(end) = self.line.end(game) {
            return Turn::Over(End::payoff(end));
        }
        match game.node(self.line.state()) {
            Node::Decision(player) => Turn::Decision(player),
            Node::Chance => Turn::Chance,
            Node::Terminal(payoff) => Turn::Over(payoff),
        }
    }

    fn moves(&self) -> Vec<String> {
        self.legal().into_iter().map(|mv| self.face.entry.game().write_move(mv)).collect()
    }

    fn chances(&self) -> Vec<f64> {
        let game = self.face.entry.game();
        if self.line.end(game).is_some() || !matches!(game.node(self.line.state()), Node::Chance) {
            return Vec::new();
        }
        let mut outcomes = Vec::new();
        game.outcomes(self.line.state(), &mut outcomes);
        outcomes.into_iter().map(|(_, p)| p).collect()
    }

    fn play(&mut self, mv: usize) -> bool {
        let Some(&mv) = self.legal().get(mv) else { return false };
        self.line.play(self.face.entry.game(), mv);
        true
    }

    fn undo(&mut self) -> bool {
        self.line.undo().is_some()
    }

    fn picture(&self) -> String {
        self.face.entry.game().picture(self.line.state())
    }

    fn board(&self) -> Board {
        self.face.entry.board(self.line.state())
    }

    fn gestures(&self) -> Vec<Gesture> {
        self.legal().into_iter().map(|mv| self.face.entry.gesture(self.line.state(), mv)).collect()
    }

    fn analyse(&self, name: GameName, analyser: &Analyser, limit: &Limit) -> Result<Analysis> {
        if let Some(known) = self.face.known.as_ref().filter(|_| *analyser == Analyser::Exact)
            && let Some(analysis) = self.tables_analysis(known)?
        {
            return Ok(analysis);
        }
        analysis::analyse(&self.face.entry, name.into(), &self.line, analyser, limit)
    }

    fn threat(&self, mv: usize) -> Option<Threat> {
        let Turn::Decision(mover) = self.turn() else { return None };
        let mv = *self.legal().get(mv)?;
        threat::threat(&self.face.entry, &self.line, mover, mv)
    }

    fn choose(&self, name: GameName, contender: &Contender, seed: u64, limit: &Limit) -> Result<usize> {
        let entry = &self.face.entry;
        let game = entry.game();
        if !matches!(self.turn(), Turn::Decision(_)) {
            bail!("there is no move to choose here: the game is over, or nature moves");
        }
        if *contender == Contender::Perfect {
            // The first of the best moves by the exact analysis: the tables where loaded, else the game's solver.
            let analysis = self.analyse(name, &Analyser::Exact, &Limit::NONE)?;
            if analysis.source != Source::Exact || !analysis.complete {
                bail!("perfect play: no exact value of this position here (the analysis is {:?})", analysis.source);
            }
            return analysis.best().first().copied().ok_or_else(|| anyhow!("perfect play: no move is valued"));
        }
        let scale = entry.scale();
        let guide = match contender {
            Contender::Net(path, _) => Some(net::guide(entry, name.into(), path, "a net:PATH player")?),
            _ => None,
        };
        let seat = Seat::new(game, scale.as_ref().map(|s| &s.evaluator), contender, guide.as_deref(), 16, seed)?;
        let mut seat = seat.within(limit.clone());
        let chosen = seat.choose(&self.line)?.mv;
        Ok(self.legal().iter().position(|&mv| mv == chosen).expect("a player chooses a legal move"))
    }

    fn actions(&self) -> Option<Vec<usize>> {
        let (_, action) = self.face.entry.actions().ok()?;
        Some(self.legal().into_iter().map(|mv| action(&self.face.entry, mv)).collect())
    }

    fn observation(&self) -> Option<Vec<f32>> {
        self.face.entry.observer().ok().map(|observer| (observer.encode)(self.line.state()))
    }

    fn playouts(&self, count: u64, seed: u64) -> Playouts {
        playouts::random(self.face.entry.game(), &self.line, count, seed)
    }
}
