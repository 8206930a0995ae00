//! The textbook's page, `/textbook`: the chapter's searches stepped through on its trees (the figures of
//! docs/src/textbook.md and the `trace` command), the move-ordering table (results/ordering.csv, the README's first
//! table), the page in Bengali, and its layout on a phone.

use crate::Test;
use crate::harness::{Browser, PHONE};
use anyhow::{Result, ensure};
use serde_json::json;

/// The textbook's page's tests.
pub const TESTS: &[Test] = &[
    ("textbook::alpha_beta_on_the_first_tree_prunes_the_leaves_9_7_and_2", alpha_beta_prunes_9_7_and_2),
    ("textbook::minimax_prunes_nothing_and_the_other_trees_have_the_chapters_values", minimax_and_the_other_trees),
    ("textbook::a_tree_the_server_refuses_shows_its_message", a_refused_tree_shows_the_message),
    ("textbook::the_ordering_table_has_the_readmes_figures", the_ordering_table_has_the_readmes_figures),
    ("textbook::in_bengali_no_interface_word_is_written_in_latin_letters", in_bengali_no_word_is_in_latin_letters),
    ("textbook::on_a_phone_the_page_fits_its_width", on_a_phone_the_page_fits),
];

/// Clicks "step" until the last step (at most `limit` times); returns the steps taken.
fn step_to_the_end(browser: &Browser, limit: usize) -> Result<usize> {
    for taken in 0..limit {
        if browser.attr("#step", "disabled")?.is_some() {
            return Ok(taken);
        }
        browser.click("#step")?;
    }
    anyhow::bail!("still not at the end after {limit} steps")
}

/// The summary's figures: nodes visited, the tree's nodes, the value, the best move.
fn summary(browser: &Browser) -> Result<[Option<String>; 4]> {
    Ok([
        browser.attr("#summary", "data-nodes")?,
        browser.attr("#summary", "data-tree-nodes")?,
        browser.attr("#summary", "data-value")?,
        browser.attr("#summary", "data-best")?,
    ])
}

fn strings(items: &[&str]) -> Vec<Option<String>> {
    items.iter().map(|s| Some(s.to_string())).collect()
}

/// The chapter's first tree, `[[5,8,6],[3,9,7],[10,4,2]]`, MAX at the root: alpha-beta backs up 5, visits 10 of
/// its 13 nodes and prunes the leaves 9 and 7 (below B, cut off at 3 ≤ 5) and 2 (below C, cut off at 4 ≤ 5).
fn alpha_beta_prunes_9_7_and_2(browser: &Browser) -> Result<()> {
    browser.open("/textbook")?;
    ensure!(
        browser.eval("return document.querySelector('textarea#tree-text').value")?
            == json!("[[5,8,6],[3,9,7],[10,4,2]]")
    );
    ensure!(browser.eval("return document.querySelector('select#algorithm').value")? == json!("alphabeta"));
    ensure!(browser.count("svg#tree g[data-node]")? == 13, "13 nodes drawn");
    let leaves = browser.attrs("svg#tree g.leaf", "data-leaf-value")?;
    ensure!(leaves == strings(&["5", "8", "6", "3", "9", "7", "10", "4", "2"]), "the leaves drawn: {leaves:?}");
    ensure!(browser.count("svg#tree .pruned, svg#tree .backed")? == 0, "nothing marked before the first step");
    ensure!(browser.attr("#back", "disabled")?.is_some() && browser.attr("#summary", "hidden")?.is_some());

    browser.click("#step")?;
    ensure!(browser.count("svg#tree g.backed")? == 1, "one value backed up after one step");
    let steps = 1 + step_to_the_end(browser, 100)?;
    ensure!(browser.attrs("svg#tree g.leaf.pruned", "data-leaf-value")? == strings(&["9", "7", "2"]));
    let pruned = browser.attrs("svg#tree g.pruned", "data-node")?;
    ensure!(pruned == strings(&["B.2", "B.3", "C.3"]), "pruned: {pruned:?}");
    ensure!(browser.attr("svg#tree g[data-node=\"root\"]", "data-value")?.as_deref() == Some("5"));
    // B (MIN) is cut off once B.1 = 3 is at most MAX's 5 from A: 3 is only an upper bound on B.
    ensure!(browser.attr("svg#tree g[data-node=\"B\"]", "data-bound")?.as_deref() == Some("upper"));
    ensure!(browser.attr("svg#tree g[data-node=\"B\"]", "data-value")?.as_deref() == Some("3"));
    ensure!(summary(browser)? == [Some("10".into()), Some("13".into()), Some("5".into()), Some("A".into())]);
    let text = browser.text("#summary")?;
    ensure!(text.contains("10") && text.contains("13"), "the summary says 10 of 13: {text:?}");
    browser.screenshot("textbook-alphabeta-desktop")?;

    browser.click("#back")?;
    ensure!(browser.attr("#summary", "data-nodes")?.is_none(), "the summary waits for the last step");
    browser.click("#run")?;
    ensure!(browser.attr("#summary", "data-nodes")?.as_deref() == Some("10"));
    browser.click("#reset")?;
    ensure!(browser.count("svg#tree .pruned, svg#tree .backed")? == 0, "reset clears every mark");
    browser.click("#run")?;
    ensure!(browser.attrs("svg#tree g.leaf.pruned", "data-leaf-value")? == strings(&["9", "7", "2"]));
    ensure!(steps >= 5, "{steps} steps");
    Ok(())
}

