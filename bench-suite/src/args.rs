//! The arguments several commands share, parsed one way: lists and ranges of integers (`--seeds 0..99`,
//! `--b 2,4,8`), shards of a job (`--shard K/N`), and the thread pool a `--threads` asks for ([`Threads`]).

use crate::machine;
use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::HumanCount;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

/// Lists and ranges longer than this are refused while parsing.
pub const MAX_LIST: u64 = 1_000_000;

/// The most threads a pool takes for each core of the machine: more only wait for each other, and each costs
/// a stack and a start before any work.
pub const THREADS_PER_CORE: usize = 8;

/// Refuses the first of `options` (its name, and whether it was given) that was given: options the command does
/// not use in `mode` (`--set`), which would otherwise be silently ignored.
pub fn unused_in(mode: &str, options: &[(&str, bool)]) -> Result<()> {
    match options.iter().find(|(_, given)| *given) {
        Some((name, _)) => bail!("{name} does not go with {mode}, which does not use it: leave it out"),
        None => Ok(()),
    }
}

/// A pool of `threads` threads for a command's parallel work; refused beyond [`THREADS_PER_CORE`] a core.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    bounded(threads)?;
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the thread pool")
}

/// Refuses `--threads` beyond [`THREADS_PER_CORE`] a core of this machine.
pub fn bounded(threads: usize) -> Result<()> {
    let cores = machine::cores();
    let most = THREADS_PER_CORE * cores;
    if threads > most {
        bail!(
            "--threads {threads}: this machine has {cores} cores; give at most {most} ({THREADS_PER_CORE} a core), as \
             more threads only wait for each other"
        );
    }
    Ok(())
}

/// Refuses a list of names given on the command line (`--orderings natural,natural`) that names one twice.
pub fn once<T: PartialEq + fmt::Display>(given: &[T], flag: &str) -> Result<()> {
    match given.iter().enumerate().find(|&(i, x)| given[..i].contains(x)) {
        Some((_, x)) => bail!("{flag} lists {x} twice"),
        None => Ok(()),
    }
}

/// `--threads N` of the commands whose work is spread over a pool of every core by default, and whose files do
/// not depend on how many (`mcts`, `solve` and `zero train` take threads of one search, one by default; `count`
/// a list of them, to time each).
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct Threads {
    /// Threads (rayon) [default: all cores]. What the command writes is the same for any number (the counts of
    /// work done, where it reports them, may vary).
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub asked: Option<u64>,
}

impl Threads {
    /// The threads asked for, or every core.
    pub fn count(self) -> usize {
        self.asked.map_or_else(machine::cores, |t| t as usize)
    }

    /// A pool of [`Threads::count`] threads.
    pub fn pool(self) -> Result<rayon::ThreadPool> {
        pool(self.count())
    }
}

/// A comma list of non-negative integers and inclusive ranges: `2,4,8`, `2..8`, `0..99`, `1,3..5`.
///
/// Values keep the order given; duplicates, empty items, inverted ranges and lists longer than [`MAX_LIST`] are
/// refused. [`fmt::Display`] writes the canonical form (runs of three or more consecutive values as ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T>(pub Vec<T>);

impl<T> FromStr for List<T>
where
    T: TryFrom<u64> + Into<u64> + Copy,
{
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() {
            return Err(
                "the list is empty, so the grid asks for 0 trees and 0 nodes: give values like 2,4,8 or an inclusive \
                 range like 2..8"
                    .into(),
            );
        }
        let mut values = Vec::new();
        let mut seen = HashSet::new();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                return Err(format!("the list {text:?} has an empty item"));
            }
            let (lo, hi) = match item.split_once("..") {
                Some((lo, hi)) => (number(lo)?, number(hi.strip_prefix('=').unwrap_or(hi))?),
                None => (number(item)?, number(item)?),
            };
            if lo > hi {
                return Err(format!(
                    "the range {item} is inverted, so it asks for 0 values (0 trees and 0 nodes): ranges are \
                     inclusive and ascending, like {hi}..{lo}"
                ));
            }
            let count = (hi - lo).saturating_add(1).saturating_add(values.len() as u64);
            if count > MAX_LIST {
                return Err(format!("{text:?} has more than {} values", HumanCount(MAX_LIST)));
            }
            for v in lo..=hi {
                let value = T::try_from(v).map_err(|_| format!("{v} is too large"))?;
                if !seen.insert(v) {
                    return Err(format!("{v} appears twice in {text:?}"));
                }
                values.push(value);
            }
        }
        Ok(List(values))
    }
}

