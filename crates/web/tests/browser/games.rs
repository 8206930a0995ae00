//! The app, `/`: games played by clicks on their boards — Connect-4 to the end against the perfect player with the
//! heatmap's values checked against the solver's at every position, Bagh-Chal's goats placed, a Sixteen Soldiers
//! chain of jumps entered jump by jump and as a whole, EinStein's die rolled and a cube moved — the interface in
//! Bengali, a move made from the keyboard, and every game's board at desktop and phone width.

use crate::Test;
use crate::harness::Browser;
use anyhow::{Context, Result, bail, ensure};
use khela::dynamic::Turn;
use khela::{Analyser, State};
use khela_games::Player;
use serde_json::json;

/// The app's tests.
pub const TESTS: &[Test] = &[
    ("games::connect4_against_perfect_play_with_the_solvers_values_on_the_board", connect4_against_perfect_play),
    ("games::bagh_chal_goats_are_placed_by_clicks", bagh_chal_goats_placed),
    ("games::the_sliding_phase_s_values_are_the_tables", sliding_phase_from_the_tables),
    ("games::a_game_record_is_opened_from_a_file", a_game_record_is_opened),
    ("games::a_sixteen_soldiers_chain_is_entered_jump_by_jump_and_as_a_whole", sixteen_soldiers_chain),
    ("games::einstein_rolls_the_die_and_a_cube_moves", einstein_rolls_and_moves),
    ("games::in_bengali_no_interface_word_is_in_latin_letters", in_bengali),
    ("games::a_move_is_made_from_the_keyboard", keyboard_move),
    ("games::the_trained_network_answers_by_name", the_network_answers),
    ("games::every_game_at_desktop_and_phone_width", every_game_on_screen),
    ("games::a_capture_in_sight_is_told_in_words", a_capture_in_sight),
    ("games::connect4_s_first_stones_fall_back_to_a_search_and_say_so", connect4_opening_falls_back),
];

/// The address of a position in the app.
fn address(game: &str, start: Option<&str>, moves: &[String]) -> String {
    let mut url = url::form_urlencoded::Serializer::new(String::new());
    url.append_pair("game", game);
    if let Some(start) = start {
        url.append_pair("start", start);
    }
    if !moves.is_empty() {
        url.append_pair("moves", &moves.join(" "));
    }
    url.append_pair("seed", "7");
    format!("/#{}", url.finish())
}

/// The moves in the app's move list.
fn move_list(browser: &Browser) -> Result<Vec<String>> {
    Ok(browser.attrs("#moves li[data-move]", "data-move")?.into_iter().flatten().collect())
}

/// Clicks the point named `name` on the board.
fn click_point(browser: &Browser, name: &str) -> Result<()> {
    browser.click(&format!("#board [data-name=\"{name}\"]")).with_context(|| format!("clicking point {name}"))
}

/// The state the app shows, rebuilt by the library from the app's own address.
fn state_of_page(browser: &Browser, game: &str, start: Option<&str>) -> Result<State> {
    let game = khela::load(game)?;
    let mut state = match start {
        Some(start) => game.state(start)?,
        None => game.start()?,
    };
    for mv in move_list(browser)? {
        state.play_text(&mv)?;
    }
    Ok(state)
}

