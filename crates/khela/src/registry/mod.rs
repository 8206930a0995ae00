//! The games by name, in one place: one [`Entry`] per game (its own file under `src/games/`), named in one list
//! ([`GameName`]), built from a game string ([`Spec`], [`params`]) and reached through one dispatcher
//! ([`visit`]). A front end asks an entry what it needs — the game and its notation (from `khela-games`), the
//! view its values are shown in, its evaluator, its published counts, its exact solver, its network — and never
//! matches on a game's name; a game a front end cannot serve is refused with the list of those it can
//! ([`refuse`]).
//!
//! The checklist for adding a game is on the crate's front page.

mod endgame;
mod entry;
mod name;
pub mod params;

pub use endgame::{Endgame, Part, PliesTo, Scope, Summary, WritePosition, census_row};
pub use entry::{
    ActionOf, Entry, Exact, Family, FullTree, KeyFn, MoveValues, Observe, Observer, Own, Published, Scale, Theory,
    View, VisitNet, numbered,
};
pub use name::GameName;
pub use params::{Params, Spec};

use crate::games;
use anyhow::{Result, bail};
use khela_games::{Game, Notation, Player, Value};
use khela_zero::Encode;
use std::fmt;
use strum::VariantArray;

/// Something a front end does with a game, whichever it is: [`visit`] calls it with the game's entry.
pub trait Visit {
    /// What it gives back.
    type Output;

    /// Does it with `entry`.
    fn visit<E: Entry>(self, entry: E) -> Self::Output;
}

/// Builds the entry of the game `spec` names, with its parameters, and hands it to `visitor`: the one place
/// where a game's name becomes its entry.
///
/// # Errors
///
/// When the game refuses the parameters.
pub fn visit<V: Visit>(spec: &Spec, visitor: V) -> Result<V::Output> {
    Ok(match spec.name {
        GameName::Tictactoe => visitor.visit(games::tictactoe::TicTacToeEntry::new(spec)?),
        GameName::Nim => visitor.visit(games::nim::NimEntry::new(spec)?),
        GameName::Connect4 => visitor.visit(games::connect4::Connect4Entry::new(spec)?),
        GameName::BaghChal => visitor.visit(games::bagh_chal::BaghChalEntry::new(spec)?),
        GameName::SixteenSoldiers => match spec.params.get("moves") {
            Some("jumps") => visitor.visit(games::sixteen_soldiers_jumps::JumpsEntry::new(spec)?),
            _ => visitor.visit(games::sixteen_soldiers::SixteenSoldiersEntry::new(spec)?),
        },
        GameName::Pig | GameName::Piglet => visitor.visit(games::pig::PigEntry::new(spec)?),
        GameName::Einstein => visitor.visit(games::einstein::EinsteinEntry::new(spec)?),
        GameName::DotsAndBoxes => visitor.visit(games::dots_and_boxes::DotsAndBoxesEntry::new(spec)?),
    })
}

/// A command over the games a network plays, whatever the game gives back the same type: a [`VisitNet`] whose
/// output does not depend on the game, which [`visit_net`] runs.
pub trait NetCommand {
    /// What it gives back.
    type Output;

    /// Does it with `entry`, whose game's positions are encoded for a network.
    fn visit<E: Entry>(self, entry: &E) -> Self::Output
    where
        E::Game: Encode;
}

impl<C: NetCommand> VisitNet for C {
    type Output<'e, G: Game + 'e> = C::Output;

    fn visit<E: Entry>(self, entry: &E) -> C::Output
    where
        E::Game: Encode,
    {
        NetCommand::visit(self, entry)
    }
}

