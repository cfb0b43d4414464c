// The game view: a live game followed over Server-Sent Events, drawn from its board view;
// seats with clocks; the move list with each model move's stated reasoning and attempts; and,
// for a seat this browser holds, play by clicking (legal destinations lit at beginner level),
// draw offers, resignation and clues.

import { arena, follow, game, rememberSeat, seatFor, session, web } from './api.js';
import { drawBoard, seatName } from './board.js';
import { clear, clock, errorBox, h } from './dom.js';
import { seatLabel, statusWord } from './seats.js';

function kindForPhase(phase, text) {
  if (phase === 'dart-aim') return 'ACTION_KIND_DART_AIM';
  if (phase === 'placement') return text === 'skip' ? 'ACTION_KIND_PLACEMENT_SKIP' : 'ACTION_KIND_PLACEMENT';
  if (phase === 'penalty') return 'ACTION_KIND_PENALTY_CHOICE';
  if (text === 'pass') return 'ACTION_KIND_PASS';
  return 'ACTION_KIND_MOVE';
}

function detailOf(ev) {
  try {
    return JSON.parse(ev.detail_json || '{}');
  } catch {
    return {};
  }
}

// Attempts of a model turn, from arena's ExportGame (illegal tries labelled).
function attemptsList(turn) {
  const attempts = Array.isArray(turn.attempts) ? turn.attempts : [];
  if (!attempts.length) return null;
  return h('ol', { class: 'attempts' }, attempts.map((a) => {
    const verdict = a.outcome || a.status || a.result || (a.legal === false ? 'illegal' : '');
    const move = a.move || a.action || a.extracted || '';
    return h('li', { class: `attempt ${verdict}` },
      h('span', { class: 'verdict' }, verdict || 'attempt'), ' ', h('code', {}, move),
      a.error ? h('span', { class: 'why' }, ` — ${a.error}`) : null);
  }));
}

// The bot's judgement of a model move (arena's move judge): a mark for the bad ones, and the
// move it preferred with what the played one gave away. Three-seat games have no loss figure.
const kMarks = { inaccuracy: '?!', mistake: '?', blunder: '??' };
function evaluationNote(turn) {
  const e = turn.evaluation;
  if (!e || typeof e !== 'object') return null;
  const mark = kMarks[e.mark] || '';
  const pawns = (cp) => (cp >= 0 ? '+' : '') + (Number(cp) / 100).toFixed(2);
  const parts = [];
  if (e.matched) parts.push('the bot\'s choice too');
  else parts.push('bot prefers ', h('code', { class: 'best-move' }, e.best_move || '?'));
  // Values in pawns from the mover's side; the drop in winning chances is what the mark reads.
  if (e.loss_cp !== undefined && !e.matched) {
    parts.push(` (played ${pawns(e.played_cp)}, best ${pawns(e.best_cp)}: ${Number(e.share_lost).toFixed(0)} points of winning chances lost)`);
  }
  return h('span', { class: `evaluation ${e.mark || 'good'}`, title: `bot: ${e.algorithm}, depth ${e.depth}` },
    mark ? h('strong', { class: 'mark' }, mark, ' ', e.mark) : null, mark ? ' · ' : '', ...parts);
}

