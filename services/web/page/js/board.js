// Any game's board as SVG, from the board view alone (engine/core/board_view.h): cells are
// unit squares or pointy-topped hexagons of unit circumradius at (x, y), already turned to
// the perspective seat's edge by the server; pieces are discs in their seat's colour with the
// piece's symbol; frozen armies are greyed; the last action's cells are marked; a dart's aim
// is a crosshair and its landing an animated flight from the aim.

const SVG = 'http://www.w3.org/2000/svg';
const SQUARE_SHADES = ['#f0d9b5', '#b58863', '#d8c3a0', '#9c7550'];
const HEX_SHADES = ['#e9dfc8', '#cbb692', '#a98d66', '#e3cfa8', '#bfa57d', '#8f7453', '#f2ead8', '#d6c29d'];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push(`${(x + r * Math.cos(a)).toFixed(4)},${(y + r * Math.sin(a)).toFixed(4)}`);
  }
  return pts.join(' ');
}

// A readable text colour on `fill` (a CSS hex colour; anything else gets dark text).
function inkFor(fill) {
  const m = /^#?([0-9a-f]{6})$/i.exec(fill || '');
  if (!m) return '#111';
  const n = parseInt(m[1], 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? '#111' : '#fafafa';
}

// Draws `board` and returns the <svg>. Options: coordinates (ids on cells), selected (a cell
// id), targets (cell ids lit as legal destinations), movable (cells a move can start from),
// clue (cell ids), onCell(cellId).
export function drawBoard(board, opts = {}) {
  const cells = board.cells || [];
  const hex = board.shape === 'hex';
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const pad = hex ? 1.1 : 0.6;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - Math.min(...xs) + 2 * pad;
  const h = Math.max(...ys) - Math.min(...ys) + 2 * pad;
  const svg = el('svg', {
    viewBox: `${minX} ${minY} ${w} ${h}`,
    class: `board board-${hex ? 'hex' : 'square'}`,
    role: 'img',
    'aria-label': `${board.game} board, seen from ${seatName(board, board.perspective)}`,
  });
  svg.dataset.perspective = String(board.perspective);
  const byId = new Map(cells.map((c) => [c.id, c]));
  const last = new Set(board.last_action_cells || []);
  const targets = new Set(opts.targets || []);
  const clue = new Set(opts.clue || []);
  const movable = new Set(opts.movable || []);
  const shades = hex ? HEX_SHADES : SQUARE_SHADES;

  const gCells = el('g', { class: 'cells' }, svg);
  for (const c of cells) {
    const fill = shades[((c.shade % shades.length) + shades.length) % shades.length];
    const shape = hex
      ? el('polygon', { points: hexPoints(c.x, c.y, 0.97), fill }, gCells)
      : el('rect', { x: c.x - 0.5, y: c.y - 0.5, width: 1, height: 1, fill }, gCells);
    shape.classList.add('cell');
    if (last.has(c.id)) shape.classList.add('last');
    if (opts.selected === c.id) shape.classList.add('selected');
    if (clue.has(c.id)) shape.classList.add('clue');
    if (movable.has(c.id)) shape.classList.add('movable');
    shape.dataset.cell = c.id;
    if (opts.coordinates) {
      const t = el('text', { x: c.x, y: c.y + (hex ? 0.62 : 0.42), class: 'coord' }, gCells);
      t.textContent = c.id;
    }
  }

  const gPieces = el('g', { class: 'pieces' }, svg);
  const frozenSeats = new Set(board.frozen_seats || []);
  for (const p of board.pieces || []) {
    const c = byId.get(p.cell);
    if (!c) continue;
    const frozen = p.frozen || frozenSeats.has(p.seat);
    const colour = frozen ? '#9a9a9a' : (board.seats?.[p.seat]?.colour || '#777');
    const g = el('g', { class: `piece seat-${p.seat}${frozen ? ' frozen' : ''}` }, gPieces);
    g.dataset.cell = p.cell;
    g.dataset.seat = String(p.seat);
    g.dataset.kind = p.kind;
    el('circle', { cx: c.x, cy: c.y, r: hex ? 0.62 : 0.4, fill: colour }, g);
    const t = el('text', { x: c.x, y: c.y + (hex ? 0.24 : 0.15), fill: inkFor(colour) }, g);
    t.textContent = p.symbol || (p.kind || '?')[0].toUpperCase();
    const title = el('title', {}, g);
    title.textContent = `${seatName(board, p.seat)} ${p.kind} on ${p.cell}${frozen ? ' (frozen)' : ''}`;
  }

  const gMarks = el('g', { class: 'marks' }, svg);
  for (const id of targets) {
    const c = byId.get(id);
    if (c) el('circle', { cx: c.x, cy: c.y, r: 0.2, class: 'target', 'data-cell': id }, gMarks);
  }
  const aim = byId.get(board.dart_aim);
  if (aim) {
    const g = el('g', { class: 'dart-aim' }, gMarks);
    el('circle', { cx: aim.x, cy: aim.y, r: 0.55 }, g);
    el('line', { x1: aim.x - 0.8, y1: aim.y, x2: aim.x + 0.8, y2: aim.y }, g);
    el('line', { x1: aim.x, y1: aim.y - 0.8, x2: aim.x, y2: aim.y + 0.8 }, g);
  }
  if (board.dart_landing) {
    const land = byId.get(board.dart_landing);
    const from = aim || land;
    if (land) {
      const dot = el('circle', { cx: land.x, cy: land.y, r: 0.3, class: 'dart-landing' }, gMarks);
      if (from && from !== land) {
        el('animate', { attributeName: 'cx', from: from.x, to: land.x, dur: '0.8s', fill: 'freeze' }, dot);
        el('animate', { attributeName: 'cy', from: from.y, to: land.y, dur: '0.8s', fill: 'freeze' }, dot);
      }
    } else if (board.dart_landing === 'miss') {
      const t = el('text', { x: minX + 0.5, y: minY + 0.9, class: 'dart-miss' }, gMarks);
      t.textContent = 'dart missed';
    }
  }

  if (opts.onCell) {
    svg.addEventListener('click', (e) => {
      const hit = e.target.closest('[data-cell]');
      if (hit) opts.onCell(hit.dataset.cell);
    });
  }
  return svg;
}

export function seatName(board, seat) {
  const s = board?.seats?.[seat];
  return s ? s.name : `seat ${seat}`;
}