/// Runs `command` on the game of `spec`, one a network plays ([`Entry::with_net`]); `name` names the refusal of
/// another.
///
/// # Errors
///
/// When the game refuses the parameters or no network plays it.
pub fn visit_net<C: NetCommand>(spec: &Spec, name: &str, command: C) -> Result<C::Output> {
    struct Net<'c, C>(&'c str, C);
    impl<C: NetCommand> Visit for Net<'_, C> {
        type Output = Result<C::Output>;
        fn visit<E: Entry>(self, entry: E) -> Result<C::Output> {
            let title = entry.title();
            entry.with_net(self.1).ok_or_else(|| no_network(self.0, &title))
        }
    }
    visit(spec, Net(name, command))?
}

/// The error of a command that needs a network's encoding of `game`, which it has not.
pub fn no_network(command: &str, game: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{command} needs a network's encoding of the game, which {game} does not have; the games that have it: {}",
        with(Capability::Network).join(", ")
    )
}

/// What a command may need of a game beyond the game itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// An evaluator (`eval`, `solve --depth`, `mcts --prior evaluator`).
    Evaluator,
    /// Exact solving (`solve` without `--depth`).
    Exact,
    /// A full-tree tally (`count` without `--depth`).
    Tally,
    /// Counting per ply (`count --depth`).
    PerPly,
    /// A closed-form theory to check the search against (`solve --check-xor`).
    Theory,
    /// An endgame for retrograde analysis (`retro`).
    Retro,
    /// A placement phase for layered backward induction (`retro --phase placement`).
    Placement,
    /// A network's encoding of the game's positions (`zero`, `net:PATH` players).
    Network,
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Capability::Evaluator => "an evaluator",
            Capability::Exact => "an exact solver",
            Capability::Tally => "a full tree small enough to tally",
            Capability::PerPly => "counts per ply",
            Capability::Theory => "a closed-form theory to check the search against",
            Capability::Retro => "an endgame for retrograde analysis (Tic-tac-toe whole, Bagh-Chal without stacks, Sixteen Soldiers without the quiet limit)",
            Capability::Placement => "a placement phase for layered backward induction (Bagh-Chal without stacks)",
            Capability::Network => "a network's encoding of its positions",
        })
    }
}

/// Whether the entry has `capability`.
struct Has(Capability);

impl Visit for Has {
    type Output = bool;

    fn visit<E: Entry>(self, entry: E) -> bool {
        let start = entry.start().and_then(|text| entry.game().parse_position(&text).ok());
        match self.0 {
            Capability::Evaluator => entry.scale().is_some(),
            Capability::Exact => !matches!(entry.exact(), Exact::Refused(_)),
            Capability::Tally => entry.full_tree().is_some(),
            Capability::PerPly => start.is_some_and(|state| entry.per_ply(&state).is_some()),
            Capability::Theory => entry.theory().is_some(),
            Capability::Retro => entry.endgame(&Scope::default()).is_some_and(|endgame| endgame.is_ok()),
            Capability::Placement => entry.placement().is_some_and(|placement| placement.is_ok()),
            Capability::Network => entry.with_net(Probe).is_some(),
        }
    }
}

/// Asks nothing of a game a network plays: whether it is one.
struct Probe;

impl VisitNet for Probe {
    type Output<'e, G: Game + 'e> = ();

    fn visit<E: Entry>(self, _: &E) {}
}

/// The names of the games, in [`GameName`]'s order, that have `capability` (with their default options).
pub fn with(capability: Capability) -> Vec<&'static str> {
    GameName::VARIANTS
        .iter()
        .filter(|&&game| visit(&Spec::of(game), Has(capability)).unwrap_or(false))
        .map(|&game| game.into())
        .collect()
}

/// The error of a command that cannot serve `game`, which lacks `capability`: it names the games that have it.
pub fn refuse(command: &str, game: impl fmt::Display, capability: Capability) -> anyhow::Error {
    let games = with(capability).join(", ");
    anyhow::anyhow!("{command} needs {capability}, which {game} does not have; the games that have it: {games}")
}