/// From a 12-stone position of the standard board, X (the test) clicks a column at each turn — the top cell of
/// the first column still open, which the app maps to the cell the stone lands on — and the perfect player answers
/// as O, to the end; at each of X's turns the values the app shows are the solver's, move by move.
fn connect4_against_perfect_play(browser: &Browser) -> Result<()> {
    let start = "444333555222";
    browser.open(&address("connect4", Some(start), &[]))?;
    browser.select("#opponent", "perfect")?;
    browser.select("#opponent-side", "second")?;
    browser.eval("document.querySelector('#heatmap').click(); return null")?;
    browser.wait_idle()?;
    let mut checked = 0;
    for _ in 0..30 {
        let state = state_of_page(browser, "connect4", Some(start))?;
        if !matches!(state.turn(), Turn::Decision(Player::Max)) {
            break;
        }
        let analysis = state.analyse(&Analyser::Exact)?;
        let rows = browser.attrs("#analysis tbody tr", "data-move")?;
        let shown: Vec<Option<f64>> = browser
            .attrs("#analysis tbody td.value", "data-value")?
            .into_iter()
            .map(|v| v.and_then(|v| v.parse().ok()))
            .collect();
        ensure!(rows.len() == analysis.moves.len(), "{} values shown, {} moves", rows.len(), analysis.moves.len());
        for ((row, value), expected) in rows.iter().zip(&shown).zip(&analysis.moves) {
            ensure!(row.as_deref() == Some(expected.text.as_str()), "row {row:?} is not move {}", expected.text);
            let shown = value.context("a value shown")?;
            ensure!(shown == expected.value.context("an exact value")?, "move {}: shown {shown}", expected.text);
        }
        // The heatmap colours the cell each stone would land on, with the same number.
        let on_board = browser.count("#board [data-point][data-value]")?;
        ensure!(on_board == analysis.moves.len(), "{on_board} cells valued on the board");
        checked += 1;
        let column = state.move_texts()[0].clone();
        let top = format!("{column}-6");
        let before = move_list(browser)?.len();
        click_point(browser, &top)?;
        let after = move_list(browser)?;
        ensure!(after.len() > before && after[before] == column, "clicking {top} played {:?}", after.get(before));
    }
    let state = state_of_page(browser, "connect4", Some(start))?;
    ensure!(matches!(state.turn(), Turn::Over(_)), "the game did not end: {:?}", state.history());
    ensure!(checked >= 3, "only {checked} positions checked");
    ensure!(browser.attr("#status", "data-turn")?.as_deref() == Some("over"));
    browser.screenshot("connect4-end-desktop")?;
    Ok(())
}

/// Bagh-Chal's goats go where they are clicked, the hand counts down, and the tigers answer when asked to.
fn bagh_chal_goats_placed(browser: &Browser) -> Result<()> {
    browser.open(&address("bagh-chal", None, &[]))?;
    ensure!(browser.count("#board [data-point]")? == 25, "25 points");
    ensure!(browser.count("#board .piece.tiger")? == 4, "4 tigers");
    click_point(browser, "c3")?;
    ensure!(move_list(browser)? == ["c3"]);
    let counter = browser.text("#counters [data-key=in_hand]")?;
    ensure!(counter.contains("19"), "the hand: {counter}");
    // A tiger moves by a drag-free pair of clicks: a1, then b2.
    click_point(browser, "a1")?;
    ensure!(browser.count("#board .point.target")? >= 1, "the tiger's moves are highlighted");
    click_point(browser, "b2")?;
    ensure!(move_list(browser)? == ["c3", "a1-b2"]);
    click_point(browser, "b3")?;
    ensure!(browser.count("#board .piece.goat")? == 2);
    browser.click("#undo")?;
    ensure!(move_list(browser)? == ["c3", "a1-b2"], "undo takes back one placement");
    browser.click("#redo")?;
    ensure!(move_list(browser)? == ["c3", "a1-b2", "b3"], "redo plays it again");
    ensure!(browser.eval("return window.location.hash")?.as_str().is_some_and(|h| h.contains("b3")), "the address");
    Ok(())
}

/// The small Bagh-Chal's goats placed by clicks, the tiger moved between; then in the sliding phase the values
/// on the board and in the table are the tables', with the plies to the end in the sentence.
fn sliding_phase_from_the_tables(browser: &Browser) -> Result<()> {
    browser.open(&address(SMALL_BAGH_CHAL, None, &[]))?;
    for point in ["b2", "a1", "a2", "c3", "a2", "a1", "c1", "a1", "a2", "c2"] {
        click_point(browser, point)?;
    }
    ensure!(move_list(browser)? == ["b2", "a1-a2", "c3", "a2-a1", "c1", "a1-a2", "c2"], "{:?}", move_list(browser)?);
    browser.eval("document.querySelector('#heatmap').click(); return null")?;
    browser.wait_idle()?;
    let game = with_tables().remove(0);
    let mut state = game.start()?;
    for mv in move_list(browser)? {
        state.play_text(&mv)?;
    }
    let analysis = state.analyse(&Analyser::Exact)?;
    let shown: Vec<Option<f64>> = browser
        .attrs("#analysis tbody td.value", "data-value")?
        .into_iter()
        .map(|v| v.and_then(|v| v.parse().ok()))
        .collect();
    let mover = match state.turn() {
        Turn::Decision(player) => player,
        other => bail!("not a decision: {other:?}"),
    };
    let expected: Vec<Option<f64>> = analysis.moves.iter().map(|m| m.value.map(|v| mover.view(v))).collect();
    ensure!(shown == expected, "the values shown {shown:?}, the tables' {expected:?}");
    let sentence = browser.text("#explain")?;
    let best = analysis.moves.iter().find(|m| analysis.best().contains(&m.index)).context("a best move")?;
    if let Some(plies) = best.plies {
        let moves = if best.value.is_some_and(|v| mover.view(v) > 0.0) { plies.div_ceil(2) } else { plies / 2 };
        ensure!(sentence.contains(&format!(" {moves} moves")), "the sentence {sentence:?} lacks {moves} moves");
    }
    browser.screenshot("bagh-chal-small-tables-desktop")?;
    Ok(())
}

