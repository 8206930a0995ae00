//! Explicit game trees in the textbook's nested-list notation.
//!
//! ```text
//! tree    := leaf | '[' tree (',' tree)* ']' | '{' outcome (',' outcome)* '}'
//! outcome := probability ':' tree          probability: a decimal (0.25) or a fraction (1/3)
//! leaf    := integer                       payoff from MAX's view, e.g. -7
//! ```
//!
//! A square-bracket list is a decision node; a brace list is a chance node whose probabilities must sum to 1.
//! Decision nodes alternate between the players, starting with the side chosen for the root; chance nodes do
//! not take a turn (a decision node below a chance node belongs to the opponent of the nearest decision node
//! above it, or to the root's side if there is none). So `[3,{0.5:8,0.5:-1}]` is MAX choosing between a sure 3
//! and a fair coin between 8 and −1.
//!
//! Moves are child indices, 0-based, in the order written (the natural order). Nodes are named by path: the
//! root's children `A`, `B`, `C`, …, their children `A.1`, `A.2`, … (1-based), and so on.

use crate::conformance::PROBABILITY_TOLERANCE;
use crate::{Game, MAX_EXACT_PAYOFF, Node, Player, Value};
use std::fmt;
use thiserror::Error;

/// The index of a node in a [`Tree`]; the root is 0.
pub type NodeId = u32;

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Leaf(i64),
    Decision(Player),
    Chance,
}

#[derive(Clone, Debug)]
struct TreeNode {
    kind: Kind,
    /// Range of this node's children in `Tree::children` (and probabilities in `Tree::probs`).
    start: u32,
    len: u32,
    parent: Option<NodeId>,
    /// This node's index among its parent's children.
    index: u32,
}

/// An explicit tree, parsed from the nested-list notation (see the module documentation).
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<TreeNode>,
    children: Vec<NodeId>,
    probs: Vec<f64>,
}

/// Why a tree was refused. Its message quotes the text whole when it is short, and otherwise the
/// [`EXCERPT`] characters on either side of the problem.
#[derive(Debug, Error, PartialEq)]
#[error("tree {}: {message} at character {at}", excerpt(text, *at))]
pub struct ParseError {
    /// The whole text given.
    pub text: String,
    /// What was wrong.
    pub message: String,
    /// The 0-based character offset of the problem.
    pub at: usize,
}

impl Tree {
    /// Parses the notation with `root` as the side to move at the first decision node.
    ///
    /// ```
    /// use khela_games::{Player, tree::Tree};
    /// let tree = Tree::parse("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max).unwrap();
    /// assert_eq!(tree.leaves_under(0), [5, 8, 6, 3, 9, 7, 10, 4, 2]);
    /// assert!(Tree::parse("{0.5:1,0.4:2}", Player::Max).is_err()); // Probabilities sum to 0.9.
    /// ```
    pub fn parse(text: &str, root: Player) -> Result<Tree, ParseError> {
        let mut parser = Parser { text, chars: text.char_indices().collect(), pos: 0 };
        // Parse into a nested form first, then lay the nodes out breadth-first so that siblings are contiguous.
        let parsed = parser.tree()?;
        parser.skip_space();
        if parser.pos < parser.chars.len() {
            return Err(parser.error("unexpected text after the tree"));
        }
        Ok(Tree::lay_out(parsed, root, 0))
    }

    /// The tree of a nested form built by a program (the Python package walks its nested lists into one), with
    /// `root` as the side to move at the first decision node: the tree [`Tree::parse`] gives for the same
    /// nesting written out.
    ///
    /// ```
    /// use khela_games::{Player, tree::{Nested, Tree}};
    /// let nested = Nested::Decision(vec![Nested::Leaf(3), Nested::Chance(vec![(0.5, Nested::Leaf(8)), (0.5, Nested::Leaf(-1))])]);
    /// assert_eq!(Tree::from_nested(nested, Player::Max).unwrap().to_string(), "[3,{0.5:8,0.5:-1}]");
    /// assert!(Tree::from_nested(Nested::Decision(vec![]), Player::Max).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A node without children, a leaf beyond ±2^53, probabilities outside (0, 1] or not summing to 1 — the
    /// trees the notation refuses.
    pub fn from_nested(nested: Nested, root: Player) -> Result<Tree, NestedError> {
        let nodes = nested.check()?;
        Ok(Tree::lay_out(nested, root, nodes))
    }

