//! The app's files: every one served with its media type, and the two language files complete — the same keys in
//! both, every key the pages name present, every game, player, piece and counter the API sends translated, and
//! no English left in the Bengali file's strings.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use khela_web::{GameView, Limits, StateView, router};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use tower::ServiceExt;

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/page");

async fn get(path: &str) -> (StatusCode, String, Vec<u8>) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = router(Limits::default()).oneshot(request).await.unwrap();
    let media = response.headers().get(header::CONTENT_TYPE).map_or(String::new(), |v| v.to_str().unwrap().into());
    (response.status(), media, response.into_body().collect().await.unwrap().to_bytes().to_vec())
}

async fn post<T: serde::de::DeserializeOwned>(path: &str, body: Value) -> T {
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = router(Limits::default()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path} {body}");
    serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap()
}

fn language(lang: &str) -> Map<String, Value> {
    let text = std::fs::read_to_string(format!("{PAGE}/lang/{lang}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The literal keys the pages name: `data-i18n*="key"` in the HTML, `t('key'` and `tOr('key'` in the scripts (a
/// call, not the end of another name: `get('game')` is none).
fn named_keys() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for entry in std::fs::read_dir(PAGE).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for opener in ["data-i18n=\"", "data-i18n-label=\"", "data-i18n-title=\"", "t('", "tOr('"] {
            for (at, _) in text.match_indices(opener) {
                let before = text[..at].chars().next_back().unwrap_or(' ');
                if !opener.starts_with('d') && (before.is_alphanumeric() || before == '_' || before == '.') {
                    continue;
                }
                let key: String = text[at + opener.len()..].chars().take_while(|&c| c != '"' && c != '\'').collect();
                keys.insert(key);
            }
        }
    }
    keys
}

#[tokio::test]
async fn every_file_of_the_app_is_served_with_its_media_type() {
    for (path, media) in [
        ("/", "text/html"),
        ("/textbook", "text/html"),
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/i18n.js", "text/javascript"),
        ("/app.css", "text/css"),
        ("/lang/bn.json", "application/json"),
        ("/fonts/noto-sans-bengali-bengali-400-normal.woff2", "font/woff2"),
        ("/fonts/OFL.txt", "text/plain"),
    ] {
        let (status, got, body) = get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(got.starts_with(media), "{path}: {got}");
        assert!(!body.is_empty(), "{path}");
    }
    let (status, _, body) = get("/no/such/file.js").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(String::from_utf8(body).unwrap().contains("no such page or endpoint: /no/such/file.js"));
}

#[tokio::test]
async fn both_language_files_translate_everything_the_app_shows() {
    let (en, bn) = (language("en"), language("bn"));
    let en_keys: BTreeSet<&String> = en.keys().collect();
    let bn_keys: BTreeSet<&String> = bn.keys().collect();
    assert_eq!(en_keys, bn_keys, "the two language files have different keys");
    let missing: Vec<String> = named_keys().into_iter().filter(|k| !en.contains_key(k)).collect();
    assert!(missing.is_empty(), "keys the pages name that the language files lack: {missing:?}");

    // What the API sends and the app translates: games, players, pieces and counters.
    let games: Vec<GameView> = {
        let (status, _, body) = get("/api/games").await;
        assert_eq!(status, StatusCode::OK);
        serde_json::from_slice(&body).unwrap()
    };
    let mut needed = BTreeSet::new();
    for game in &games {
        needed.insert(format!("game.{}", game.name));
        for player in &game.players {
            needed.insert(format!("player.{player}"));
        }
        // A few random moves deep, so that the die is rolled and pieces are taken.
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..12 {
            let state: StateView =
                post("/api/state", json!({"game": game.name, "start": game.start, "moves": moves})).await;
            for piece in &state.board.pieces {
                needed.insert(format!("piece.{}", serde_json::to_value(piece.kind).unwrap().as_str().unwrap()));
            }
            for counter in &state.board.counters {
                needed.insert(format!("counter.{}", counter.key));
            }
            for (k, gesture) in state.gestures.iter().enumerate() {
                if gesture.path.is_empty() && state.turn == "decision" {
                    needed.insert(format!("move.{}", state.legal[k]));
                }
            }
            if state.legal.is_empty() {
                break;
            }
            moves.push(state.legal[(ply * 7) % state.legal.len()].clone());
        }
    }
    let missing: Vec<&String> = needed.iter().filter(|k| !en.contains_key(*k)).collect();
    assert!(missing.is_empty(), "what the API sends that the language files lack: {missing:?}");

    // No Latin word of three letters or more in a Bengali string (the game's own letters, like X, pass), but for
    // the switch to the other language, which names it in its own script.
    const SWITCHES: [&str; 2] = ["lang.switch", "textbook.lang.other"];
    let english: Vec<(&String, &str)> = bn
        .iter()
        .filter(|(k, _)| !SWITCHES.contains(&k.as_str()))
        .map(|(k, v)| (k, v.as_str().unwrap()))
        .filter(|(_, v)| {
            let words =
                v.split('{').map(|part| part.split_once('}').map_or(part, |(_, rest)| rest)).collect::<String>();
            words.split(|c: char| !c.is_ascii_alphabetic()).any(|word| word.len() >= 3)
        })
        .collect();
    assert!(english.is_empty(), "English left in the Bengali file: {english:?}");
}

#[test]
fn the_page_without_the_font_is_small() {
    let total: usize = khela_web::asset_sizes().filter(|(path, _)| !path.starts_with("/fonts/")).map(|(_, n)| n).sum();
    assert!(total < 100 * 1024, "the app's own files are {total} bytes");
}