/// Minimax on the same tree visits all 13 nodes and prunes nothing; the chapter's second tree is worth 6 with MAX
/// at the root and 3 with MIN; the chance tree `[3,{0.5:8,0.5:-1}]` is worth 3.5, its best move B.
fn minimax_and_the_other_trees(browser: &Browser) -> Result<()> {
    browser.open("/textbook")?;
    browser.select("select#algorithm", "minimax")?;
    browser.click("#run")?;
    ensure!(browser.count("svg#tree .pruned")? == 0, "minimax prunes nothing");
    ensure!(browser.count("svg#tree g.backed")? == 13, "every node backed up");
    ensure!(summary(browser)? == [Some("13".into()), Some("13".into()), Some("5".into()), Some("A".into())]);

    let value = |root: &str, algorithm: &str| -> Result<Option<String>> {
        browser.select("select#root", root)?;
        browser.select("select#algorithm", algorithm)?;
        browser.click("#run")?;
        browser.attr("#summary", "data-value")
    };
    browser.select("select#tree-preset", "[[[3,5],[2,9]],[[1,7],[4,6]]]")?;
    ensure!(browser.count("svg#tree g.leaf")? == 8);
    for algorithm in ["minimax", "alphabeta", "negamax", "negamax-alphabeta"] {
        ensure!(value("max", algorithm)?.as_deref() == Some("6"), "{algorithm}, MAX at the root");
        ensure!(value("min", algorithm)?.as_deref() == Some("3"), "{algorithm}, MIN at the root");
    }
    browser.select("select#root", "max")?;
    browser.select("select#tree-preset", "[3,{0.5:8,0.5:-1}]")?;
    browser.click("#run")?;
    ensure!(summary(browser)?[2..] == [Some("3.5".into()), Some("B".into())]);
    ensure!(browser.count("svg#tree g.chance")? == 1);

    browser.type_into("textarea#tree-text", "[[1,2],[3,4]]")?;
    ensure!(browser.eval("return document.querySelector('#tree-preset').value")? == json!(""), "a typed tree");
    browser.click("#run")?;
    ensure!(summary(browser)?[2..] == [Some("3".into()), Some("B".into())]);
    Ok(())
}

/// A tree the API refuses shows the API's message and no tree; a good one brings the tree back.
fn a_refused_tree_shows_the_message(browser: &Browser) -> Result<()> {
    browser.open("/textbook")?;
    browser.type_into("textarea#tree-text", "[1,")?;
    let message = browser.text("#trace-error")?;
    ensure!(message.contains("expected a tree"), "the API's message: {message:?}");
    ensure!(browser.count("svg#tree g")? == 0, "no tree drawn");
    ensure!(browser.attr("#step", "disabled")?.is_some());
    // The refusal is a 400, which Chromium logs; nothing else may be there.
    let errors = browser.console_errors()?;
    ensure!(errors.iter().all(|e| e.contains("/api/trace") && e.contains("400")), "{errors:?}");
    browser.type_into("textarea#tree-text", "[7,9]")?;
    ensure!(browser.text("#trace-error")?.is_empty());
    browser.click("#run")?;
    ensure!(browser.attr("#summary", "data-value")?.as_deref() == Some("9"));
    Ok(())
}

/// The move-ordering table of the random tree b=4, d=6, seed 42 (Python's generator, leaves 0..=99): minimax
/// visits all 4,096 leaves, alpha-beta 687 in the natural order, 127 best first (Knuth and Moore's minimum) and
/// 3,568 worst first (results/ordering.csv). A tree over the limit is refused, naming it.
fn the_ordering_table_has_the_readmes_figures(browser: &Browser) -> Result<()> {
    browser.open("/textbook")?;
    let rows = browser.eval(
        "return [...document.querySelectorAll('#ordering-table tbody tr')]\
         .map((tr) => [tr.dataset.algorithm, tr.dataset.ordering, tr.dataset.leaves])",
    )?;
    let expected = json!([
        ["minimax", "natural", "4096"],
        ["alphabeta", "natural", "687"],
        ["alphabeta", "best", "127"],
        ["alphabeta", "worst", "3568"]
    ]);
    ensure!(rows == expected, "the rows: {rows}");
    let shown = browser.texts("#ordering-table td.leaves")?;
    ensure!(shown == ["4,096", "687", "127", "3,568"], "the leaves shown: {shown:?}");
    ensure!(browser.text("#ordering-caption")?.contains("127"), "Knuth and Moore's minimum");

    browser.type_into("#branching", "5")?;
    browser.type_into("#depth", "11")?;
    browser.click("#compare")?;
    let message = browser.text("#ordering-error")?;
    ensure!(message.contains("16777216"), "the refusal names the limit: {message:?}");
    ensure!(browser.count("#ordering-table tbody tr")? == 0);
    let errors = browser.console_errors()?;
    ensure!(errors.iter().all(|e| e.contains("/api/ordering") && e.contains("400")), "{errors:?}");

    browser.type_into("#branching", "3")?;
    browser.type_into("#depth", "4")?;
    browser.click("#compare")?;
    ensure!(browser.count("#ordering-table tbody tr")? == 4);
    ensure!(browser.text("#ordering-error")?.is_empty());
    Ok(())
}