    /// Lays a checked nested form of `nodes` nodes (0: unknown) out breadth-first, so that siblings are
    /// contiguous.
    fn lay_out(parsed: Nested, root: Player, nodes: usize) -> Tree {
        let mut tree = Tree {
            nodes: Vec::with_capacity(nodes),
            children: Vec::with_capacity(nodes),
            probs: Vec::with_capacity(nodes),
        };
        tree.nodes.push(TreeNode { kind: Kind::Chance, start: 0, len: 0, parent: None, index: 0 });
        let mut queue = std::collections::VecDeque::from([(0 as NodeId, parsed, root)]);
        while let Some((id, item, next_player)) = queue.pop_front() {
            let start = tree.children.len() as u32;
            let mut add = |index: usize, p: f64, kid: Nested, below: Player| {
                let child = tree.nodes.len() as NodeId;
                tree.nodes.push(TreeNode {
                    kind: Kind::Chance,
                    start: 0,
                    len: 0,
                    parent: Some(id),
                    index: index as u32,
                });
                tree.children.push(child);
                tree.probs.push(p);
                queue.push_back((child, kid, below));
            };
            // Each kind's children straight from its list: no list of (probability, child) pairs to build.
            let kind = match item {
                Nested::Leaf(v) => Kind::Leaf(v),
                Nested::Decision(kids) => {
                    kids.into_iter().enumerate().for_each(|(i, kid)| add(i, 1.0, kid, next_player.opponent()));
                    Kind::Decision(next_player)
                }
                Nested::Chance(kids) => {
                    kids.into_iter().enumerate().for_each(|(i, (p, kid))| add(i, p, kid, next_player));
                    Kind::Chance
                }
            };
            let node = &mut tree.nodes[id as usize];
            node.kind = kind;
            node.start = start;
            node.len = tree.children.len() as u32 - start;
        }
        tree
    }

    /// The number of nodes, leaves included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The child of `node` reached by move `mv`.
    pub fn child_of(&self, node: NodeId, mv: u32) -> NodeId {
        let n = &self.nodes[node as usize];
        debug_assert!(mv < n.len);
        self.children[(n.start + mv) as usize]
    }

    /// The path name of `node`: `root`, then `A`, `B`, … for the root's children, `A.1`, `A.2`, … below.
    pub fn name(&self, node: NodeId) -> String {
        let n = &self.nodes[node as usize];
        match n.parent {
            None => "root".to_string(),
            Some(0) => letter_name(n.index),
            Some(parent) => format!("{}.{}", self.name(parent), n.index + 1),
        }
    }

    /// The leaf values below `node` (itself, if a leaf), left to right.
    pub fn leaves_under(&self, node: NodeId) -> Vec<i64> {
        let mut out = Vec::new();
        self.collect_leaves(node, &mut out);
        out
    }

    fn collect_leaves(&self, node: NodeId, out: &mut Vec<i64>) {
        let n = &self.nodes[node as usize];
        if let Kind::Leaf(v) = n.kind {
            out.push(v);
        }
        for &child in &self.children[n.start as usize..(n.start + n.len) as usize] {
            self.collect_leaves(child, out);
        }
    }