/// A record written by the library, as `play --record` writes it, opened from a file: the game, its start and
/// its moves are the app's.
fn a_game_record_is_opened(browser: &Browser) -> Result<()> {
    let mut state = khela::load("sixteen-soldiers(rules=optional)")?.start()?;
    for mv in ["c4-c5", "c6xc4"] {
        state.play_text(mv)?;
    }
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("game.txt");
    std::fs::write(&path, state.record().text())?;
    browser.open(&address("tictactoe", None, &[]))?;
    browser.press("#upload", path.to_str().context("a path")?)?;
    browser.wait_until("the record's game", || Ok(move_list(browser)? == ["c4-c5", "c6xc4"]))?;
    ensure!(browser.eval("return document.querySelector('#game').value")? == json!("sixteen-soldiers(rules=optional)"));
    ensure!(browser.text("#error")?.is_empty(), "{}", browser.text("#error")?);
    Ok(())
}

/// A line of Sixteen Soldiers (seeded random moves) that reaches a chain of two jumps or more.
fn line_to_a_chain() -> Result<(Vec<String>, String, Vec<String>)> {
    let game = khela::load("sixteen-soldiers")?;
    for seed in 0..200u64 {
        let mut state = game.start()?;
        let mut rng = seed;
        for _ in 0..80 {
            if !matches!(state.turn(), Turn::Decision(_)) {
                break;
            }
            let board = state.board();
            let gestures = state.gestures();
            if let Some(k) = gestures.iter().position(|g| g.path.len() >= 3) {
                let names = gestures[k].path.iter().map(|&p| board.points[p].name.clone()).collect();
                return Ok((state.history(), state.move_texts()[k].clone(), names));
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let moves = state.legal_moves();
            state.play(moves[(rng >> 33) as usize % moves.len()])?;
        }
    }
    bail!("no chain of two jumps in 200 seeded lines")
}

/// The chain entered point by point, then (after undo) its start and its end alone.
fn sixteen_soldiers_chain(browser: &Browser) -> Result<()> {
    let (line, chain, path) = line_to_a_chain()?;
    browser.open(&address("sixteen-soldiers", None, &line))?;
    for point in &path {
        click_point(browser, point)?;
    }
    let moves = move_list(browser)?;
    ensure!(moves.last() == Some(&chain), "jump by jump: {:?}, not {chain}", moves.last());
    browser.click("#undo")?;
    click_point(browser, &path[0])?;
    click_point(browser, &path[path.len() - 1])?;
    let moves = move_list(browser)?;
    ensure!(moves.last() == Some(&chain), "as a whole: {:?}, not {chain}", moves.last());
    browser.screenshot("sixteen-soldiers-chain-desktop")?;
    Ok(())
}

/// The die is rolled (its face shown), then the cube it names moves by two clicks.
fn einstein_rolls_and_moves(browser: &Browser) -> Result<()> {
    browser.open(&address("einstein", None, &[]))?;
    let die = browser.text("#counters [data-key=die]")?;
    ensure!(!die.is_empty(), "the die is shown");
    let rolled = move_list(browser)?;
    ensure!(rolled.len() == 1, "one roll: {rolled:?}");
    let state = state_of_page(browser, "einstein", None)?;
    let (board, gestures) = (state.board(), state.gestures());
    let g = gestures.iter().find(|g| g.path.len() == 2).context("a cube's step")?;
    let (from, to) = (&board.points[g.path[0]].name, &board.points[g.path[1]].name);
    click_point(browser, from)?;
    click_point(browser, to)?;
    let moves = move_list(browser)?;
    ensure!(moves.len() >= 2 && moves[1] == format!("{from}{to}"), "the step {from}{to}: {moves:?}");
    Ok(())
}

/// Latin words of three letters or more in the page's visible text, but for the move list (the games' notation)
/// and the networks' names (their files').
fn latin_words(browser: &Browser) -> Result<Vec<String>> {
    let text = browser.eval(
        "const clone = document.body.cloneNode(true); clone.querySelector('#moves')?.remove(); \
         clone.querySelector('#lang')?.remove(); \
         clone.querySelectorAll('option[value^=\"net:\"]').forEach((o) => o.remove()); return clone.innerText",
    )?;
    let text = text.as_str().unwrap_or_default().to_string();
    Ok(text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() >= 3).map(String::from).collect())
}

