//! The end-to-end tests of `bench-suite`, one module per command or theme, in one test binary: each binary links
//! the whole workspace, and one link instead of thirteen saves minutes of every test build. (`scripts.rs`, with
//! its own harness, is a binary of its own.)

mod common;

mod cli;
mod cluster;
mod connect4_solve;
mod docs;
mod dots_and_boxes;
mod einstein;
mod hostile;
mod mcts;
mod output;
mod performance_page;
mod pig;
mod placement;
mod play;
mod regional;
mod retro;
mod serve;
mod soldiers_tables;
mod sweep;
mod whole_game;
mod zero;