    fn write_node(&self, node: NodeId, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = &self.nodes[node as usize];
        let range = n.start as usize..(n.start + n.len) as usize;
        let (open, close) = match n.kind {
            Kind::Leaf(v) => return write!(f, "{v}"),
            Kind::Decision(_) => ('[', ']'),
            Kind::Chance => ('{', '}'),
        };
        write!(f, "{open}")?;
        for (i, (&child, &p)) in self.children[range.clone()].iter().zip(&self.probs[range]).enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            if n.kind == Kind::Chance {
                write!(f, "{p}:")?;
            }
            self.write_node(child, f)?;
        }
        write!(f, "{close}")
    }
}

/// `A`…`Z`, then `AA`, `AB`, … (spreadsheet column names).
fn letter_name(index: u32) -> String {
    let mut n = index + 1;
    let mut name = Vec::new();
    while n > 0 {
        n -= 1;
        name.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    name.reverse();
    String::from_utf8(name).expect("ASCII letters")
}

impl fmt::Display for Tree {
    /// Writes the tree back in the notation (probabilities as decimals).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_node(0, f)
    }
}

impl Game for Tree {
    type State = NodeId;
    type Move = u32;

    #[inline]
    fn node(&self, &node: &NodeId) -> Node {
        match self.nodes[node as usize].kind {
            Kind::Leaf(v) => Node::Terminal(v as Value),
            Kind::Decision(player) => Node::Decision(player),
            Kind::Chance => Node::Chance,
        }
    }

    #[inline]
    fn moves(&self, &node: &NodeId, buf: &mut Vec<u32>) {
        buf.clear();
        if let Kind::Decision(_) = self.nodes[node as usize].kind {
            buf.extend(0..self.nodes[node as usize].len);
        }
    }

    fn outcomes(&self, &node: &NodeId, buf: &mut Vec<(u32, f64)>) {
        buf.clear();
        let n = &self.nodes[node as usize];
        if n.kind == Kind::Chance {
            buf.extend((0..n.len).map(|i| (i, self.probs[(n.start + i) as usize])));
        }
    }

    #[inline]
    fn play(&self, node: &mut NodeId, mv: u32) {
        *node = self.child_of(*node, mv);
    }

    /// The node index: unique.
    #[inline]
    fn key(&self, &node: &NodeId) -> u64 {
        u64::from(node)
    }
}

/// A tree as nested nodes, before it is laid out: what [`Tree::parse`] reads and [`Tree::from_nested`] takes.
#[derive(Clone, Debug, PartialEq)]
pub enum Nested {
    /// A leaf: its payoff from MAX's view.
    Leaf(i64),
    /// A decision node and its children, in natural order.
    Decision(Vec<Nested>),
    /// A chance node: each outcome's probability and subtree.
    Chance(Vec<(f64, Nested)>),
}

/// Why a nested form is not a tree.
#[derive(Debug, Error, PartialEq)]
pub enum NestedError {
    /// A decision or chance node without children.
    #[error("a node without children: a decision node needs moves, a chance node outcomes")]
    Childless,
    /// A leaf whose payoff a value cannot hold exactly.
    #[error("leaf {0} is beyond ±2^53, the largest integers a value holds exactly")]
    Leaf(i64),
    /// A probability outside (0, 1].
    #[error("probability {0} is not in (0, 1]")]
    Probability(f64),
    /// A chance node's probabilities that do not sum to 1.
    #[error("chance probabilities sum to {0}, not 1")]
    Sum(f64),
}

