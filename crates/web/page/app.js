// khela's app: a game played on its board against a chosen opponent, every move valued on request. The position
// lives here and in the address bar (game, start, moves); the server is asked for everything else, statelessly.

import * as i18n from './i18n.js';
import { num, t } from './i18n.js';
import { draw } from './board.js';

const $ = (css) => document.querySelector(css);

const S = {
  games: [],
  game: 'connect4',
  start: null,
  moves: [],
  redo: [],
  view: null,
  analysis: null,
  pv: [],
  selected: [],
  rng: 1,
  token: 0,
  blunders: new Set(),
  fallback: null,
};

// ---- The server ----

async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { status: response.status });
  return data;
}

function position(moves = S.moves) {
  const body = { game: S.game, moves };
  if (S.start !== null) body.start = S.start;
  return body;
}

// ---- Random draws of the dice, seeded (a link with a seed replays the same rolls) ----

function random() {
  S.rng = (S.rng + 0x6d2b79f5) >>> 0;
  let x = S.rng;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}

function draw_outcome(probabilities) {
  let r = random();
  for (let i = 0; i < probabilities.length; i++) {
    r -= probabilities[i];
    if (r < 0) return i;
  }
  return probabilities.length - 1;
}

// ---- The address bar ----

/** The start of a game the address names none for: its standard one, or for Nim (which has none) the heaps the
 * server offers. */
function defaultStart(name) {
  const known = S.games.find((g) => g.name === name);
  return known && known.name === 'nim' ? known.start : null;
}

function readHash() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (params.get('game')) S.game = params.get('game');
  S.start = params.get('start') ?? defaultStart(S.game);
  const moves = params.get('moves');
  S.moves = moves ? moves.split(' ').filter(Boolean) : [];
  S.rng = Number(params.get('seed') ?? Math.floor(Math.random() * 2 ** 31)) >>> 0;
}

function writeHash() {
  const params = new URLSearchParams();
  params.set('game', S.game);
  if (S.start !== null) params.set('start', S.start);
  if (S.moves.length) params.set('moves', S.moves.join(' '));
  const hash = `#${params.toString()}`;
  if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
}

// ---- Words ----

/** `key`'s string, or `fallback` where the language files have none (a game string typed by hand). */
function tOr(key, fallback, vars) {
  const text = t(key, vars);
  return text === key ? fallback : text;
}

/** A player's name: the game's own word for it where it has one (Connect-4's colours), else the notation's. */
function playerName(name) {
  const game = S.game.split('(')[0];
  return tOr(`player.${game}.${name}`, tOr(`player.${name}`, name));
}

function gameName(name) {
  return tOr(`game.${name}`, name);
}

function moveName(text) {
  return tOr(`move.${text}`, i18n.digits(text));
}

// ---- Values ----

/** The value of an analysed move from the view of the side to move. */
function moverValue(move) {
  if (move.value === null || move.value === undefined) return null;
  return S.analysis.to_move === S.view_players[0] ? move.value : -move.value;
}

function valueText(value) {
  if (value === null) return '–';
  return Number.isInteger(value) ? num(value) : num(value, 2);
}

/** A sentence on the best move, in the language shown, then what it lets happen to the pieces, and a word if
 * the time ran out before the search did all it was asked. */
function explanation() {
  const a = S.analysis;
  if (!a) return '';
  const best = a.moves.find((m) => m.best);
  if (!best) return '';
  const sentences = [verdict(a, best), threatSentence(a, best)];
  if (!a.complete) sentences.push(t('explain.hurried'));
  if (S.fallback) sentences.unshift(t('explain.fallback', { depth: num(FALLBACK.depth) }));
  return sentences.filter(Boolean).join(' ');
}

/** The piece of `side` (0 the first player, 1 the second) as the board shows it, in words. */
function pieceName(side) {
  const piece = S.view.board.pieces.find((p) => p.side === side);
  return t(`piece.${piece ? piece.kind : 'disc'}.one`);
}

