//! What khela's tests and benchmarks share that is no part of the library: the standard Connect-4 benchmark
//! sets, which live outside the project ([`connect4`]). Only tests and benchmarks depend on this crate (as a
//! dev-dependency); the command line reads a set's file with its own reader, which checks every line against
//! the game.

pub mod connect4;