impl Nested {
    /// Checks every node (iteratively: a deep nesting does not grow the stack); the number of nodes.
    fn check(&self) -> Result<usize, NestedError> {
        let (mut stack, mut nodes) = (vec![self], 0);
        while let Some(node) = stack.pop() {
            nodes += 1;
            match node {
                Nested::Leaf(v) if v.abs() > MAX_EXACT_PAYOFF => return Err(NestedError::Leaf(*v)),
                Nested::Leaf(_) => {}
                Nested::Decision(kids) if kids.is_empty() => return Err(NestedError::Childless),
                Nested::Decision(kids) => stack.extend(kids),
                Nested::Chance(kids) if kids.is_empty() => return Err(NestedError::Childless),
                Nested::Chance(kids) => {
                    if let Some(&(p, _)) = kids.iter().find(|&&(p, _)| !(p > 0.0 && p <= 1.0)) {
                        return Err(NestedError::Probability(p));
                    }
                    let total: f64 = kids.iter().map(|&(p, _)| p).sum();
                    if (total - 1.0).abs() > PROBABILITY_TOLERANCE {
                        return Err(NestedError::Sum(total));
                    }
                    stack.extend(kids.iter().map(|(_, kid)| kid));
                }
            }
        }
        Ok(nodes)
    }
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
}

/// The characters a parse error quotes on either side of the problem, when the text is longer than twice this.
pub const EXCERPT: usize = 30;

/// `text` quoted, or for a long text the [`EXCERPT`] characters either side of character `at`, with `…` where
/// the quote is cut.
fn excerpt(text: &str, at: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 2 * EXCERPT {
        return format!("{text:?}");
    }
    let (from, to) = (at.saturating_sub(EXCERPT), (at + EXCERPT).min(chars.len()));
    let quoted: String = chars[from..to].iter().collect();
    let before = if from > 0 { "…" } else { "" };
    let after = if to < chars.len() { "…" } else { "" };
    format!("{before}{quoted:?}{after} ({} characters)", chars.len())
}

/// Nesting deeper than this is refused (the parser is recursive).
const MAX_NESTING: usize = 1_000;

impl Parser<'_> {
    /// An error at the current character, naming it.
    fn error(&self, message: impl Into<String>) -> ParseError {
        let found = match self.chars.get(self.pos) {
            Some(&(_, c)) => format!("{c:?}"),
            None => "the end of the text".to_string(),
        };
        self.error_here(format!("{} (found {found})", message.into()))
    }

    /// An error at the current character, whose message says all.
    fn error_here(&self, message: String) -> ParseError {
        ParseError { text: self.text.to_string(), message, at: self.pos }
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.pos).is_some_and(|&(_, c)| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.chars.get(self.pos).map(|&(_, c)| c)
    }

    fn expect(&mut self, wanted: char) -> Result<(), ParseError> {
        if self.peek() == Some(wanted) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(format!("expected {wanted:?}")))
        }
    }

    /// Reads a run of characters allowed in numbers.
    fn token(&mut self) -> &str {
        self.skip_space();
        let start = self.pos;
        while self
            .chars
            .get(self.pos)
            .is_some_and(|&(_, c)| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | '/' | 'e' | 'E'))
        {
            self.pos += 1;
        }
        let from = self.chars.get(start).map_or(self.text.len(), |&(i, _)| i);
        let to = self.chars.get(self.pos).map_or(self.text.len(), |&(i, _)| i);
        &self.text[from..to]
    }

    fn tree(&mut self) -> Result<Nested, ParseError> {
        self.nested(0)
    }

    fn nested(&mut self, depth: usize) -> Result<Nested, ParseError> {
        if depth > MAX_NESTING {
            return Err(self.error(format!("nesting deeper than {MAX_NESTING}")));
        }
        match self.peek() {
            Some('[') => {
                self.pos += 1;
                let mut kids = Vec::new();
                loop {
                    kids.push(self.nested(depth + 1)?);
                    match self.peek() {
                        Some(',') => self.pos += 1,
                        Some(']') => break,
                        _ => return Err(self.error("expected ',' or ']'")),
                    }
                }
                self.pos += 1;
                Ok(Nested::Decision(kids))
            }
            Some('{') => {
                self.pos += 1;
                let open = self.pos - 1;
                let mut kids = Vec::new();
                loop {
                    let at = self.pos;
                    let p = parse_probability(self.token()).ok_or_else(|| {
                        self.pos = at;
                        self.error("expected a probability in (0, 1], such as 0.5 or 1/3")
                    })?;
                    self.expect(':')?;
                    kids.push((p, self.nested(depth + 1)?));
                    match self.peek() {
                        Some(',') => self.pos += 1,
                        Some('}') => break,
                        _ => return Err(self.error("expected ',' or '}'")),
                    }
                }
                let total: f64 = kids.iter().map(|&(p, _)| p).sum();
                if (total - 1.0).abs() > PROBABILITY_TOLERANCE {
                    self.pos = open;
                    return Err(self.error(format!("chance probabilities sum to {total}, not 1")));
                }
                self.pos += 1;
                Ok(Nested::Chance(kids))
            }
            Some(_) => {
                let at = self.pos;
                let token = self.token().to_string();
                let leaf = token.parse::<i64>().map_err(|_| {
                    self.pos = at;
                    let digits = token.trim_start_matches(['-', '+']);
                    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        self.error_here("the leaf is beyond ±2^53, the largest integers a value holds exactly".into())
                    } else if token.parse::<f64>().is_ok() || parse_probability(&token).is_some() {
                        self.error_here(format!(
                            "leaf {token} is not an integer: leaves are integer payoffs, such as 3 or -2"
                        ))
                    } else {
                        self.error("expected an integer leaf, '[' or '{'")
                    }
                })?;
                if leaf.abs() > MAX_EXACT_PAYOFF {
                    self.pos = at;
                    return Err(self.error_here(format!(
                        "leaf {leaf} is beyond ±2^53, the largest integers a value holds exactly"
                    )));
                }
                Ok(Nested::Leaf(leaf))
            }
            None => Err(self.error("expected a tree")),
        }
    }
}