/// The rule for Bengali: no text a reader meets on the page holds a run of three or more ASCII letters. Read are
/// the document's title, every text node under `<body>` and the attributes `aria-label`, `title`, `placeholder` and
/// `alt`. Exempt are text inside an element marked `data-notation` (the tree's notation and the nodes' names, the
/// API's, which no language translates, like `B.2`), inside a `textarea` (the tree as typed), and inside an element
/// whose nearest `lang` names another language than the page's (the switch's "English", the server's messages).
const LATIN_WORDS: &str = r#"
    const latin = /[A-Za-z]{3,}/;
    const page = document.documentElement.lang;
    const exempt = (el) => !!el.closest('[data-notation], textarea, script, style') ||
        (el.closest('[lang]')?.getAttribute('lang') ?? page) !== page;
    const found = [];
    if (latin.test(document.title)) found.push(`title: ${document.title}`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (latin.test(node.textContent) && !exempt(node.parentElement)) {
            found.push(`${node.parentElement.tagName.toLowerCase()}: ${node.textContent.trim()}`);
        }
    }
    for (const el of document.body.querySelectorAll('*')) {
        for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
            const value = el.getAttribute(name);
            if (value && latin.test(value) && !exempt(el)) found.push(`${name}: ${value}`);
        }
    }
    return found;
"#;

/// In Bengali (the switch `button#lang`), `html[lang=bn]` and no interface word in Latin letters ([`LATIN_WORDS`]),
/// before, during and after a search; with Bengali digits the table shows ৬৮৭, ১২৭ and ৩,৫৬৮.
fn in_bengali_no_word_is_in_latin_letters(browser: &Browser) -> Result<()> {
    browser.open("/textbook")?;
    ensure!(browser.eval(LATIN_WORDS)? != json!([]), "the rule finds English words in English");
    browser.click("button#lang")?;
    ensure!(browser.count("html[lang=bn]")? == 1);
    let check = |when: &str| -> Result<()> {
        let found = browser.eval(LATIN_WORDS)?;
        ensure!(found == json!([]), "Latin words in Bengali {when}: {found}");
        Ok(())
    };
    check("on opening")?;
    ensure!(browser.text("#step")? == "পরের ধাপ");
    browser.click("#step")?;
    browser.click("#step")?;
    check("after two steps")?;
    browser.click("#run")?;
    check("at the end")?;
    browser.select("select#algorithm", "minimax")?;
    ensure!(browser.text("select#algorithm option[value=minimax]")? == "মিনিম্যাক্স");
    browser.select("select#algorithm", "alphabeta")?;
    browser.click("#run")?;
    let shown = browser.texts("#ordering-table td.leaves")?;
    ensure!(shown == ["4,096", "687", "127", "3,568"], "Latin digits until chosen: {shown:?}");
    browser.click("input#digits")?;
    check("with Bengali digits")?;
    let shown = browser.texts("#ordering-table td.leaves")?;
    ensure!(shown == ["৪,০৯৬", "৬৮৭", "১২৭", "৩,৫৬৮"], "Bengali digits: {shown:?}");
    let leaves = browser.texts("svg#tree g.leaf text.value")?;
    ensure!(leaves[..3] == ["৫", "৮", "৬"], "the leaves in Bengali digits: {leaves:?}");
    ensure!(browser.attr("#summary", "data-value")?.as_deref() == Some("5"), "the hooks keep Latin digits");
    browser.screenshot("textbook-bengali-desktop")?;
    browser.phone()?;
    browser.screenshot("textbook-bengali-phone")?;
    browser.desktop()?;
    browser.click("button#lang")?;
    ensure!(browser.count("html[lang=en]")? == 1);
    Ok(())
}

/// At a small phone's 360 px the page scrolls only downwards: nothing is wider than the screen.
fn on_a_phone_the_page_fits(browser: &Browser) -> Result<()> {
    browser.open("/textbook")?;
    browser.phone()?;
    browser.click("#run")?;
    let width = browser.eval("return document.documentElement.scrollWidth")?;
    ensure!(width.as_u64().is_some_and(|w| w <= u64::from(PHONE.0)), "the page is {width} px wide");
    browser.eval("document.querySelector('svg#tree').scrollIntoView(); return null")?;
    browser.screenshot("textbook-phone")?;
    Ok(())
}
