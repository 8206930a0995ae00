// The textbook's page (/textbook): minimax and alpha-beta stepped through an explicit tree drawn as SVG, from the
// server's trace (POST /api/trace), and the move-ordering table of a random tree (POST /api/ordering). Every word
// comes from the language files through i18n.js; node names and tree notation are the API's, marked
// `data-notation`. `document.body.dataset.busy` is "1" while the page loads or waits for the server, "0" when idle.

import { apply, bengaliDigits, digits, lang, load, num, onChange, setBengaliDigits, setLang, t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (css) => document.querySelector(css);

/** What the page shows: the trace, the step reached, the tree drawn, the ordering table. */
const page = {
  trace: null,
  tree: null,
  byName: new Map(),
  step: 0,
  traceRequest: 0,
  ordering: null,
  orderingParams: null,
};

// ---- Waiting for the server -------------------------------------------------------------------------------------

let pending = 1; // The page's own loading, ended in `start`.

function setBusy(delta) {
  pending += delta;
  document.body.dataset.busy = pending > 0 ? '1' : '0';
}

/** Runs `work` with the page marked busy until it (and what it renders) is done. */
async function busyWhile(work) {
  setBusy(1);
  try {
    return await work();
  } finally {
    setBusy(-1);
  }
}

/** A refusal by the API: its message, as the server wrote it (in English). */
class Refusal extends Error {}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Refusal(answer?.error ?? `HTTP ${response.status}`);
  return answer;
}

// ---- Writing text -----------------------------------------------------------------------------------------------

/** Tree notation or a node's name, which no language translates. */
function notation(text) {
  return { notation: text };
}

/** A count with its thousands grouped, in the digits chosen. */
function count(n) {
  return digits(Number(n).toLocaleString('en-US'));
}

/**
 * Fills `el` with the string `key`, its `{name}` placeholders replaced by `vars`: a number through `num`, a
 * string through `digits`, `notation(text)` as a `data-notation` span, an array as a comma-separated list of these.
 */
function fill(el, key, vars = {}) {
  const template = t(key);
  el.replaceChildren();
  const parts = template.split(/\{(\w+)\}/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) el.append(part);
      return;
    }
    const value = vars[part];
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, j) => {
      if (j > 0) el.append(t('textbook.list.separator'));
      el.append(piece(item, part));
    });
  });
}

function piece(item, placeholder) {
  if (item === undefined || item === null) return `{${placeholder}}`;
  if (typeof item === 'number') return num(item, 2);
  if (typeof item === 'object' && 'notation' in item) {
    const span = document.createElement('span');
    span.className = 'notation';
    span.dataset.notation = '';
    span.textContent = item.notation;
    return span;
  }
  return digits(String(item));
}

/** A value with its bound: `5`, `≥ 5` (a lower bound), `≤ 3` (an upper bound). */
function boundedValue(value, bound) {
  const shown = num(value, 2);
  if (bound === 'lower') return `≥${shown}`;
  if (bound === 'upper') return `≤${shown}`;
  return shown;
}

// ---- The tree -----------------------------------------------------------------------------------------------------

/** The node's name as the API gives it (khela_games::tree::Tree::name): A, B, …, Z, AA, … below the root. */
function letterName(index) {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    n -= 1;
    name = String.fromCharCode(65 + (n % 26)) + name;
    n = Math.floor(n / 26);
  }
  return name;
}

/**
 * Parses the nested-list notation the API reads (`[..]` a decision node, `{p:child,..}` a chance node, integers
 * the leaves) into nodes named and given their player as the API does; throws on text the API would refuse too
 * (the page asks the API first, so its message is the one shown).
 */