fn number(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| format!("{:?} is not a non-negative integer", text.trim()))
}

impl<T: Into<u64> + Copy> fmt::Display for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<u64> = self.0.iter().map(|&v| v.into()).collect();
        let mut parts = Vec::new();
        let mut i = 0;
        while i < values.len() {
            let mut j = i;
            while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
                j += 1;
            }
            if j >= i + 2 {
                parts.push(format!("{}..{}", values[i], values[j]));
            } else {
                parts.extend(values[i..=j].iter().map(u64::to_string));
            }
            i = j + 1;
        }
        f.write_str(&parts.join(","))
    }
}

/// `--shard K/N`: the `K`-th of `N` shards, `K` in `0..N` like a Slurm array task id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..n`.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad =
            || format!("{text:?} is not a shard: write K/N, such as 0/4 (K = 0..N-1, like Slurm's array task ids)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if n == 0 {
            return Err(format!("shard {text}: N must be at least 1"));
        }
        if k >= n {
            return Err(format!(
                "shard {text}: K must be in 0..={} (shards count from 0, like Slurm's array task ids)",
                n - 1
            ));
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&[u64], &str>) {
        let parsed: Result<List<u64>, String> = text.parse();
        match (parsed, expected) {
            (Ok(list), Ok(values)) => assert_eq!(list.0, values, "{text}"),
            (Err(err), Err(part)) => assert!(err.contains(part), "{text}: {err:?} lacks {part:?}"),
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn lists_and_ranges() {
        check("4", Ok(&[4]));
        check("2,4,8", Ok(&[2, 4, 8]));
        check("2..5", Ok(&[2, 3, 4, 5]));
        check("2..=4", Ok(&[2, 3, 4]));
        check("0..0", Ok(&[0]));
        check("8,1..3", Ok(&[8, 1, 2, 3]));
        check(" 1, 2 ", Ok(&[1, 2]));
        check("", Err("the list is empty"));
        check("1,,2", Err("has an empty item"));
        check("8..2", Err("the range 8..2 is inverted"));
        check("x", Err("\"x\" is not a non-negative integer"));
        check("-1", Err("is not a non-negative integer"));
        check("1..x", Err("\"x\" is not"));
        check("1,2,1", Err("1 appears twice"));
        check("0..1000000", Err("more than 1,000,000 values"));
        check("0..18446744073709551615", Err("more than 1,000,000 values"));
        let narrow: Result<List<u32>, String> = "4294967296".parse();
        assert_eq!(narrow.unwrap_err(), "4294967296 is too large");
    }

    #[test]
    fn lists_print_canonically() {
        let canonical = |text: &str| text.parse::<List<u64>>().unwrap().to_string();
        assert_eq!(canonical("0..99"), "0..99");
        assert_eq!(canonical("0,1,2,3"), "0..3");
        assert_eq!(canonical("1,2,4"), "1,2,4");
        assert_eq!(canonical("9,1..3,5"), "9,1..3,5");
        assert_eq!(canonical("3,2,1"), "3,2,1");
    }

    #[test]
    fn shards() {
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard { k: 0, n: 1 }));
        assert_eq!("3/4".parse::<Shard>(), Ok(Shard { k: 3, n: 4 }));
        assert!("2/2".parse::<Shard>().unwrap_err().contains("K must be in 0..=1"));
        assert!("0/0".parse::<Shard>().unwrap_err().contains("N must be at least 1"));
        assert!("1".parse::<Shard>().unwrap_err().contains("write K/N"));
    }
}
