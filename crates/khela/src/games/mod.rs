//! The games' entries, a file each: what khela knows of each game beyond its rules.

pub mod bagh_chal;
pub mod connect4;
pub mod dots_and_boxes;
pub mod einstein;
pub mod nim;
pub mod pig;
pub mod sixteen_soldiers;
pub mod sixteen_soldiers_jumps;
pub mod tictactoe;