/** What the best move lets the opponent take, or takes itself, within a few moves. */
function threatSentence(a, best) {
  const threat = a.threat;
  if (!threat) return '';
  const mover = S.view_players.indexOf(a.to_move);
  const [move, side] = [moveName(best.move), playerName(a.to_move)];
  if (threat.loses_within) {
    return t('explain.loses_piece', { side, move, piece: pieceName(mover), moves: num(threat.loses_within) });
  }
  if (threat.captures_within) {
    return t('explain.captures_piece', { side, move, piece: pieceName(1 - mover), moves: num(threat.captures_within) });
  }
  return '';
}

/** The sentence on the best move's value. */
function verdict(a, best) {
  const move = moveName(best.move);
  const value = moverValue(best);
  const side = playerName(a.to_move);
  switch (a.source) {
    case 'exact': {
      // The side's own moves to its win (the move itself the first), or the opponent's to the loss.
      const plies = best.plies;
      if (value > 0 && plies) return t('explain.wins_in', { side, move, moves: num(Math.ceil(plies / 2)) });
      if (value < 0 && plies) return t('explain.loses_in', { side, move, moves: num(Math.floor(plies / 2)) });
      if (value > 0) return t('explain.wins', { side, move });
      if (value < 0) return t('explain.loses', { side, move });
      return t('explain.draws', { side, move });
    }
    case 'depth':
      return t('explain.depth', { side, move, depth: a.depth, value: valueText(value) });
    case 'net':
      return t('explain.net', { side, move, percent: num(((value + 1) / 2) * 100, 0), visits: num(best.visits ?? 0) });
    default:
      return t('explain.mcts', { side, move, percent: num(((value + 1) / 2) * 100, 0), visits: num(best.visits ?? 0) });
  }
}

// ---- Drawing ----

/** The moves whose gesture starts with the points entered so far. */
function matching(prefix) {
  const found = [];
  (S.view?.gestures ?? []).forEach((g, k) => {
    if (g.path.length >= prefix.length && prefix.every((p, i) => g.path[i] === p)) found.push(k);
  });
  return found;
}

function clickable() {
  const map = new Map();
  const view = S.view;
  if (!view || view.turn !== 'decision' || computerToMove()) return map;
  if (!S.selected.length) {
    for (const g of view.gestures) {
      if (!g.path.length) continue;
      map.set(g.path[0], 'legal');
      if (g.path.length === 1) for (const p of g.also) if (!map.has(p)) map.set(p, 'also');
    }
  } else {
    for (const k of matching(S.selected)) {
      const path = view.gestures[k].path;
      if (path.length > S.selected.length) {
        map.set(path[S.selected.length], 'target');
        map.set(path[path.length - 1], 'target');
      }
    }
  }
  return map;
}

function heat() {
  const map = new Map();
  const a = S.analysis;
  if (!a || !$('#heatmap').checked) return map;
  const values = a.moves.map(moverValue);
  const scale = Math.max(1, ...values.filter((v) => v !== null).map(Math.abs));
  const paths = S.selected.length ? matching(S.selected) : null;
  a.moves.forEach((move, k) => {
    const value = values[k];
    const g = S.view.gestures[k];
    if (value === null || !g || !g.path.length) return;
    if (paths && !paths.includes(k)) return;
    const multi = g.path.length > 1;
    // With nothing selected, a piece that moves shows its best move's value; a placement shows on its point.
    const at = multi && !S.selected.length ? g.path[0] : g.path[g.path.length - 1];
    const seen = map.get(at);
    if (!seen || value > seen.raw) map.set(at, { raw: value, value: value / scale, text: valueText(value) });
  });
  return map;
}

