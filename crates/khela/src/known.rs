//! What exact tables bring to a search or a player: a game's endgame tables loaded ([`crate::tables`]), answering
//! the searches' question — is this position's value known exactly? ([`Settle`]) — and a player's: which move
//! keeps it (the fastest win, a draw kept, the longest defence); and, where the positions before the endgame are
//! valued too ([`Before`], in [`crate::verdict`]: Bagh-Chal's placement phase, from its layer tables or solved here), the same for every
//! position of the game ([`Known::verdict`], [`Known::verdicts`], [`Known::choice`]).

use crate::registry::{self, Capability, Endgame, Entry, Scope};
use crate::tables;
use crate::verdict::{Before, Verdict};
use anyhow::{Result, bail};
use khela_exact::retro::{self, Outcome, OutcomeTable};
use khela_games::settled::Settle;
use khela_games::{Game, Node, Value};
use std::path::{Path, PathBuf};

/// The largest endgame [`Known::solve`] solves in memory, in numbers (a few seconds, a few tens of MB).
pub const MAX_SOLVED_HERE: u64 = 5_000_000;

/// Every move of a position with the value it gives the side to move.
pub type Verdicts<G> = Vec<(<G as Game>::Move, Verdict)>;

/// A game's endgame with its tables, and the values before it where they are known.
pub struct Known<G: Game> {
    /// The endgame.
    pub endgame: Endgame<G>,
    /// Its outcomes.
    pub table: OutcomeTable,
    /// The values of the positions before the endgame, where the game has them and they were made.
    pub before: Option<Box<dyn Before<G>>>,
    /// The table files of the endgame's parts that the directory lacks (none for tables solved in memory): their
    /// positions' values are not known.
    pub missing: Vec<PathBuf>,
}

impl<G: Game> Known<G> {
    /// The tables of `entry`'s game (`name` its name, as the tables' files give it) in `dir`, for `command` (its
    /// name in messages), with the placement phase's where `dir` holds them.
    ///
    /// # Errors
    ///
    /// A game without an endgame, and tables that are missing, unreadable or for other rules.
    pub fn load<E: Entry<Game = G>>(entry: &E, name: &str, dir: &Path, command: &str) -> Result<Known<G>> {
        let Some(endgame) = entry.endgame(&Scope { within: Some(dir.to_path_buf()), ..Scope::default() }) else {
            return Err(registry::refuse(&format!("{command} --tables"), name, Capability::Retro));
        };
        let endgame = endgame?;
        let table = tables::load(dir, name, &endgame)?;
        let before = entry.before_endgame(name, dir).transpose()?;
        let missing = endgame.parts.iter().map(|part| tables::path(dir, &part.file)).filter(|f| !f.exists()).collect();
        Ok(Known { endgame, table, before, missing })
    }

    /// The tables of `entry`'s game (`name` its name) solved here, in memory, by retrograde analysis, with the
    /// placement phase by layers where it is small too: for the small variants whose endgames take a moment (the
    /// standard games' take a minute or more and their tables are read from disk, [`Known::load`]).
    ///
    /// # Errors
    ///
    /// A game without an endgame, or one of more than [`MAX_SOLVED_HERE`] numbers.
    pub fn solve<E: Entry<Game = G>>(entry: &E, name: &str) -> Result<Known<G>> {
        let Some(endgame) = entry.endgame(&Scope::default()) else {
            return Err(registry::refuse("tables solved in memory", name, Capability::Retro));
        };
        let endgame = endgame?;
        let numbers = endgame.space.len();
        if numbers > MAX_SOLVED_HERE {
            bail!(
                "{}'s endgame has {numbers} numbers, more than the {MAX_SOLVED_HERE} solved in memory: make its tables \
                 with retro and load them",
                entry.title()
            );
        }
        let table = retro::solve(&*endgame.space, |_| {})?;
        let outside = |state: &G::State| table.outcome(&*endgame.space, state);
        let before = entry.solve_before_endgame(&outside, MAX_SOLVED_HERE).transpose()?;
        Ok(Known { endgame, table, before, missing: Vec::new() })
    }

    /// The table file that would hold `state` where the directory lacks it.
    pub fn missing_file(&self, state: &G::State) -> Option<&Path> {
        let number = self.endgame.space.index(state)?;
        let part = self.endgame.parts.iter().position(|part| part.numbers.contains(&number))?;
        let file = tables::path(Path::new(""), &self.endgame.parts[part].file);
        self.missing.iter().find(|missing| missing.file_name() == file.file_name()).map(PathBuf::as_path)
    }

    /// The outcome of `state` for the side to move, if the endgame's tables hold it.
    pub fn outcome(&self, state: &G::State) -> Option<Outcome> {
        self.table.outcome(&*self.endgame.space, state)
    }

    /// Every move of `state` and the outcome it gives the side to move, if the endgame's tables hold every
    /// position the moves lead to (or end the game): the positions of the endgame, and those one move before it
    /// (Bagh-Chal: the last goat's placement).
    pub fn moves(&self, state: &G::State) -> Option<Vec<(G::Move, Outcome)>> {
        retro::move_outcomes(&*self.endgame.space, &self.table, state)
    }

    /// The best move of `state` by the endgame's tables, and the outcome it keeps for the side to move, where
    /// [`Known::moves`] knows them: the first of the equally good, in natural order.
    pub fn best(&self, state: &G::State) -> Option<(G::Move, Outcome)> {
        self.moves(state)?.into_iter().reduce(|a, b| if retro::better(b.1, a.1) { b } else { a })
    }