/// The position `text` of the entry's game, or its start when `text` is `None`; a game without a start needs
/// the position. `verb` is what the caller would do with a finished game, for the message refusing it (`None`:
/// finished games are accepted). The position written, and its state.
///
/// # Errors
///
/// No position where the game has no start, a position beside the parameter that fixes the start, a position
/// the notation refuses, or a finished game where `verb` is given.
pub fn position<E: Entry>(
    entry: &E,
    text: Option<&str>,
    verb: Option<&str>,
) -> Result<(String, <E::Game as Game>::State)> {
    let game = entry.game();
    if let (Some(_), Some(param)) = (text, entry.start_fixed_by()) {
        bail!("give either {param} or {}, not both (a position places every piece already)", entry.position_flag());
    }
    let start = entry.start();
    let Some(text) = text.or(start.as_deref()) else {
        bail!("{} needs {} ({})", entry.title(), entry.position_flag(), entry.notation());
    };
    let state = game.parse_position(text)?;
    entry.admit(text, &state)?;
    if let (Some(verb), khela_games::Node::Terminal(payoff)) = (verb, game.node(&state)) {
        bail!("{} position {text:?} is already over ({}); nothing to {verb}", entry.title(), outcome(game, payoff));
    }
    Ok((text.to_string(), state))
}