function render() {
  const view = S.view;
  if (!view) return;
  const players = view.players;
  $('#game-title').textContent = gameName(S.game);
  document.title = `${gameName(S.game)} · khela`;
  const status = $('#status');
  status.dataset.turn = view.turn;
  if (view.turn === 'over') {
    const outcome = view.outcome;
    status.textContent = outcome > 0 ? t('status.won', { side: playerName(players[0]) })
      : outcome < 0 ? t('status.won', { side: playerName(players[1]) }) : t('status.draw');
  } else if (view.turn === 'chance') {
    status.textContent = t('status.chance');
  } else {
    status.textContent = t('status.to_move', { side: playerName(view.to_move) });
  }
  const last = S.lastGesture ? S.lastGesture.path : [];
  const arrows = [];
  for (const g of S.pv) for (let i = 1; i < g.length; i++) arrows.push([g[i - 1], g[i]]);
  draw($('#board'), { board: view.board, gestures: view.gestures, clickable: clickable(), selected: S.selected, heat: heat(), arrows, last });

  const counters = $('#counters');
  counters.replaceChildren();
  for (const c of view.board.counters) {
    const span = document.createElement('span');
    span.className = `counter ${c.key}`;
    span.dataset.key = c.key;
    const side = c.side === null ? '' : playerName(players[c.side]);
    span.textContent = t(`counter.${c.key}`, { side, value: num(c.value) });
    counters.appendChild(span);
  }

  const actions = $('#actions');
  actions.replaceChildren();
  if (view.turn === 'decision' && !computerToMove()) {
    view.gestures.forEach((g, k) => {
      if (g.path.length) return;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.move = view.legal[k];
      const value = S.analysis && $('#heatmap').checked ? S.analysis.moves[k] : null;
      button.textContent = value ? `${moveName(view.legal[k])} (${valueText(moverValue(value))})` : moveName(view.legal[k]);
      button.addEventListener('click', () => play(view.legal[k], g));
      actions.appendChild(button);
    });
  }
  if (S.selected.length && matching(S.selected).some((k) => view.gestures[k].path.length === S.selected.length)) {
    const stop = document.createElement('button');
    stop.type = 'button';
    stop.id = 'stop-chain';
    stop.textContent = t('board.stop_chain');
    stop.addEventListener('click', () => onPoint(S.selected[S.selected.length - 1]));
    actions.appendChild(stop);
  }

  const list = $('#moves');
  list.replaceChildren();
  S.moves.forEach((text, i) => {
    const li = document.createElement('li');
    li.textContent = moveName(text);
    li.dataset.move = text;
    if (S.blunders.has(i)) li.classList.add('blunder');
    li.tabIndex = 0;
    li.addEventListener('click', () => goTo(i + 1));
    list.appendChild(li);
  });
  if (view.turn === 'over' && S.moves.length) {
    const li = document.createElement('li');
    li.className = 'end';
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'blunders';
    button.textContent = t('controls.blunders');
    button.addEventListener('click', findBlunders);
    li.appendChild(button);
    list.appendChild(li);
  }

  const tbody = $('#analysis tbody');
  tbody.replaceChildren();
  const a = $('#heatmap').checked ? S.analysis : null;
  $('#source').textContent = a ? sourceText(a) : '';
  $('#explain').textContent = a ? explanation() : '';
  $('#explain').title = (a && S.fallback) || ''; // the server's reason, in its words
  if (a) {
    for (const move of a.moves) {
      const tr = document.createElement('tr');
      tr.dataset.move = move.move;
      if (move.best) tr.className = 'best';
      const value = moverValue(move);
      const cells = [moveName(move.move), valueText(value), move.visits === null ? '' : num(move.visits)];
      cells.forEach((text, c) => {
        const td = document.createElement('td');
        td.textContent = text;
        if (c === 1) {
          td.className = 'value';
          if (value !== null) td.dataset.value = String(value);
        }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
  }
  $('#undo').disabled = !S.moves.length;
  $('#redo').disabled = !S.redo.length;
  $('#position').placeholder = view.start;
}

function sourceText(a) {
  switch (a.source) {
    case 'exact': return t('source.exact');
    case 'depth': return t('source.depth', { depth: a.depth });
    case 'net': {
      const [, name, simulations] = $('#analyser').value.split(':');
      return t('source.net', { name, simulations: num(Number(simulations)) });
    }
    default: return t('source.mcts', { iterations: num(Number($('#analyser').value.split(':')[1] || 0)) });
  }
}

function showError(error) {
  $('#error').textContent = error ? t('error.server', { message: error.message ?? String(error) }) : '';
}

// ---- The flow of a game ----

function computerSide() {
  const opponent = $('#opponent').value;
  return opponent === 'human' ? null : $('#opponent-side').value;
}

function computerToMove() {
  const view = S.view;
  const side = computerSide();
  if (!view || view.turn !== 'decision' || !side) return false;
  if (side === 'both') return true;
  const mover = S.view_players.indexOf(view.to_move);
  return (side === 'first') === (mover === 0);
}

function analyser() {
  const [kind, n, simulations] = $('#analyser').value.split(':');
  if (kind === 'net') return { kind, name: n, simulations: Number(simulations) };
  if (kind === 'depth') return { kind, depth: Number(n) };
  if (kind === 'mcts') return { kind, iterations: Number(n), seed: 0 };
  return { kind: 'exact' };
}

/** How long the app lets an analysis take, in milliseconds: a search answers by then with what it has. */
const ANALYSIS_MILLIS = 10000;

/** The analyser the app falls back on when an exact analysis is refused (too early in a Connect-4 game). */
const FALLBACK = { kind: 'depth', depth: 8 };

/** The analysis of a position, with the fallback for an exact one the server refuses; the refusal kept for the
 * explanation (`S.fallback`). */
async function analysed(where, how) {
  const body = { ...where, analyser: how, millis: ANALYSIS_MILLIS };
  if (how.kind === 'exact') body.fallback = FALLBACK;
  const analysis = await api('/api/analyse', body);
  S.fallback = analysis.refused ?? null;
  return analysis;
}

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Asks the server for the position, draws it, then values it, rolls the die or lets the computer move. */
async function refresh() {
  const token = ++S.token;
  document.body.dataset.busy = '1';
  try {
    await update(token);
  } catch (error) {
    if (token === S.token) showError(error);
  } finally {
    if (token === S.token) document.body.dataset.busy = '0';
  }
}

async function update(token) {
  const view = await api('/api/state', position());
  if (token !== S.token) return;
  S.view = view;
  S.view_players = view.players;
  S.selected = [];
  S.analysis = null;
  S.pv = [];
  showError(null);
  writeHash();
  render();
  if (view.turn === 'chance') {
    await pause(250);
    if (token !== S.token) return;
    S.moves.push(view.legal[draw_outcome(view.probabilities)]);
    return update(token);
  }
  if (view.turn !== 'decision') return;
  if ($('#heatmap').checked) {
    try {
      const analysis = await analysed(position(), analyser());
      if (token !== S.token) return;
      S.analysis = analysis;
      S.pv = await principalVariation(view, analysis, token);
      if (token !== S.token) return;
      render();
    } catch (error) {
      showError(error);
    }
  }
  if (computerToMove()) {
    await pause(150);
    if (token !== S.token) return;
    const move = await computerMove();
    if (token !== S.token) return;
    const k = view.legal.indexOf(move);
    S.lastGesture = view.gestures[k];
    S.moves.push(move);
    S.redo = [];
    return update(token);
  }
}

/** The paths of the principal variation's first moves, to draw as arrows: the best move, then the best reply
 * (valued as the position was), as far as PV_PLIES; the moves made on one point are skipped, as they have no
 * arrow. */
const PV_PLIES = 3;

async function principalVariation(view, analysis, token) {
  const paths = [];
  let [state, valued, moves] = [view, analysis, [...S.moves]];
  for (let ply = 0; ply < PV_PLIES; ply++) {
    const best = valued.moves.findIndex((m) => m.best);
    if (best < 0) break;
    if (state.gestures[best].path.length > 1) paths.push(state.gestures[best].path);
    moves = [...moves, state.legal[best]];
    if (ply + 1 === PV_PLIES) break;
    try {
      state = await api('/api/state', position(moves));
      if (token !== S.token || state.turn !== 'decision') break;
      valued = await analysed(position(moves), analyser());
    } catch {
      break; // a position the analyser cannot value: the arrows so far
    }
  }
  return paths;
}

async function computerMove() {
  const opponent = $('#opponent').value;
  const seed = Math.floor(random() * 2 ** 31);
  if (opponent === 'perfect') {
    // Where the exact analysis is refused (the first stones of Connect-4), the engine at the fallback's depth.
    const analysis = await analysed(position(), { kind: 'exact' });
    const best = analysis.moves.filter((m) => m.best);
    return best[Math.floor(random() * best.length)].move;
  }
  const choice = await api('/api/choose', { ...position(), player: opponent, seed });
  return choice.move;
}

function play(text, gesture) {
  S.lastGesture = gesture;
  S.moves.push(text);
  S.redo = [];
  S.blunders.clear();
  refresh();
}

/** A click (or a key, or the end of a drag) on a point. */
function onPoint(point) {
  const view = S.view;
  if (!view || view.turn !== 'decision' || computerToMove()) return;
  const gestures = view.gestures;
  const exactly = (path) => matching(path).filter((k) => gestures[k].path.length === path.length);
  if (!S.selected.length) {
    const here = gestures.findIndex((g) => g.path.length === 1 && (g.path[0] === point || g.also.includes(point)));
    const longer = matching([point]).filter((k) => gestures[k].path.length > 1);
    if (here >= 0 && !longer.length) return play(view.legal[here], gestures[here]);
    if (longer.length) S.selected = [point];
    return render();
  }
  const last = S.selected[S.selected.length - 1];
  if (point === last) {
    // A click on the last point entered ends a chain there, where the rules let it end; else it undoes the point.
    const ends = exactly(S.selected);
    if (ends.length === 1 && S.selected.length > 1) return play(view.legal[ends[0]], gestures[ends[0]]);
    S.selected = S.selected.slice(0, -1);
    return render();
  }
  const extended = [...S.selected, point];
  const onward = matching(extended);
  if (onward.length) {
    const ends = exactly(extended);
    if (ends.length === 1 && onward.length === 1) return play(view.legal[ends[0]], gestures[ends[0]]);
    S.selected = extended;
    return render();
  }
  // A chain entered as a whole: its start, then where it ends.
  const whole = matching(S.selected).filter((k) => gestures[k].path[gestures[k].path.length - 1] === point);
  if (whole.length === 1) return play(view.legal[whole[0]], gestures[whole[0]]);
  if (whole.length > 1) {
    $('#error').textContent = t('board.ambiguous');
    return undefined;
  }
  S.selected = [];
  return onPoint(point);
}

function goTo(ply) {
  while (S.moves.length > ply) S.redo.push(S.moves.pop());
  while (S.moves.length < ply && S.redo.length) S.moves.push(S.redo.pop());
  S.lastGesture = null;
  refresh();
}

function undo() {
  if (!S.moves.length) return;
  // Against the computer, back to the last position where the person was to move.
  const back = computerSide() && computerSide() !== 'both' && S.moves.length > 1 ? 2 : 1;
  goTo(S.moves.length - back);
}

function redo() {
  if (S.redo.length) goTo(S.moves.length + 1);
}

/** Marks the moves that threw the exact result away: the value of the move played below the best. */
async function findBlunders() {
  document.body.dataset.busy = '1';
  const token = S.token;
  S.blunders.clear();
  try {
    for (let ply = 0; ply < S.moves.length; ply++) {
      const body = { ...position(S.moves.slice(0, ply)), analyser: { kind: 'exact' } };
      let analysis;
      try {
        analysis = await api('/api/analyse', body);
      } catch {
        continue; // a chance node, or a position the server will not solve exactly
      }
      if (token !== S.token) return;
      const first = analysis.to_move === S.view_players[0];
      const view = (m) => (first ? m.value : -m.value);
      const played = analysis.moves.find((m) => m.move === S.moves[ply]);
      const best = Math.max(...analysis.moves.map(view));
      if (played && Math.sign(view(played)) < Math.sign(best)) S.blunders.add(ply);
    }
    render();
  } catch (error) {
    showError(error);
  } finally {
    if (token === S.token) document.body.dataset.busy = '0';
  }
}

// ---- Game records: the same text as `play --record` writes and `play --load` reads ----

async function download() {
  try {
    const { text } = await api('/api/record', position());
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = `${S.game.replace(/[^a-z0-9]+/gi, '-')}-game.txt`;
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (error) {
    showError(error);
  }
}

async function upload(file) {
  if (!file) return;
  try {
    const view = await api('/api/load', { text: await file.text() });
    S.game = view.game;
    S.start = view.start;
    S.moves = view.moves;
    S.redo = [];
    S.lastGesture = null;
    S.blunders.clear();
    fillGames();
    refresh();
  } catch (error) {
    showError(error);
  } finally {
    $('#upload').value = '';
  }
}

// ---- Controls ----

function setGame(name) {
  S.game = name;
  S.start = defaultStart(name);
  S.moves = [];
  S.redo = [];
  S.lastGesture = null;
  S.blunders.clear();
}

/** Refills `select` with its fixed options and one for each network the server has for this game (value
 * `value(name)`, words `key`'s), keeping the choice where it is still there, else `fallback`. */
function fillNets(select, key, value, fallback) {
  const current = select.value;
  for (const option of [...select.options]) if (option.value.startsWith('net:')) option.remove();
  const known = S.games.find((g) => g.name === S.game);
  for (const name of known?.nets ?? []) {
    const option = document.createElement('option');
    option.value = value(name);
    option.textContent = t(key, { name });
    select.appendChild(option);
  }
  select.value = [...select.options].some((o) => o.value === current) ? current : fallback;
}

/** The opponents: the fixed ones, and the networks the server has for this game. */
function fillOpponents() {
  fillNets($('#opponent'), 'opponent.net', (name) => `net:${name}`, 'human');
}

/** The analysers: the fixed ones, and a search by each network the server has for this game. */
function fillAnalysers() {
  fillNets($('#analyser'), 'analyser.net', (name) => `net:${name}:200`, 'exact');
}

function fillGames() {
  const select = $('#game');
  const current = S.game;
  select.replaceChildren();
  const names = S.games.map((g) => g.name);
  if (!names.includes(current)) names.push(current);
  for (const name of names) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = gameName(name);
    select.appendChild(option);
  }
  select.value = current;
  fillOpponents();
  fillAnalysers();
}

function bind() {
  $('#game').addEventListener('change', (e) => {
    setGame(e.target.value);
    fillOpponents();
    fillAnalysers();
    refresh();
  });
  $('#new').addEventListener('click', () => {
    setGame(S.game);
    refresh();
  });
  $('#load').addEventListener('click', () => {
    const text = $('#position').value.trim();
    S.start = text || null;
    S.moves = [];
    S.redo = [];
    S.lastGesture = null;
    refresh();
  });
  $('#position').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') $('#load').click();
  });
  $('#download').addEventListener('click', download);
  $('#upload').addEventListener('change', (e) => upload(e.target.files[0]));
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  for (const id of ['#heatmap', '#analyser', '#opponent', '#opponent-side']) $(id).addEventListener('change', refresh);
  $('#lang').addEventListener('click', () => i18n.setLang(i18n.lang() === 'bn' ? 'en' : 'bn'));
  $('#bengali-digits').addEventListener('change', (e) => i18n.setBengaliDigits(e.target.checked));

  const board = $('#board');
  let dragFrom = null;
  const pointOf = (target) => target.closest?.('[data-point]');
  board.addEventListener('pointerdown', (e) => {
    const g = pointOf(e.target);
    if (!g) return;
    e.preventDefault();
    dragFrom = Number(g.dataset.point);
    onPoint(dragFrom);
  });
  board.addEventListener('pointerup', (e) => {
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const g = under && pointOf(under);
    if (g && dragFrom !== null && Number(g.dataset.point) !== dragFrom && S.selected.length) onPoint(Number(g.dataset.point));
    dragFrom = null;
  });
  board.addEventListener('keydown', (e) => {
    const g = pointOf(e.target);
    if (g && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onPoint(Number(g.dataset.point));
      board.querySelector(`[data-point="${g.dataset.point}"]`)?.focus();
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input, select, textarea')) return;
    if ((e.ctrlKey || e.metaKey) && e.key === 'z') undo();
    else if ((e.ctrlKey || e.metaKey) && e.key === 'y') redo();
    else if (e.key === 'Escape' && S.selected.length) {
      S.selected = [];
      render();
    }
  });
  window.addEventListener('hashchange', () => {
    const before = [S.game, S.start, S.moves.join(' ')].join('|');
    readHash();
    if ([S.game, S.start, S.moves.join(' ')].join('|') !== before) refresh();
  });
}

async function main() {
  await i18n.load();
  $('#bengali-digits').checked = i18n.bengaliDigits();
  i18n.onChange(() => {
    $('#bengali-digits').checked = i18n.bengaliDigits();
    fillGames();
    render();
  });
  S.games = await api('/api/games');
  readHash();
  fillGames();
  bind();
  await refresh();
}

main().catch((error) => {
  showError(error);
  document.body.dataset.busy = '0';
});