    /// The value of `state` for its side to move, wherever it is known: in the endgame's tables, or before them.
    ///
    /// # Errors
    ///
    /// The values before the endgame cannot be read.
    pub fn verdict(&self, state: &G::State) -> Result<Option<Verdict>> {
        let game = self.endgame.space.game();
        if let Node::Terminal(payoff) = game.node(state) {
            return Ok(Some(Outcome::at_end(self.endgame.space.to_move(state), payoff).into()));
        }
        if let Some(outcome) = self.outcome(state) {
            return Ok(Some(outcome.into()));
        }
        match &self.before {
            Some(before) => before.verdict(state),
            None => Ok(None),
        }
    }

    /// Every move of `state` and the value it gives the side to move, wherever [`Known::verdict`] knows every
    /// position the moves lead to; `None` elsewhere, and at a chance node or the end.
    ///
    /// # Errors
    ///
    /// The values before the endgame cannot be read.
    pub fn verdicts(&self, state: &G::State) -> Result<Option<Verdicts<G>>> {
        if let Some(moves) = self.moves(state) {
            return Ok(Some(moves.into_iter().map(|(mv, outcome)| (mv, outcome.into())).collect()));
        }
        let game = self.endgame.space.game();
        if self.before.is_none() || !matches!(game.node(state), Node::Decision(_)) {
            return Ok(None);
        }
        let mover = self.endgame.space.to_move(state);
        let mut moves = Vec::new();
        game.moves(state, &mut moves);
        let mut verdicts = Vec::with_capacity(moves.len());
        for mv in moves {
            let child = game.child(state, mv);
            let mine = match game.node(&child) {
                Node::Terminal(payoff) => Verdict::from(Outcome::at_end(mover, payoff)).before(false),
                _ => {
                    let Some(theirs) = self.verdict(&child)? else { return Ok(None) };
                    theirs.before(self.endgame.space.to_move(&child) != mover)
                }
            };
            verdicts.push((mv, mine));
        }
        Ok(Some(verdicts))
    }

    /// The best move of `state` by [`Known::verdicts`] and the value it keeps for the side to move: the first of
    /// the equally good, in natural order.
    ///
    /// # Errors
    ///
    /// The values before the endgame cannot be read.
    pub fn choice(&self, state: &G::State) -> Result<Option<(G::Move, Verdict)>> {
        Ok(self.verdicts(state)?.and_then(|moves| moves.into_iter().reduce(|a, b| if b.1.better(a.1) { b } else { a })))
    }

    /// The move a seat plays by these tables at `state`, with the value it keeps: a perfect player's wherever
    /// the values reach ([`Known::choice`]), another player's in the endgame only ([`Known::best`]: before it, it
    /// plays its own game).
    ///
    /// # Errors
    ///
    /// The values before the endgame cannot be read.
    pub fn table_move(&self, state: &G::State, perfect: bool) -> Result<Option<(G::Move, Verdict)>> {
        if perfect {
            return self.choice(state);
        }
        Ok(self.best(state).map(|(mv, outcome)| (mv, outcome.into())))
    }

    /// Refuses `what` (perfect play, a judge of moves) from `start` where these tables (`None`: no `--tables`)
    /// do not value it.
    ///
    /// # Errors
    ///
    /// No tables, tables that do not hold `start`, or values that cannot be read.
    pub fn whole_game_from(known: Option<&Known<G>>, start: &G::State, what: &str) -> Result<()> {
        let Some(known) = known else {
            bail!("{what} needs the game's exact tables: --tables DIR (retro --out DIR writes them)")
        };
        if known.verdict(start)?.is_none() {
            bail!(
                "{what}: the tables hold {}, not the position the games start from (Bagh-Chal's \
                 placement phase: retro --phase placement)",
                known.endgame.about
            );
        }
        Ok(())
    }

    /// The line of best play from `state` to the end of the game by [`Known::choice`] (empty for a draw), and
    /// whether it got there: false where it reached a position whose moves are not all known (a table missing).
    /// It ends: a win's or a loss's distance falls with every ply where it is known, and where it is not (a
    /// placement phase) every move leads forward, to fewer goats in hand.
    ///
    /// # Errors
    ///
    /// The values before the endgame cannot be read.
    pub fn line(&self, state: &G::State) -> Result<(Vec<G::Move>, bool)> {
        let game = self.endgame.space.game();
        let mut state = state.clone();
        let mut line = Vec::new();
        loop {
            match self.choice(&state)? {
                Some((_, Verdict::Draw)) => return Ok((line, true)),
                Some((mv, _)) => {
                    line.push(mv);
                    game.play(&mut state, mv);
                }
                None => return Ok((line, matches!(game.node(&state), Node::Terminal(_)))),
            }
        }
    }
}

impl<G: Game> Settle<G> for Known<G> {
    /// A win for the side to move is +1 for it, a loss −1, a draw 0; MAX's view. The endgame's tables only: a
    /// searching player keeps its own play before them.
    fn payoff(&self, state: &G::State) -> Option<Value> {
        let mover = self.endgame.space.to_move(state);
        self.outcome(state).map(|outcome| match outcome {
            Outcome::Win(_) => mover.view(1.0),
            Outcome::Loss(_) => mover.view(-1.0),
            Outcome::Draw => 0.0,
        })
    }
}