function parseTree(text, rootPlayer) {
  let pos = 0;
  const space = () => {
    while (pos < text.length && /\s/.test(text[pos])) pos += 1;
  };
  const expect = (c) => {
    space();
    if (text[pos] !== c) throw new Error(`expected ${c} at ${pos}`);
    pos += 1;
  };
  const node = () => {
    space();
    const c = text[pos];
    if (c === '[' || c === '{') {
      pos += 1;
      const chance = c === '{';
      const children = [];
      for (;;) {
        if (chance) {
          space();
          const colon = text.indexOf(':', pos);
          if (colon < 0) throw new Error(`expected : after ${pos}`);
          pos = colon + 1;
        }
        children.push(node());
        space();
        if (text[pos] === ',') {
          pos += 1;
          continue;
        }
        expect(chance ? '}' : ']');
        return { kind: chance ? 'chance' : 'decision', children };
      }
    }
    const match = /^-?\d+/.exec(text.slice(pos));
    if (!match) throw new Error(`expected a leaf at ${pos}`);
    pos += match[0].length;
    return { kind: 'leaf', value: Number(match[0]), children: [] };
  };
  const root = node();
  space();
  if (pos < text.length) throw new Error(`unexpected text at ${pos}`);
  const name = (n, path, player, depth, parent) => {
    n.name = path;
    n.depth = depth;
    n.parent = parent;
    n.player = n.kind === 'decision' ? player : null;
    const below = n.kind === 'decision' ? (player === 'max' ? 'min' : 'max') : player;
    n.children.forEach((child, i) => {
      name(child, parent === null ? letterName(i) : `${path}.${i + 1}`, below, depth + 1, n);
    });
  };
  name(root, 'root', rootPlayer, 0, null);
  return root;
}

function svgElement(tag, attributes = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
  return el;
}

/** Draws `root` into svg#tree: leaves evenly spaced left to right, each parent centred over its children. */
function drawTree(root) {
  const svg = $('svg#tree');
  svg.replaceChildren();
  page.byName = new Map();
  const nodes = [];
  let leaves = 0;
  let depth = 0;
  const dx = 48;
  const dy = 78;
  const place = (n) => {
    nodes.push(n);
    depth = Math.max(depth, n.depth);
    if (n.kind === 'leaf') {
      n.x = leaves * dx;
      leaves += 1;
    } else {
      n.children.forEach(place);
      n.x = (n.children[0].x + n.children[n.children.length - 1].x) / 2;
    }
    n.y = n.depth * dy;
  };
  place(root);
  const margin = { x: 34, top: 46, bottom: 24 };
  const width = Math.max((leaves - 1) * dx, 0) + 2 * margin.x;
  const height = depth * dy + margin.top + margin.bottom;
  svg.setAttribute('viewBox', `${-margin.x} ${-margin.top} ${width} ${height}`);
  svg.style.maxWidth = `${Math.max(width * 1.4, 320)}px`;
  const edges = svgElement('g', { class: 'edges' });
  const shapes = svgElement('g', { class: 'nodes' });
  svg.append(edges, shapes);
  for (const n of nodes) {
    if (n.parent) {
      n.edge = svgElement('line', { class: 'edge', x1: n.parent.x, y1: n.parent.y, x2: n.x, y2: n.y });
      edges.append(n.edge);
    }
    const g = svgElement('g', { class: `node ${n.kind === 'decision' ? n.player : n.kind}`, 'data-node': n.name });
    g.setAttribute('transform', `translate(${n.x} ${n.y})`);
    const r = 17;
    let shape;
    if (n.kind === 'leaf') {
      shape = svgElement('rect', { x: -15, y: -15, width: 30, height: 30, rx: 3 });
      g.dataset.leafValue = String(n.value);
    } else if (n.kind === 'chance') {
      shape = svgElement('circle', { r });
    } else if (n.player === 'max') {
      shape = svgElement('polygon', { points: `0,${-r - 3} ${r + 4},${r - 2} ${-r - 4},${r - 2}` });
    } else {
      shape = svgElement('polygon', { points: `${-r - 4},${-r + 2} ${r + 4},${-r + 2} 0,${r + 3}` });
    }
    shape.classList.add('shape');
    const value = svgElement('text', { class: 'value', y: n.kind === 'decision' ? (n.player === 'max' ? 4 : -4) : 0 });
    const title = svgElement('title');
    title.dataset.notation = '';
    g.append(shape, value, title);
    if (n.kind !== 'leaf') {
      const label = svgElement('text', { class: 'name', x: 0, y: -r - 13 });
      if (n.name !== 'root') label.dataset.notation = '';
      g.append(label);
      n.label = label;
    }
    n.g = g;
    n.valueText = value;
    n.title = title;
    shapes.append(g);
    page.byName.set(n.name, n);
  }
}

function subtree(n, visit) {
  visit(n);
  n.children.forEach((child) => subtree(child, visit));
}