export function liveGame(root, gameId) {
  let mine = seatFor(gameId);
  const st = {
    view: null, events: new Map(), turns: new Map(), finished: false, error: null,
    perspective: null, coords: false, selected: null, described: null, clue: [], notice: '',
  };
  let stop = null;
  let ticker = null;
  let exportTimer = null;

  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const seatBox = h('div', { class: 'seat-box' });
  const playBox = h('div', { class: 'play-box' });
  const movesBox = h('div', { class: 'moves-box' });
  const side = h('aside', { class: 'side' }, seatBox, playBox, h('h2', {}, 'Moves'), movesBox);
  const head = h('div', { class: 'game-head' });
  clear(root).appendChild(h('section', { class: 'game', 'data-game': gameId }, head, h('div', { class: 'game-body' }, boardBox, side)));

  const myEngineSeat = () => {
    if (!mine || !st.view) return null;
    const s = (st.view.seats || []).find((x) => x.seat === mine.seat);
    return s ? s.engine_seat : null;
  };
  const myTurn = () => st.view && st.view.status === 'GAME_STATUS_ACTIVE' && myEngineSeat() !== null &&
    st.view.board && st.view.board.to_move === myEngineSeat();

  const wantedPerspective = () => st.perspective ?? myEngineSeat();

  // The server turns the board: a view seen from another seat is asked for again, turned.
  async function refetchTurned(force = false) {
    const want = wantedPerspective();
    if (want === null || want === undefined || !st.view) return;
    if (!force && st.view.board?.perspective === want) return;
    try {
      const v = await game('GetGame', { game_id: gameId, perspective: want },
        mine ? { seatCredential: mine.credential } : {});
      if (!st.view || Number(v.last_sequence) >= Number(st.view.last_sequence)) st.view = v;
      describeLegal();
      render();
    } catch (e) {
      st.error = e;
      render();
    }
  }

  let describeRetry = 0;  // the wait before asking for the lit cells again, after a failure
  async function describeLegal() {
    const v = st.view;
    if (!v || !myTurn() || !(v.legal_moves || []).length) {
      st.described = null;
      return;
    }
    const key = `${v.action_number}:${v.phase}`;
    if (st.described && st.described.key === key) return;
    let actions;
    try {
      const r = await web('DescribeActions', {
        engine_game: v.engine_game, variant_text: v.variant_text, position: v.position, actions: v.legal_moves,
      });
      actions = r.actions || [];
    } catch {
      // A refused or lost call is asked again (after 0.5 s, 1 s, ... up to 5 s): an empty answer
      // kept for the turn would leave the player nothing lit to click until the next move.
      describeRetry = Math.min(describeRetry ? describeRetry * 2 : 500, 5000);
      setTimeout(describeLegal, describeRetry);
      return;
    }
    describeRetry = 0;
    // The game may have moved on while the cells were asked for: keep only the current turn's.
    const now = st.view;
    if (!now || `${now.action_number}:${now.phase}` !== key) return;
    st.described = { key, actions };
    render();
  }

  // The move judge writes a model move's evaluation shortly after the move: while the newest
  // model move has none, ask again a few times.
  let judgeRetries = 0;
  function scheduleExport(delay = 400) {
    if (exportTimer) return;
    exportTimer = setTimeout(async () => {
      exportTimer = null;
      try {
        const r = await arena('ExportGame', { game_id: gameId });
        const data = JSON.parse(r.json || '{}');
        const turns = data.model_turns || [];
        st.turns = new Map(turns.map((t) => [Number(t.action_number), t]));
        render();
        const newest = turns[turns.length - 1];
        if (newest && newest.outcome === 'ok' && !newest.evaluation && judgeRetries < 5) {
          judgeRetries++;
          scheduleExport(1500);
        } else {
          judgeRetries = 0;
        }
      } catch {
        // Not an arena table, or private: the move list shows what the events carry.
      }
    }, delay);
  }

  async function submit(text, kind) {
    if (!mine) return;
    st.notice = '';
    try {
      await game('SubmitAction', {
        game_id: gameId, seat: mine.seat, kind: kind || kindForPhase(st.view.phase, text),
        move: { text }, expected_action_number: st.view.action_number,
      }, { seatCredential: mine.credential });
      st.selected = null;
      st.clue = [];
    } catch (e) {
      st.notice = `refused (nothing changed): ${e.message}`;
    }
    render();
  }

  async function seatEvent(kind) {
    if (!mine) return;
    try {
      await game('SubmitAction', { game_id: gameId, seat: mine.seat, kind, expected_action_number: st.view.action_number },
        { seatCredential: mine.credential });
      st.notice = '';
    } catch (e) {
      st.notice = `refused: ${e.message}`;
    }
    render();
  }

  async function askClue() {
    try {
      const r = await arena('GetClue', { game_id: gameId, seat: mine.seat, seat_credential: mine.credential });
      const text = r.move?.text || '';
      st.notice = `clue (bot level ${r.level}): ${text}`;
      const d = (st.described?.actions || []).find((a) => a.action === text);
      st.clue = d ? d.cells : [];
    } catch (e) {
      st.notice = `no clue: ${e.message}`;
    }
    render();
  }

  async function onCell(cell) {
    if (!myTurn()) return;
    const actions = st.described?.actions || [];
    if (actions.length) {
      if (st.selected) {
        const to = actions.filter((a) => a.cells.length > 1 && a.cells[0] === st.selected && a.cells[a.cells.length - 1] === cell);
        if (to.length) return submit(to[0].action);
      }
      const single = actions.find((a) => a.cells.length === 1 && a.cells[0] === cell);
      if (single) return submit(single.action);
      st.selected = actions.some((a) => a.cells[0] === cell) ? cell : null;
      return render();
    }
    // Advanced level: no legal list is shown; the engine names the action for the click, and a
    // click that is not legal is refused at no cost.
    const v = st.view;
    if (st.selected && st.selected !== cell) {
      try {
        const r = await web('ActionFor', { engine_game: v.engine_game, variant_text: v.variant_text, position: v.position, from: st.selected, to: cell });
        return submit(r.action);
      } catch (e) {
        st.notice = `refused (nothing changed): ${e.message}`;
        st.selected = null;
        return render();
      }
    }
    try {
      const r = await web('ActionFor', { engine_game: v.engine_game, variant_text: v.variant_text, position: v.position, from: cell, to: cell });
      return submit(r.action);
    } catch {
      st.selected = cell;
      render();
    }
  }

  function renderHead() {
    const v = st.view;
    clear(head).append(
      h('h1', {}, v ? `${v.engine_game} · ${gameId}` : `game ${gameId}`),
      v ? h('p', { class: 'status', id: 'game-status' }, `${statusWord(v.status)}`,
        v.outcome?.result_text ? ` · ${v.outcome.result_text} (${v.outcome.reason})` : '',
        ` · action ${v.action_number}`, v.variant_text ? ` · ${v.variant_text}` : '') : h('p', {}, 'connecting…'),
      h('p', { class: 'links' }, h('a', { href: `#/replay/${encodeURIComponent(gameId)}/0`, id: 'replay-link' }, 'Replay from the start')),
    );
  }

  function renderBoard() {
    const v = st.view;
    clear(boardBox);
    if (!v || !v.board || !(v.board.cells || []).length) return;
    const actions = st.described?.actions || [];
    // Beginner level, the seat's own turn: one-cell actions (a placement, a dart aim) are lit
    // as they are; a piece's destinations once it is selected; the pieces that can move marked.
    const mover = myTurn();
    const targets = !mover ? [] : st.selected
      ? actions.filter((a) => a.cells.length > 1 && a.cells[0] === st.selected).map((a) => a.cells[a.cells.length - 1])
      : actions.filter((a) => a.cells.length === 1).map((a) => a.cells[0]);
    const movable = mover ? actions.filter((a) => a.cells.length > 1).map((a) => a.cells[0]) : [];
    boardBox.appendChild(drawBoard(v.board, { coordinates: st.coords, selected: st.selected, targets, movable, clue: st.clue, onCell }));
    const seats = v.board.seats || [];
    const persp = h('select', { id: 'perspective', 'aria-label': 'seen from', onchange: (e) => { st.perspective = Number(e.target.value); refetchTurned(); } },
      seats.map((s, i) => h('option', { value: i, selected: i === v.board.perspective }, `seen from ${s.name}`)));
    const coords = h('label', {}, h('input', { type: 'checkbox', id: 'coords', checked: st.coords, onchange: (e) => { st.coords = e.target.checked; render(); } }), ' coordinates');
    boardBox.appendChild(h('div', { class: 'board-controls' }, persp, ' ', coords));
  }

  // An open person's seat: sit down through arena, which checks blocks, invitations and guests.
  async function sitDown(seat) {
    if (!session()) {
      location.hash = '#/play';
      return;
    }
    try {
      const j = await arena('JoinTable', { game_id: gameId, seat });
      rememberSeat(gameId, seat, j.seat_credential);
      mine = seatFor(gameId);
      st.notice = `you sit at seat ${seat}`;
      await refetchTurned(true);
      render();
    } catch (e) {
      st.notice = `${e.code}: ${e.message}`;
      render();
    }
  }

  function renderSeats() {
    const v = st.view;
    if (!v) return null;
    const now = Date.now();
    return h('ul', { class: 'seats' }, (v.seats || []).map((s) => {
      const es = s.engine_seat;
      const toMove = v.board && v.board.to_move === es && v.status === 'GAME_STATUS_ACTIVE';
      let ms = Number(s.clock_remaining_ms || 0);
      const deadline = Number(v.turn_deadline_unix_ms || 0);
      if (toMove && deadline > 0) ms = deadline - now;
      const frozen = (v.board?.frozen_seats || []).includes(es);
      const look = v.board?.seats?.[es];
      return h('li', { class: `seat${toMove ? ' to-move' : ''}${frozen ? ' frozen' : ''}`, 'data-seat': s.seat },
        h('span', { class: 'swatch', 'data-colour': look?.colour || '' }, look ? look.name : `seat ${s.seat}`), ' ',
        h('strong', {}, seatLabel(s.spec)),
        mine && mine.seat === s.seat ? h('em', {}, ' (you)') : null,
        frozen ? h('em', {}, ' frozen') : null,
        !mine && !s.filled && v.status !== 'GAME_STATUS_FINISHED' && s.spec?.kind !== 'SEAT_KIND_BOT' && s.spec?.kind !== 'SEAT_KIND_MODEL'
          ? h('button', { class: 'sit', 'data-seat': s.seat, onclick: () => sitDown(s.seat) }, 'Sit here') : null,
        (deadline > 0 || Number(s.clock_remaining_ms) > 0) ? h('span', { class: 'clock' }, clock(ms)) : null);
    }));
  }

  function renderPlay() {
    if (!mine || !st.view) return null;
    const v = st.view;
    const active = v.status === 'GAME_STATUS_ACTIVE';
    const input = h('input', { id: 'move-text', placeholder: 'move text', autocomplete: 'off' });
    return h('div', { class: 'play', id: 'play' },
      h('p', {}, myTurn() ? h('strong', { id: 'your-turn' }, 'Your turn') : 'Waiting for the other seats', st.view.phase ? ` (${v.phase})` : ''),
      h('form', { onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) submit(input.value.trim()); } }, input, h('button', { type: 'submit', disabled: !active }, 'Play')),
      h('div', { class: 'buttons' },
        h('button', { id: 'offer-draw', disabled: !active, onclick: () => seatEvent('ACTION_KIND_OFFER_DRAW') }, 'Offer draw'),
        h('button', { id: 'accept-draw', disabled: !active, onclick: () => seatEvent('ACTION_KIND_ACCEPT_DRAW') }, 'Accept draw'),
        h('button', { id: 'decline-draw', disabled: !active, onclick: () => seatEvent('ACTION_KIND_DECLINE_DRAW') }, 'Decline'),
        h('button', { id: 'resign', disabled: !active, onclick: () => { if (confirm('Resign this game?')) seatEvent('ACTION_KIND_RESIGN'); } }, 'Resign'),
        v.settings?.clues ? h('button', { id: 'clue', disabled: !myTurn(), onclick: askClue }, 'Clue') : null),
      st.notice ? h('p', { class: 'notice', id: 'notice' }, st.notice) : null);
  }

  function renderMoves() {
    const v = st.view;
    const rows = [];
    let n = 0;
    for (const ev of [...st.events.values()].sort((a, b) => Number(a.sequence) - Number(b.sequence))) {
      if (ev.type !== 'action' && ev.type !== 'chance' && ev.type !== 'timeout') continue;
      n++;
      const d = detailOf(ev);
      const es = v?.seats?.find((s) => s.seat === ev.seat)?.engine_seat;
      const who = ev.type === 'chance' ? 'chance' : (v?.board ? seatName(v.board, es) : `seat ${ev.seat}`);
      const clocks = Array.isArray(d.clocks) && ev.seat >= 0 ? d.clocks[ev.seat] : undefined;
      const turn = st.turns.get(Number(ev.action_number));
      const reasoning = ev.annotation || turn?.reasoning;
      rows.push(h('li', { class: `move ${ev.type}`, 'data-sequence': ev.sequence },
        h('span', { class: 'ply' }, `${n}.`), ' ', h('span', { class: 'who' }, who), ' ',
        h('code', { class: 'action' }, ev.action || ev.type),
        clocks !== undefined ? h('span', { class: 'clock' }, clock(clocks)) : null,
        turn ? evaluationNote(turn) : null,
        reasoning ? h('details', { class: 'reasoning' }, h('summary', {}, 'reasoning'), h('p', {}, reasoning)) : null,
        turn ? attemptsList(turn) : null));
    }
    return h('ol', { class: 'moves', id: 'moves', reversed: false }, rows);
  }

  function render() {
    renderHead();
    renderBoard();
    clear(seatBox).append(...[renderSeats()].filter(Boolean));
    // The play form keeps what is being typed unless the position moved on.
    const key = `${st.view?.action_number}:${st.view?.status}:${st.notice}:${st.selected}`;
    if (playBox.dataset.key !== key) {
      playBox.dataset.key = key;
      clear(playBox).append(...[renderPlay()].filter(Boolean));
    }
    const open = new Set([...movesBox.querySelectorAll('details[open]')].map((d) => d.closest('li')?.dataset.sequence));
    clear(movesBox).append(renderMoves(), ...(st.error ? [errorBox(st.error)] : []));
    for (const li of movesBox.querySelectorAll('li[data-sequence]')) {
      if (open.has(li.dataset.sequence)) li.querySelector('details')?.setAttribute('open', '');
    }
  }

  stop = follow(gameId, {
    snapshot(v) {
      st.view = v;
      st.events = new Map();
      refetchTurned();
      describeLegal();
      render();
    },
    event(ev) {
      st.events.set(String(ev.sequence), ev);
      if (ev.type === 'action') scheduleExport();
      render();
    },
    view(v) {
      if (st.view && Number(v.last_sequence) < Number(st.view.last_sequence)) return;
      const want = wantedPerspective();
      if (want !== null && want !== undefined && v.board && v.board.perspective !== want) {
        refetchTurned(true);  // keep the turned board until its newer view comes
        return;
      }
      st.view = v;
      describeLegal();
      render();
    },
    end() {
      st.finished = true;
      scheduleExport();
      render();
    },
    error(e) {
      st.error = e;
      render();
    },
  });
  scheduleExport();
  ticker = setInterval(() => {
    if (st.view && st.view.status === 'GAME_STATUS_ACTIVE') clear(seatBox).append(...[renderSeats()].filter(Boolean));
  }, 1000);
  render();
  return () => {
    if (stop) stop();
    clearInterval(ticker);
    if (exportTimer) clearTimeout(exportTimer);
  };
}
