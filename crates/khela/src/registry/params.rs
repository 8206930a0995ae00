//! Game strings: a game's name with its parameters, one grammar for every front end (after OpenSpiel's
//! `connect_four(rows=6)`):
//!
//! ```text
//! spec  = name [ "(" [ param { "," param } ] ")" ]
//! param = key "=" value
//! ```
//!
//! `connect4(width=8,height=7)`, `bagh-chal(rules=bagh-bandi)`, `sixteen-soldiers(rules=optional,quiet-limit=40)`,
//! `pig(goal=50)`, `einstein(setup=123456/123456)`. A value runs to the next `,` or `)`; white space around names,
//! keys and values is dropped. The grammar only splits the string: each game takes and checks its own parameters
//! ([`Params::only`], [`Params::count`]), so that a parameter a game does not take is refused naming those it does.

use super::name::GameName;
use anyhow::{Result, anyhow, bail};
use std::fmt;
use std::str::FromStr;
use strum::VariantArray;

/// A game's parameters as given, in order, each key once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Sets `key` to `value`; a key given twice with two values is refused (the same value twice is one).
    ///
    /// # Errors
    ///
    /// When `key` already has another value: the message names both.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        match self.get(key) {
            Some(old) if old == value => Ok(()),
            Some(old) => bail!("the parameter {key} is given twice, as {old} and as {value}"),
            None => {
                self.0.push((key.to_string(), value.to_string()));
                Ok(())
            }
        }
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Whether no parameter is given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The parameters, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Refuses any parameter but those of `takes`: the game (`title`) does not take it.
    ///
    /// # Errors
    ///
    /// The first parameter not in `takes`, with the list of those the game takes.
    pub fn only(&self, title: &str, takes: &[&str]) -> Result<()> {
        if let Some((key, _)) = self.iter().find(|(key, _)| !takes.contains(key)) {
            let takes = if takes.is_empty() { "none".to_string() } else { takes.join(", ") };
            bail!("{title} takes no parameter {key} (its parameters: {takes})");
        }
        Ok(())
    }

    /// The value of `key` read as a whole number `T` (a size, a goal, a limit), if given.
    ///
    /// # Errors
    ///
    /// When the value is not a whole number (a negative one included), or past what a `T` holds: the message
    /// names the parameter and its value.
    pub fn count<T: TryFrom<u64>>(&self, key: &str) -> Result<Option<T>> {
        let Some(text) = self.get(key) else { return Ok(None) };
        let number = text.parse::<u64>().map_err(|_| match text.parse::<i128>() {
            Ok(_) => anyhow!("{key}={text}: expected a whole number, not a negative one"),
            Err(_) => anyhow!("{key}={text}: expected a whole number"),
        })?;
        T::try_from(number).map(Some).map_err(|_| anyhow!("{key}={text}: too large"))
    }
}

/// A game by name with its parameters: what [`crate::load`] and the registry's [`super::visit`] take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The game.
    pub name: GameName,
    /// Its parameters.
    pub params: Params,
}

impl Spec {
    /// `name` with no parameters: its standard form.
    pub fn of(name: GameName) -> Spec {
        Spec { name, params: Params::default() }
    }
}

impl FromStr for Spec {
    type Err = anyhow::Error;

    /// Reads a game string (see the module's grammar).
    fn from_str(text: &str) -> Result<Spec> {
        let (name, rest) = match text.split_once('(') {
            Some((name, rest)) => {
                let Some(inside) = rest.trim_end().strip_suffix(')') else {
                    bail!("game {text:?}: its parameters end with ')'");
                };
                (name, Some(inside))
            }
            None => (text, None),
        };
        let name = name.trim();
        let name = name.parse::<GameName>().map_err(|_| {
            let games: Vec<&str> = GameName::VARIANTS.iter().map(|&g| g.into()).collect();
            anyhow!("unknown game {name:?}; the games: {}", games.join(", "))
        })?;
        let mut params = Params::default();
        for param in rest.into_iter().flat_map(|inside| inside.split(',')).filter(|p| !p.trim().is_empty()) {
            let Some((key, value)) = param.split_once('=') else {
                bail!("game {text:?}: parameter {:?} is not key=value", param.trim());
            };
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() || value.contains(['(', ')']) {
                bail!("game {text:?}: parameter {:?} is not key=value", param.trim());
            }
            params.set(key, value).map_err(|e| anyhow!("game {text:?}: {e}"))?;
        }
        Ok(Spec { name, params })
    }
}