/// The switch to Bengali changes every label (the game's name among them), remembers itself, and leaves no English.
fn in_bengali(browser: &Browser) -> Result<()> {
    browser.open(&address("bagh-chal", None, &["c3".to_string()]))?;
    browser.select("#analyser", "depth:4")?;
    browser.eval("document.querySelector('#heatmap').click(); return null")?;
    browser.wait_idle()?;
    // The principal variation: the tigers' best move and their next, as arrows (the goat's placement between has
    // none).
    let arrows = browser.count("#board .arrow")?;
    ensure!(arrows == 2, "{arrows} arrows of the principal variation");
    let english = browser.text("#game-title")?;
    browser.click("#lang")?;
    ensure!(browser.eval("return document.documentElement.lang")? == json!("bn"));
    let bengali = browser.text("#game-title")?;
    ensure!(bengali != english && bengali.contains("বাঘ"), "the title: {english} → {bengali}");
    let left = latin_words(browser)?;
    ensure!(left.is_empty(), "English left in Bengali: {left:?}");
    browser.click("#bengali-digits")?;
    let hand = browser.text("#counters [data-key=in_hand]")?;
    ensure!(hand.contains("১৯"), "Bengali digits: {hand}");
    ensure!(
        browser.eval("return document.fonts.check('16px \"Noto Sans Bengali\"', 'বাঘ')")? == json!(true),
        "the bundled Bengali font is loaded"
    );
    browser.screenshot("bagh-chal-bengali-desktop")?;
    browser.phone()?;
    browser.screenshot("bagh-chal-bengali-phone")?;
    browser.desktop()?;
    // Remembered: a new visit opens in Bengali.
    browser.eval("window.location.reload(); return null")?;
    std::thread::sleep(std::time::Duration::from_millis(300));
    browser.wait_idle()?;
    ensure!(browser.eval("return document.documentElement.lang")? == json!("bn"), "the language is remembered");
    Ok(())
}

/// Tab to a legal point and press Enter: the move is made.
fn keyboard_move(browser: &Browser) -> Result<()> {
    browser.open(&address("tictactoe", None, &[]))?;
    browser.press("#board [data-name=\"4\"]", "\u{e007}")?;
    ensure!(move_list(browser)? == ["4"], "Enter on cell 4");
    let label = browser.attr("#board [data-name=\"4\"]", "aria-label")?.unwrap_or_default();
    ensure!(label.contains("cross"), "the cell's label names its piece: {label}");
    Ok(())
}

/// Tic-tac-toe against the network of `results/`, offered by its name: it answers the centre with a legal move.
fn the_network_answers(browser: &Browser) -> Result<()> {
    browser.open(&address("tictactoe", None, &[]))?;
    let offered = browser.attrs("#opponent option", "value")?;
    ensure!(offered.contains(&Some("net:zero-tictactoe".into())), "the opponents: {offered:?}");
    browser.select("#opponent", "net:zero-tictactoe")?;
    click_point(browser, "4")?;
    let moves = move_list(browser)?;
    ensure!(moves.len() == 2 && moves[0] == "4", "the network's answer: {moves:?}");
    // Its search as the values on the board.
    browser.select("#opponent", "human")?;
    browser.select("#analyser", "net:zero-tictactoe:200")?;
    browser.eval("document.querySelector('#heatmap').click(); return null")?;
    browser.wait_idle()?;
    ensure!(browser.count("#analysis tbody tr")? == 7, "the seven moves valued");
    ensure!(browser.text("#source")?.contains("zero-tictactoe"), "the source: {}", browser.text("#source")?);
    Ok(())
}