/// A finished game's result, by the notation's player names: `X has won`, `a draw`.
pub fn outcome<G: Notation>(game: &G, payoff: Value) -> String {
    if payoff > 0.0 {
        format!("{} has won", game.player_name(Player::Max))
    } else if payoff < 0.0 {
        format!("{} has won", game.player_name(Player::Min))
    } else {
        "a draw".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::{Actions, Evaluator, Node};
    use strum::EnumMessage;

    /// What each capability an entry declares promises, checked on its game's start (a decision node reached by
    /// chance outcomes where the start is one).
    struct Promises(Spec);

    impl Visit for Promises {
        type Output = ();

        fn visit<E: Entry>(self, entry: E) {
            let name = &self.0;
            let game = entry.game();
            let text = entry.start().unwrap_or("3,4,5".into());
            let mut state = game.parse_position(&text).unwrap();
            while let Node::Chance = game.node(&state) {
                let mut outcomes = Vec::new();
                game.outcomes(&state, &mut outcomes);
                state = game.child(&state, outcomes[0].0);
            }
            let mut moves = Vec::new();
            game.moves(&state, &mut moves);
            assert!(!moves.is_empty(), "{name}: its start has moves");
            assert!(moves.len() as u32 <= entry.max_moves(), "{name}: max_moves bounds the moves");
            if let Some(scale) = entry.scale() {
                let estimate = scale.evaluator.evaluate(game, &state);
                assert!(estimate.abs() <= scale.evaluator.bound(), "{name}: the estimate within its bound");
                assert!(scale.prior_unit > 0.0 && !scale.about.is_empty(), "{name}");
            }
            if entry.with_net(Probe).is_some() {
                entry.with_net(Encodes).unwrap();
            }
            if let Ok(observer) = entry.observer() {
                let planes = (observer.encode)(&state);
                assert_eq!(planes.len(), observer.shape.iter().product::<usize>(), "{name}: the planes' shape");
                assert!(planes.iter().all(|&x| (0.0..=observer.largest).contains(&x)), "{name}: within the largest");
            }
            if let Ok((count, action)) = entry.actions() {
                assert!(moves.iter().all(|&mv| action(&entry, mv) < count), "{name}: every move has an action");
            }
            if let Some(endgame) = entry.endgame(&Scope::default()) {
                assert!(!endgame.unwrap().parts.is_empty(), "{name}: an endgame has parts");
            }
            match entry.exact() {
                Exact::Own(Own::Connect4(_)) => {
                    // The solver's table for a whole board is large; a small board's entry is checked instead.
                    let small = games::connect4::Connect4Entry::new(&"connect4(width=4,height=4)".parse().unwrap());
                    let small = small.unwrap();
                    let start = small.game().parse_position("1234").unwrap();
                    assert_eq!(small.own_values(&start).unwrap().unwrap().len(), 4, "{name}: the solver values moves");
                }
                Exact::Own(Own::Nim) => {
                    let values = entry.own_values(&state).unwrap().unwrap();
                    assert_eq!(values.len(), moves.len(), "{name}: its solver values every move");
                }
                Exact::Own(Own::Pig(pig)) => {
                    assert!(entry.own_values(&state).is_none(), "{name}: value iteration values no moves");
                    assert_eq!(
                        entry.title(),
                        format!("{} to {}", if pig.is_piglet() { "Piglet" } else { "Pig" }, pig.goal())
                    );
                }
                Exact::MoveValues | Exact::Memoized(_) => {
                    assert!(game.cycles().is_none(), "{name}: searched exactly, so acyclic")
                }
                Exact::Refused(why) => assert!(!why.is_empty()),
            }
            if let Some(Some(published)) = entry.per_ply(&state) {
                assert_eq!(published.sequences[1], moves.len() as u64, "{name}: the published first ply");
                assert!(published.positions[1] <= published.sequences[1], "{name}");
            }
            if entry.theory().is_some() {
                assert!(matches!(entry.exact(), Exact::Own(_)), "{name}: a theory is checked against its solver");
            }
            let dynamic = crate::Game::new(name).unwrap();
            assert_eq!(dynamic.title(), entry.title());
            assert!(!name.name.get_documentation().unwrap_or_default().is_empty(), "{name}: its notation for --help");
        }
    }

    /// A network's encoding of a game's start and its moves, checked.
    struct Encodes;

    impl NetCommand for Encodes {
        type Output = ();

        fn visit<E: Entry>(self, entry: &E)
        where
            E::Game: Encode,
        {
            let game = entry.game();
            let state = game.parse_position(game.start().expect("a network's game has a start")).unwrap();
            let shape = game.shape();
            let mut planes = vec![0.0; shape.planes * shape.height * shape.width];
            game.encode(&state, &mut planes);
            let mut moves = Vec::new();
            game.moves(&state, &mut moves);
            assert!(moves.iter().all(|&mv| game.action(mv) < game.actions()), "every move has an action");
        }
    }

    #[test]
    fn every_game_keeps_the_promises_of_its_capabilities() {
        for &name in GameName::VARIANTS {
            visit(&Spec::of(name), Promises(Spec::of(name))).unwrap();
        }
        for text in ["nim(heaps=1+3+5+7)", "sixteen-soldiers(moves=jumps,rules=optional)"] {
            let spec: Spec = text.parse().unwrap();
            visit(&spec, Promises(spec.clone())).unwrap();
        }
    }

    #[test]
    fn capabilities_name_their_games() {
        assert_eq!(with(Capability::Evaluator), ["tictactoe", "connect4", "bagh-chal", "sixteen-soldiers", "einstein"]);
        assert_eq!(
            with(Capability::Exact),
            ["tictactoe", "nim", "connect4", "pig", "piglet", "einstein", "dots-and-boxes"]
        );
        assert_eq!(with(Capability::Retro), ["tictactoe", "bagh-chal", "sixteen-soldiers"]);
        assert_eq!(with(Capability::Tally), ["tictactoe"]);
        assert_eq!(
            with(Capability::PerPly),
            ["tictactoe", "connect4", "bagh-chal", "sixteen-soldiers", "einstein", "dots-and-boxes"]
        );
        assert_eq!(with(Capability::Theory), ["nim"]);
        assert_eq!(with(Capability::Network), ["tictactoe", "connect4", "bagh-chal"]);
        let err = refuse("eval", GameName::Nim, Capability::Evaluator).to_string();
        assert_eq!(
            err,
            "eval needs an evaluator, which nim does not have; the games that have it: tictactoe, connect4, bagh-chal, \
             sixteen-soldiers, einstein"
        );
    }
}