impl fmt::Display for Spec {
    /// The game string: the name alone without parameters, else `name(key=value,…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        if !self.params.is_empty() {
            let params: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, "({})", params.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, name: GameName, params: &[(&str, &str)], shown: &str) {
        let spec: Spec = text.parse().unwrap();
        assert_eq!(spec.name, name, "{text}");
        assert_eq!(spec.params.iter().collect::<Vec<_>>(), params, "{text}");
        assert_eq!(spec.to_string(), shown, "{text}");
        assert_eq!(shown.parse::<Spec>().unwrap(), spec, "{shown} reads back");
    }

    fn refused(text: &str, message: &str) {
        let err = text.parse::<Spec>().unwrap_err().to_string();
        assert!(err.contains(message), "{text}: {err}");
    }

    #[test]
    fn game_strings_read_and_write_back() {
        check("connect4", GameName::Connect4, &[], "connect4");
        check("connect4()", GameName::Connect4, &[], "connect4");
        check(
            "connect4(width=8,height=7)",
            GameName::Connect4,
            &[("width", "8"), ("height", "7")],
            "connect4(width=8,height=7)",
        );
        check(
            " connect4 ( width = 8 , height=7 ) ",
            GameName::Connect4,
            &[("width", "8"), ("height", "7")],
            "connect4(width=8,height=7)",
        );
        check(
            "bagh-chal(rules=bagh-bandi)",
            GameName::BaghChal,
            &[("rules", "bagh-bandi")],
            "bagh-chal(rules=bagh-bandi)",
        );
        check(
            "bagh-chal(size=3,tigers=a1+c3,stacks=b2:2)",
            GameName::BaghChal,
            &[("size", "3"), ("tigers", "a1+c3"), ("stacks", "b2:2")],
            "bagh-chal(size=3,tigers=a1+c3,stacks=b2:2)",
        );
        check(
            "sixteen-soldiers(rules=optional,quiet-limit=40)",
            GameName::SixteenSoldiers,
            &[("rules", "optional"), ("quiet-limit", "40")],
            "sixteen-soldiers(rules=optional,quiet-limit=40)",
        );
        check("pig(goal=50)", GameName::Pig, &[("goal", "50")], "pig(goal=50)");
        check(
            "einstein(setup=123456/123456)",
            GameName::Einstein,
            &[("setup", "123456/123456")],
            "einstein(setup=123456/123456)",
        );
        check("einstein(setup=random:3)", GameName::Einstein, &[("setup", "random:3")], "einstein(setup=random:3)");
        check("nim(goal=1,goal=1)", GameName::Nim, &[("goal", "1")], "nim(goal=1)");
    }

    #[test]
    fn bad_game_strings_are_refused_naming_what_is_wrong() {
        refused("chess", "unknown game \"chess\"; the games: tictactoe, nim, connect4");
        refused("chess(width=3)", "unknown game \"chess\"");
        refused("connect4(width=8", "its parameters end with ')'");
        refused("connect4(width)", "parameter \"width\" is not key=value");
        refused("connect4(=8)", "parameter \"=8\" is not key=value");
        refused("connect4(width=)", "parameter \"width=\" is not key=value");
        refused("connect4(width=(8))", "is not key=value");
        refused("connect4(width=8,width=9)", "the parameter width is given twice, as 8 and as 9");
    }

    #[test]
    fn games_check_their_own_parameters() {
        let spec: Spec = "connect4(width=8,depth=3)".parse().unwrap();
        let err = spec.params.only("Connect-4", &["width", "height"]).unwrap_err().to_string();
        assert_eq!(err, "Connect-4 takes no parameter depth (its parameters: width, height)");
        let err = Spec::of(GameName::Nim).params.only("Nim", &[]).map(|()| "accepted");
        assert_eq!(err.unwrap(), "accepted");
        let spec: Spec = "tictactoe(size=4)".parse().unwrap();
        let err = spec.params.only("Tic-tac-toe", &[]).unwrap_err().to_string();
        assert_eq!(err, "Tic-tac-toe takes no parameter size (its parameters: none)");
        let spec: Spec = "connect4(width=eight)".parse().unwrap();
        let err = spec.params.count::<u32>("width").unwrap_err().to_string();
        assert_eq!(err, "width=eight: expected a whole number");
        assert_eq!(spec.params.count::<u32>("height").unwrap(), None);
        for (width, why) in
            [("-1", "expected a whole number, not a negative one"), ("7.5", "expected"), ("256", "too large")]
        {
            let spec: Spec = format!("connect4(width={width})").parse().unwrap();
            let err = spec.params.count::<u8>("width").unwrap_err().to_string();
            assert!(err.starts_with(&format!("width={width}: {why}")), "{err}");
        }
        let spec: Spec = "connect4(width=255)".parse().unwrap();
        assert_eq!(spec.params.count::<u8>("width").unwrap(), Some(255));
    }
}
