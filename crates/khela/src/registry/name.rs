//! The games' names: the one list of the games khela knows.

use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};

/// The games, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum GameName {
    /// Tic-tac-toe: a position is 9 characters of '.', 'X', 'O', row by row; moves are cells 0–8.
    Tictactoe,
    /// Nim: a position is the heap sizes, like 3,4,5 (--heaps); a move H:T takes heap H down to T objects;
    /// nim(heaps=3+4+5) starts from those heaps.
    Nim,
    /// Connect-4 (7 × 6, or width=W,height=H): a position is the columns played, 1-based, like 4453.
    Connect4,
    /// Bagh-Chal, tigers and goats (rules=bagh-chal; bagh-bandi, two tigers and four stacks of five goats; or
    /// keys like size=3,tigers=a1,goats=4,stacks=c3:2,first=goats,captures=2): a position is the ranks from the
    /// top, T, G, a stack's height or '.', then g or t to move and the goats in hand, like
    /// T...T/...../...../...../T...T g 20.
    #[strum(serialize = "bagh-chal")]
    BaghChal,
    /// Sixteen Soldiers, Sholo Guti (rules=compulsory, optional or continue; quiet-limit=N; moves=jumps plays a
    /// chain a jump at a time): a position is the 9 ranks from the top, X, O or '.', then x or o to move, like
    /// OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x.
    #[strum(serialize = "sixteen-soldiers")]
    SixteenSoldiers,
    /// Pig, the dice game (goal=N, 100 by default): a position is the first player's score, the second's, the
    /// turn total, first or second to move, then rolled while the die is in the air, like 0 0 0 first.
    Pig,
    /// Piglet, Pig with a coin (goal=N, 10 by default): positions as Pig's.
    Piglet,
    /// EinStein würfelt nicht!, the dice game (setup=FIRST/SECOND, six digits each, or random:N; by default the
    /// setup drawn from seed 0): a position is the rows from the top, '.', the first player's cubes 1-6 and the
    /// second's a-f, then first or second to move and the die's face once rolled, like
    /// 124../35.../6...d/...eb/..fca first 3.
    Einstein,
    /// Dots and Boxes (2 × 2 boxes, or rows=R,cols=C up to 4 each): a position is the edges drawn from the empty
    /// board, numbered from 1 in reading order, like 1,6,12.
    #[strum(serialize = "dots-and-boxes")]
    DotsAndBoxes,
}
