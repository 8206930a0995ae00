// Draws any game's board from the server's description (khela::board): its points, lines, pieces, the moves that
// can start or end on each point, the values of the heatmap and the principal variation's arrows. It knows no
// game's rules: every game is points, lines and pieces.

import { t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/** The colour of a value from the mover's view, −1 (lost, red) through 0 (even, yellow) to +1 (won, green). */
export function heatColour(value) {
  const v = Math.max(-1, Math.min(1, value));
  const hue = 60 + 60 * v;
  return `hsl(${hue}, 75%, 55%)`;
}

/** The words for a piece, for screen readers. */
function pieceWords(piece) {
  const side = t(`side.name${piece.side}`);
  const kind = t(`piece.${piece.kind}`);
  const label = piece.label ? ` ${piece.label}` : '';
  const count = piece.count > 1 ? ` ×${piece.count}` : '';
  return `${kind}${label}${count} (${side})`;
}

/** The shape of one piece at (x, y). */
function drawPiece(group, piece, x, y) {
  const cls = `piece ${piece.kind} side-${piece.side}`;
  switch (piece.kind) {
    case 'cross': {
      const d = 0.28;
      el('path', { class: cls, d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}` }, group);
      break;
    }
    case 'ring':
      el('circle', { class: cls, cx: x, cy: y, r: 0.3 }, group);
      break;
    case 'token':
      el('circle', { class: cls, cx: x, cy: y, r: 0.3 }, group);
      break;
    case 'cube': {
      el('rect', { class: cls, x: x - 0.36, y: y - 0.36, width: 0.72, height: 0.72, rx: 0.1 }, group);
      const label = el('text', { class: `label side-${piece.side}`, x, y }, group);
      label.textContent = piece.label ?? '';
      break;
    }
    case 'tiger':
    case 'goat': {
      el('circle', { class: cls, cx: x, cy: y, r: 0.32 }, group);
      const label = el('text', { class: `label ${piece.kind}`, x, y }, group);
      label.textContent = t(`piece.${piece.kind}.letter`);
      break;
    }
    default:
      el('circle', { class: cls, cx: x, cy: y, r: 0.38 }, group);
  }
  if (piece.count > 1) {
    el('circle', { class: 'count-badge', cx: x + 0.28, cy: y - 0.28, r: 0.15 }, group);
    const count = el('text', { class: 'count', x: x + 0.28, y: y - 0.28 }, group);
    count.textContent = String(piece.count);
  }
}

/** The kind of a Dots and Boxes point, from where it lies: a dot, an edge's middle, or a box's middle. */
function dotsKind(point) {
  const half = (v) => Math.abs(v - Math.round(v)) > 0.25;
  const halves = Number(half(point.x)) + Number(half(point.y));
  return ['dot', 'edge', 'box'][halves];
}

/**
 * Draws `view` into `svg`.
 * - `view.board`, `view.gestures`: the server's board and every legal move's gesture.
 * - `view.clickable`: point → 'legal' (a move starts there) or 'target' (the selected path goes on there).
 * - `view.selected`: the points of the path entered so far.
 * - `view.heat`: point → { value (mover's view, −1..1), text }.
 * - `view.arrows`: [[from, to], …], the principal variation's moves, the first first.
 * - `view.last`: the points of the last move played.
 */
export function draw(svg, view) {
  const { board } = view;
  svg.replaceChildren();
  const points = board.points;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const pad = board.style === 'cells' ? 0.55 : 0.6;
  const [x0, x1] = xs.length ? [Math.min(...xs) - pad, Math.max(...xs) + pad] : [0, 1];
  const [y0, y1] = ys.length ? [Math.min(...ys) - pad, Math.max(...ys) + pad] : [0, 1];
  svg.setAttribute('viewBox', `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
  svg.dataset.style = board.style;
  if (!points.length) {
    svg.setAttribute('hidden', '');
    return;
  }
  svg.removeAttribute('hidden');
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0L10,5L0,10z' }, marker);

  if (board.style === 'lines') el('rect', { class: 'wood', x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 0.2 }, svg);
  if (board.style === 'cells') {
    for (const p of points) el('rect', { class: 'cell', x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1 }, svg);
  }
  for (const link of board.links) {
    const [a, b] = [points[link.from], points[link.to]];
    el('line', { class: `link${link.played ? ' played' : ''}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y }, svg);
  }
  const piecesAt = new Map();
  for (const piece of board.pieces) piecesAt.set(piece.point, piece);

  const lastPoints = new Set(view.last ?? []);
  points.forEach((p, i) => {
    const kind = board.style === 'dots' ? dotsKind(p) : 'point';
    const state = view.clickable.get(i);
    const classes = ['point', kind];
    if (state) classes.push(state);
    if (view.selected.includes(i)) classes.push('selected');
    const group = el('g', { class: classes.join(' '), 'data-point': i, 'data-name': p.name }, svg);
    const words = [p.name];
    const piece = piecesAt.get(i);
    if (piece) words.push(pieceWords(piece));
    const heat = view.heat.get(i);
    if (heat) {
      group.dataset.value = heat.text;
      words.push(t('board.value', { value: heat.text }));
    }
    if (state) words.push(t(state === 'target' ? 'board.target' : 'board.legal'));
    group.setAttribute('role', 'button');
    group.setAttribute('aria-label', words.join(', '));
    group.setAttribute('tabindex', state && state !== 'also' ? '0' : '-1');
    el('title', {}, group).textContent = words.join(', ');
    const radius = board.style === 'cells' ? 0.5 : 0.42;
    if (board.style === 'cells') el('rect', { class: 'hit', x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1 }, group);
    else el('circle', { class: 'hit', cx: p.x, cy: p.y, r: board.style === 'dots' && kind !== 'dot' ? 0.3 : radius }, group);
    if (board.style === 'lines' || (board.style === 'dots' && kind === 'dot')) el('circle', { class: 'spot', cx: p.x, cy: p.y, r: 0.07 }, group);
    if (lastPoints.has(i)) el('circle', { class: 'last-move', cx: p.x, cy: p.y, r: 0.45 }, group);
    if (heat) el('circle', { class: 'heat-spot', cx: p.x, cy: p.y, r: piece ? 0.46 : 0.3, fill: heatColour(heat.value) }, group);
    if (piece) drawPiece(group, piece, p.x, p.y);
    if (state && state !== 'also' && !heat) {
      if (piece) el('circle', { class: 'mark ring', cx: p.x, cy: p.y, r: 0.44 }, group);
      else el('circle', { class: 'mark', cx: p.x, cy: p.y, r: 0.12 }, group);
    }
    if (heat) {
      const text = el('text', { class: 'heat', x: p.x, y: piece ? p.y + 0.3 : p.y }, group);
      text.textContent = heat.text;
    }
  });
  (view.arrows ?? []).forEach(([from, to], n) => {
    const [a, b] = [points[from], points[to]];
    const shorten = 0.25;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const [dx, dy] = [((b.x - a.x) / len) * shorten, ((b.y - a.y) / len) * shorten];
    el('line', { class: `arrow${n ? ' later' : ''}`, x1: a.x + dx, y1: a.y + dy, x2: b.x - dx, y2: b.y - dy }, svg);
  });
}