/// A tiger beside a goat with the point behind it empty: the sentence under the board says the tigers take a
/// goat within the moves the library finds for the best move, in English and in Bengali.
fn a_capture_in_sight(browser: &Browser) -> Result<()> {
    let start = "TG..T/...../...../...../T...T t 19";
    browser.open(&address("bagh-chal", Some(start), &[]))?;
    browser.select("#analyser", "depth:4")?;
    browser.eval("document.querySelector('#heatmap').click(); return null")?;
    browser.wait_idle()?;
    let state = khela::load("bagh-chal")?.state(start)?;
    let analysis = state.analyse(&Analyser::Depth(4))?;
    let best = *analysis.best().first().context("a best move")?;
    let within = state.threat(best).context("Bagh-Chal has captures")?.captures_within.context("a capture")?;
    let sentence = browser.text("#explain")?;
    ensure!(sentence.contains(&format!("takes a goat within {within} moves")), "the sentence: {sentence:?}");
    browser.click("#lang")?;
    let sentence = browser.text("#explain")?;
    ensure!(sentence.contains("একটি ছাগল খায়"), "the Bengali sentence: {sentence:?}");
    browser.click("#lang")?;
    Ok(())
}

/// The perfect player and the exact heatmap on Connect-4's empty board, which the solver would take minutes
/// over: the values come from a search to depth 8 and the sentence says so; the perfect player answers a stone.
fn connect4_opening_falls_back(browser: &Browser) -> Result<()> {
    browser.open(&address("connect4", None, &[]))?;
    browser.eval("document.querySelector('#heatmap').click(); return null")?;
    browser.wait_idle()?;
    let sentence = browser.text("#explain")?;
    ensure!(sentence.contains("Not solved exactly here"), "the sentence: {sentence:?}");
    ensure!(browser.text("#source")?.contains("depth 8"), "the source: {}", browser.text("#source")?);
    ensure!(browser.count("#analysis tbody tr")? == 7, "the seven columns valued");
    browser.select("#opponent", "perfect")?;
    browser.select("#opponent-side", "second")?;
    click_point(browser, "4-6")?;
    let moves = move_list(browser)?;
    ensure!(moves.len() == 2 && moves[0] == "4", "the perfect player's answer: {moves:?}");
    Ok(())
}

/// Every game the app offers, drawn, at desktop and at phone width; nothing wider than a phone.
fn every_game_on_screen(browser: &Browser) -> Result<()> {
    let games = browser.eval("return fetch('/api/games').then((r) => r.json())")?;
    let names: Vec<String> =
        games.as_array().context("games")?.iter().map(|g| g["name"].as_str().unwrap().into()).collect();
    for name in names {
        let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        browser.open(&address(&name, None, &[]))?;
        ensure!(browser.text("#error")?.is_empty(), "{name}: {}", browser.text("#error")?);
        browser.screenshot(&format!("{file}-desktop"))?;
        browser.phone()?;
        let wide = browser.eval("return document.documentElement.scrollWidth")?;
        ensure!(wide.as_u64().is_some_and(|w| w <= 360), "{name}: the page is {wide} px wide on a phone");
        browser.screenshot(&format!("{file}-phone"))?;
        browser.desktop()?;
    }
    Ok(())
}

/// The small Bagh-Chal the app's tests value from its tables: a 3 × 3 board, one tiger, four goats, two
/// captures win — its endgame (the sliding phase) solved in memory in a moment.
pub const SMALL_BAGH_CHAL: &str = "bagh-chal(size=3,tigers=a1,goats=4,captures=2)";

/// The games the tests' server serves with their tables: [`SMALL_BAGH_CHAL`].
pub fn with_tables() -> Vec<khela::Game> {
    vec![khela::load(SMALL_BAGH_CHAL).and_then(|game| game.with_tables(None)).expect("the small Bagh-Chal's tables")]
}

/// What the tests' server serves besides: [`with_tables`], and the networks in the project's `results/`.
pub fn served() -> khela_web::Served {
    let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    khela_web::Served { tables: with_tables(), nets: khela_web::nets_in(&results).expect("the networks in results/") }
}