fn parse_probability(token: &str) -> Option<f64> {
    let p = match token.split_once('/') {
        Some((num, den)) => num.parse::<u64>().ok()? as f64 / den.parse::<u64>().ok().filter(|&d| d > 0)? as f64,
        None => token.parse::<f64>().ok()?,
    };
    (p > 0.0 && p <= 1.0).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    fn refused(text: &str, expected: &str) {
        let err = Tree::parse(text, Player::Max).unwrap_err().to_string();
        assert!(err.contains(expected), "{text:?}: {err}");
    }

    #[test]
    fn parses_and_round_trips() {
        for text in ["[[5,8,6],[3,9,7],[10,4,2]]", "[3,{0.5:8,0.5:-1}]", "7", "{0.25:[1,2],0.75:-3}"] {
            assert_eq!(Tree::parse(text, Player::Max).unwrap().to_string(), text);
        }
        let spaced = Tree::parse(" [ [ 1 , 2 ] ,\n 3 ] ", Player::Min).unwrap();
        assert_eq!(spaced.to_string(), "[[1,2],3]");
    }

    #[test]
    fn players_alternate_and_skip_chance() {
        let t = Tree::parse("[{1/2:[1,2],1/2:[3,4]},[5]]", Player::Max).unwrap();
        assert_eq!(t.node(&0), Node::Decision(Player::Max));
        let coin = t.child_of(0, 0);
        assert_eq!(t.node(&coin), Node::Chance);
        assert_eq!(t.node(&t.child_of(coin, 1)), Node::Decision(Player::Min));
        assert_eq!(t.node(&t.child_of(0, 1)), Node::Decision(Player::Min));
        let min_root = Tree::parse("[[1,2]]", Player::Min).unwrap();
        assert_eq!(min_root.node(&min_root.child_of(0, 0)), Node::Decision(Player::Max));
    }

    #[test]
    fn names_by_path() {
        let t = Tree::parse("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max).unwrap();
        let b = t.child_of(0, 1);
        assert_eq!(t.name(0), "root");
        assert_eq!(t.name(b), "B");
        assert_eq!(t.name(t.child_of(b, 2)), "B.3");
        assert_eq!(letter_name(25), "Z");
        assert_eq!(letter_name(26), "AA");
    }

    #[test]
    fn refuses_bad_trees() {
        refused("", "expected a tree (found the end of the text) at character 0");
        refused("[1,2", "expected ',' or ']' (found the end of the text) at character 4");
        refused("[1,,2]", "expected an integer leaf");
        refused("[1,x]", "expected an integer leaf, '[' or '{' (found 'x') at character 3");
        refused("[]", "expected an integer leaf");
        refused("[1,2]]", "unexpected text after the tree");
        refused("[1.5]", "leaf 1.5 is not an integer: leaves are integer payoffs");
        refused("[1,2e3]", "leaf 2e3 is not an integer");
        refused("[1/2]", "leaf 1/2 is not an integer");
        refused("{0.5:1,0.4:2}", "probabilities sum to 0.9");
        refused("{0:1,1:2}", "expected a probability");
        refused("{1/0:1}", "expected a probability");
        refused("{0.5 1}", "expected ':'");
        refused("[99999999999999999999]", "the leaf is beyond ±2^53");
        refused("[-99999999999999999999]", "the leaf is beyond ±2^53");
        refused("[9007199254740993,1]", "leaf 9007199254740993 is beyond ±2^53");
        refused(&"[".repeat(2_000), "nesting deeper than");
    }

    #[test]
    fn long_trees_are_quoted_around_the_problem() {
        let text = format!("[{}x]", "1,".repeat(5_000));
        let err = Tree::parse(&text, Player::Max).unwrap_err().to_string();
        let window = format!("…\"{}x]\" (10003 characters)", "1,".repeat(EXCERPT / 2));
        assert!(err.starts_with(&format!("tree {window}: expected an integer leaf")), "{err}");
        assert!(err.ends_with("at character 10001"), "{err}");
        let deep = Tree::parse(&"[".repeat(5_000), Player::Max).unwrap_err().to_string();
        assert!(deep.len() < 200 && deep.contains("nesting deeper than 1000"), "{deep}");
        assert_eq!(excerpt("[1,2]", 2), "\"[1,2]\"");
    }

    #[test]
    fn nested_forms_lay_out_as_their_notation_parses() {
        use Nested::{Chance, Decision, Leaf};
        let nested = Decision(vec![
            Decision(vec![Leaf(3), Chance(vec![(0.25, Leaf(-4)), (0.75, Decision(vec![Leaf(7), Leaf(1)]))])]),
            Leaf(2),
        ]);
        for root in [Player::Max, Player::Min] {
            let built = Tree::from_nested(nested.clone(), root).unwrap();
            let parsed = Tree::parse("[[3,{0.25:-4,0.75:[7,1]}],2]", root).unwrap();
            assert_eq!(built.to_string(), parsed.to_string());
            let kinds = |t: &Tree| (0..t.len() as NodeId).map(|n| t.node(&n)).collect::<Vec<_>>();
            assert_eq!(kinds(&built), kinds(&parsed));
        }
        let refused = |n: Nested| Tree::from_nested(n, Player::Max).unwrap_err();
        assert_eq!(refused(Decision(vec![Leaf(1), Decision(vec![])])), NestedError::Childless);
        assert_eq!(refused(Leaf(MAX_EXACT_PAYOFF + 1)), NestedError::Leaf(MAX_EXACT_PAYOFF + 1));
        assert_eq!(refused(Chance(vec![(0.5, Leaf(1)), (0.4, Leaf(2))])), NestedError::Sum(0.9));
        assert_eq!(refused(Chance(vec![(1.5, Leaf(1)), (-0.5, Leaf(2))])), NestedError::Probability(1.5));
    }

    #[test]
    fn conforms() {
        let t = Tree::parse("[[5,8,6],[3,{0.5:9,0.25:[1,2],0.25:7}],[10,4,2]]", Player::Max).unwrap();
        conformance::check(&t, &[0], 200, 3);
    }
}
