// Replay of a game move by move from its record (every position's board view comes from
// arena-web's ReplayBoards), with a link per position: #/replay/<game>/<n>.

import { web } from './api.js';
import { drawBoard } from './board.js';
import { clear, errorBox, h } from './dom.js';

export function replayGame(root, gameId, startAt) {
  const st = { data: null, at: Number(startAt) || 0, perspective: 0, coords: false, error: null };
  const box = h('section', { class: 'replay', 'data-game': gameId });
  clear(root).appendChild(box);

  const link = (n) => `#/replay/${encodeURIComponent(gameId)}/${n}`;
  function go(n) {
    const last = st.data.positions.length - 1;
    st.at = Math.max(0, Math.min(last, n));
    history.replaceState(null, '', link(st.at));
    render();
  }
  function onKey(e) {
    if (!st.data || e.target.closest('input, select, textarea')) return;
    if (e.key === 'ArrowRight') go(st.at + 1);
    if (e.key === 'ArrowLeft') go(st.at - 1);
  }
  document.addEventListener('keydown', onKey);

  function render() {
    clear(box);
    box.appendChild(h('h1', {}, `Replay · ${gameId}`));
    if (st.error) return box.appendChild(errorBox(st.error));
    if (!st.data) return box.appendChild(h('p', {}, 'loading…'));
    const d = st.data;
    const p = d.positions[st.at];
    const board = { ...d, ...p, cells: d.cells, seats: d.seats };
    const last = d.positions.length - 1;
    const moves = d.positions.slice(1).map((q, i) => h('li', { class: i + 1 === st.at ? 'current' : '' },
      h('a', { href: link(i + 1), onclick: (e) => { e.preventDefault(); go(i + 1); } },
        `${i + 1}. ${q.action}`),
      q.annotation ? h('details', { class: 'reasoning' }, h('summary', {}, 'reasoning'), h('p', {}, q.annotation)) : null));
    box.append(
      h('div', { class: 'game-body' },
        h('div', { class: 'board-box', id: 'board' }, drawBoard(board, { coordinates: st.coords }),
          h('div', { class: 'board-controls' },
            h('button', { id: 'first', onclick: () => go(0) }, '⏮'),
            h('button', { id: 'prev', onclick: () => go(st.at - 1) }, '◀'),
            h('span', { id: 'position', class: 'position' }, `position ${st.at} of ${last}`),
            h('button', { id: 'next', onclick: () => go(st.at + 1) }, '▶'),
            h('button', { id: 'last', onclick: () => go(last) }, '⏭'),
            h('input', { type: 'range', min: 0, max: last, value: st.at, 'aria-label': 'position', oninput: (e) => go(Number(e.target.value)) }),
            h('select', { id: 'perspective', onchange: (e) => { st.perspective = Number(e.target.value); load(); } },
              (d.seats || []).map((s, i) => h('option', { value: i, selected: i === st.perspective }, `seen from ${s.name}`))),
            h('label', {}, h('input', { type: 'checkbox', checked: st.coords, onchange: (e) => { st.coords = e.target.checked; render(); } }), ' coordinates'))),
        h('aside', { class: 'side' },
          h('p', {}, 'Link to this position: ', h('a', { id: 'share', href: link(st.at) }, `${location.origin}/${link(st.at)}`)),
          p.action ? h('p', {}, 'Last action: ', h('code', { id: 'last-action' }, p.action)) : h('p', {}, 'Start position'),
          h('ol', { class: 'moves', id: 'moves' }, moves))));
  }

  async function load() {
    try {
      st.data = await web('ReplayBoards', { game_id: gameId, perspective: st.perspective });
      st.at = Math.min(st.at, st.data.positions.length - 1);
    } catch (e) {
      st.error = e;
    }
    render();
  }
  render();
  load();
  return () => document.removeEventListener('keydown', onKey);
}