/** Shows the tree and the text as they stand after `k` of the trace's steps. */
function show(k) {
  const trace = page.trace;
  page.step = k;
  if (!trace || !page.tree) return;
  for (const n of page.byName.values()) {
    n.g.classList.remove('backed', 'pruned', 'current');
    n.edge?.classList.remove('pruned');
    delete n.g.dataset.value;
    delete n.g.dataset.bound;
    n.valueText.textContent = n.kind === 'leaf' ? num(n.value) : '';
    n.title.textContent = n.name === 'root' ? t('textbook.node.root') : n.name;
    if (n.label) n.label.textContent = n.name === 'root' ? t('textbook.node.root') : n.name;
  }
  trace.steps.slice(0, k).forEach((step, i) => {
    const last = i === k - 1;
    if (step.event === 'backed') {
      const n = page.byName.get(step.node);
      if (!n) return;
      n.g.classList.add('backed');
      n.g.dataset.value = String(step.value);
      n.g.dataset.bound = step.bound;
      n.valueText.textContent = boundedValue(step.value, step.bound);
      if (last) n.g.classList.add('current');
    } else {
      for (const name of step.nodes) {
        const top = page.byName.get(name);
        if (!top) continue;
        subtree(top, (n) => {
          n.g.classList.add('pruned');
          n.edge?.classList.add('pruned');
        });
        if (last) top.g.classList.add('current');
      }
    }
  });
  const total = trace.steps.length;
  if (k === 0) fill($('#progress'), 'textbook.progress.start', { steps: total });
  else fill($('#progress'), 'textbook.progress', { step: k, steps: total });
  const event = $('#event');
  if (k === 0) event.replaceChildren();
  else describe(event, trace.steps[k - 1]);
  const summary = $('#summary');
  const done = k === total;
  summary.hidden = !done;
  if (done) {
    fill(summary, trace.best ? 'textbook.summary' : 'textbook.summary.leaf', {
      nodes: trace.nodes,
      tree_nodes: trace.tree_nodes,
      leaves: trace.leaves,
      value: trace.value,
      best: trace.best ? notation(trace.best) : '',
    });
    Object.assign(summary.dataset, {
      nodes: String(trace.nodes),
      treeNodes: String(trace.tree_nodes),
      leaves: String(trace.leaves),
      value: String(trace.value),
      best: trace.best ?? '',
    });
  } else {
    summary.replaceChildren();
    for (const key of ['nodes', 'treeNodes', 'leaves', 'value', 'best']) delete summary.dataset[key];
  }
  $('#step').disabled = done;
  $('#run').disabled = done;
  $('#back').disabled = k === 0;
  $('#reset').disabled = k === 0;
}

function describe(el, step) {
  if (step.event === 'backed') {
    const node = step.node === 'root' ? t('textbook.event.root') : notation(step.node);
    fill(el, `textbook.event.${step.bound}`, { node, value: step.value });
  } else {
    fill(el, 'textbook.event.pruned', {
      nodes: step.nodes.map(notation),
      leaves: step.leaves.map((leaf) => num(leaf)),
    });
  }
}

function showTraceError(message) {
  const el = $('#trace-error');
  if (!message) {
    el.replaceChildren();
    return;
  }
  const text = document.createElement('span');
  text.lang = 'en';
  text.textContent = message;
  el.replaceChildren(`${t('textbook.error.trace')} `, text);
}

/** Asks the server for the trace of the tree, root and search chosen, and shows it from its first step. */
function loadTrace() {
  const request = { tree: $('textarea#tree-text').value, root: $('#root').value, algorithm: $('#algorithm').value };
  const id = ++page.traceRequest;
  return busyWhile(async () => {
    let trace;
    try {
      trace = await post('/api/trace', request);
    } catch (err) {
      if (id !== page.traceRequest) return;
      page.trace = null;
      page.tree = null;
      $('svg#tree').replaceChildren();
      for (const el of ['#progress', '#event']) $(el).replaceChildren();
      $('#summary').hidden = true;
      for (const button of ['#step', '#back', '#run', '#reset']) $(button).disabled = true;
      showTraceError(err instanceof Refusal ? err.message : String(err));
      return;
    }
    if (id !== page.traceRequest) return;
    showTraceError('');
    page.trace = trace;
    try {
      page.tree = parseTree(request.tree, request.root);
    } catch {
      page.tree = null;
    }
    if (page.tree) drawTree(page.tree);
    else $('svg#tree').replaceChildren();
    show(0);
  });
}

// ---- The move-ordering table --------------------------------------------------------------------------------------

function orderingParams() {
  return {
    branching: Number($('#branching').value),
    depth: Number($('#depth').value),
    seed: Number($('#seed').value),
    generator: $('#generator').value,
  };
}

