//! Command-line values named by the libraries: one clap value parser for every enum whose names a library
//! gives (through strum), so the harness keeps no list of names of its own. `--help` shows each value with
//! the library's description of it.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::str::FromStr;
use strum::{EnumMessage, VariantArray};

/// What a library enum offers the command line: its values, their names and descriptions, and parsing.
pub trait Named: VariantArray + EnumMessage + Into<&'static str> + FromStr + Copy + Send + Sync + 'static {}

impl<T> Named for T where T: VariantArray + EnumMessage + Into<&'static str> + FromStr + Copy + Send + Sync + 'static {}

/// A parser that takes every value of `T` by its name.
pub fn named<T: Named>() -> impl TypedValueParser<Value = T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    among(T::VARIANTS)
}

/// A parser that takes the values `allowed`, by name; the others are refused with the list of these.
pub fn among<T: Named>(allowed: &'static [T]) -> impl TypedValueParser<Value = T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let values = allowed.iter().map(|&value| {
        let name: &'static str = value.into();
        PossibleValue::new(name).help(describe(value))
    });
    PossibleValuesParser::new(values).try_map(|name| name.parse::<T>())
}

/// A value's description for `--help`: the library's short message for it if it has one, else its doc
/// comment's first sentence, on one line, without a final full stop or rustdoc's link brackets.
pub fn describe<T: EnumMessage>(value: T) -> String {
    let text = value.get_message().or(value.get_documentation()).unwrap_or_default().replace('\n', " ");
    let sentence = text.split_once(". ").map_or(text.as_str(), |(first, _)| first);
    sentence.trim().trim_end_matches('.').replace("[`", "`").replace("`]", "`")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use khela_exact::Algorithm;

    #[derive(Debug, Parser)]
    struct Cli {
        #[arg(long, value_parser = among(&[Algorithm::Minimax, Algorithm::AlphaBeta]))]
        algorithm: Algorithm,
    }

    #[test]
    fn library_names_parse_and_others_are_refused_with_the_list() {
        let cli = Cli::try_parse_from(["x", "--algorithm", "alphabeta"]).unwrap();
        assert_eq!(cli.algorithm, Algorithm::AlphaBeta);
        let err = Cli::try_parse_from(["x", "--algorithm", "mtdf"]).unwrap_err().to_string();
        assert!(err.contains("invalid value 'mtdf'") && err.contains("[possible values: minimax, alphabeta]"), "{err}");
    }
}