function loadOrdering() {
  const params = orderingParams();
  $('#compare').disabled = true;
  return busyWhile(async () => {
    const error = $('#ordering-error');
    try {
      page.ordering = await post('/api/ordering', params);
      page.orderingParams = params;
      error.replaceChildren();
    } catch (err) {
      page.ordering = null;
      const text = document.createElement('span');
      text.lang = 'en';
      text.textContent = err instanceof Refusal ? err.message : String(err);
      error.replaceChildren(`${t('textbook.error.ordering')} `, text);
    } finally {
      $('#compare').disabled = false;
    }
    showOrdering();
  });
}

function showOrdering() {
  fill($('#ordering-intro'), 'textbook.ordering.intro', { lo: 0, hi: 99, b: 4, d: 6, seed: 42 });
  const body = $('#ordering-table tbody');
  const caption = $('#ordering-caption');
  body.replaceChildren();
  caption.replaceChildren();
  const table = page.ordering;
  if (!table) return;
  const baseline = Math.max(table.rows[0]?.leaves ?? 1, 1);
  for (const row of table.rows) {
    const tr = document.createElement('tr');
    Object.assign(tr.dataset, {
      algorithm: row.algorithm,
      ordering: row.ordering,
      leaves: String(row.leaves),
      nodes: String(row.nodes),
    });
    const cells = [
      [t(`textbook.algorithm.${row.algorithm}`), ''],
      [t(`textbook.ordering.order.${row.ordering}`), ''],
      [num(row.value, 2), 'number'],
      [count(row.leaves), 'number leaves'],
      [count(row.nodes), 'number nodes'],
      [`${num((100 * row.leaves) / baseline, 1)}%`, 'number'],
    ];
    for (const [text, className] of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      if (className) td.className = className;
      tr.append(td);
    }
    body.append(tr);
  }
  const p = page.orderingParams;
  fill(caption, 'textbook.ordering.caption', {
    b: p.branching,
    d: p.depth,
    seed: p.seed,
    nodes: Number(table.tree_nodes).toLocaleString('en-US'),
    leaves: Number(table.tree_leaves).toLocaleString('en-US'),
    minimum: table.knuth_moore === null ? '—' : Number(table.knuth_moore).toLocaleString('en-US'),
  });
}

// ---- The language and the page ------------------------------------------------------------------------------------

function showSwitches() {
  const other = lang() === 'bn' ? 'en' : 'bn';
  const button = $('#lang');
  button.textContent = t('textbook.lang.other');
  button.lang = other;
  button.dataset.lang = other;
  $('#digits').checked = bengaliDigits();
}

function refresh() {
  showSwitches();
  show(page.step);
  showOrdering();
}

function choosePreset() {
  const preset = $('#tree-preset');
  const text = $('textarea#tree-text').value.replace(/\s+/g, '');
  const match = [...preset.options].find((option) => option.value && option.value === text);
  preset.value = match ? match.value : '';
}

async function start() {
  await load();
  $('textarea#tree-text').value = $('#tree-preset').value;
  onChange(refresh);
  $('#lang').addEventListener('click', () => setLang(lang() === 'bn' ? 'en' : 'bn'));
  $('#digits').addEventListener('change', (event) => setBengaliDigits(event.target.checked));
  $('#tree-preset').addEventListener('change', (event) => {
    if (event.target.value) $('textarea#tree-text').value = event.target.value;
    else $('textarea#tree-text').focus();
    loadTrace();
  });
  // Typing asks for a trace once the typist pauses; the page is busy from the first key to the answer.
  let typing = null;
  $('textarea#tree-text').addEventListener('input', () => {
    if (typing === null) setBusy(1);
    clearTimeout(typing);
    typing = setTimeout(() => {
      typing = null;
      choosePreset();
      loadTrace().finally(() => setBusy(-1));
    }, 400);
  });
  $('#root').addEventListener('change', loadTrace);
  $('#algorithm').addEventListener('change', loadTrace);
  $('#step').addEventListener('click', () => show(Math.min(page.step + 1, page.trace?.steps.length ?? 0)));
  $('#back').addEventListener('click', () => show(Math.max(page.step - 1, 0)));
  $('#run').addEventListener('click', () => show(page.trace?.steps.length ?? 0));
  $('#reset').addEventListener('click', () => show(0));
  $('#ordering-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadOrdering();
  });
  apply();
  await Promise.all([loadTrace(), loadOrdering()]);
}

start()
  .catch((err) => {
    showTraceError(String(err));
  })
  .finally(() => setBusy(-1));
