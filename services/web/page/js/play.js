// People: sign in, sign up or play as a guest; create a table with bots and models (own key or
// donated credits) and take a seat at it.

import { arena, game, games, rememberSeat, session, setSession } from './api.js';
import { clear, errorBox, h } from './dom.js';

export function signInForm(onDone) {
  const name = h('input', { id: 'signin-name', autocomplete: 'username', required: true, maxlength: 64 });
  const password = h('input', { id: 'signin-password', type: 'password', autocomplete: 'current-password', required: true });
  const guestName = h('input', { id: 'guest-name', placeholder: 'a name to show', maxlength: 64 });
  const out = h('div', { class: 'out' });
  const act = (method) => async (e) => {
    e.preventDefault();
    try {
      const t = await arena(method, { name: name.value, password: password.value });
      setSession({ token: t.token, name: t.name || name.value, role: t.role, account_id: t.account_id });
      onDone();
    } catch (err) {
      clear(out).appendChild(errorBox(err));
    }
  };
  return h('div', { class: 'signin' },
    h('form', { id: 'signin', onsubmit: act('SignIn') },
      h('h2', {}, 'Sign in'), h('label', {}, 'Name ', name), h('label', {}, 'Password ', password),
      h('button', { type: 'submit', id: 'signin-submit' }, 'Sign in'), ' ',
      h('button', { type: 'button', id: 'signup-submit', onclick: act('SignUp') }, 'Sign up')),
    h('form', { id: 'guest', onsubmit: async (e) => {
      e.preventDefault();
      try {
        const t = await arena('GuestToken', { display_name: guestName.value || 'guest' });
        setSession({ token: t.token, name: guestName.value || 'guest', role: t.role || 'guest', account_id: t.account_id });
        onDone();
      } catch (err) {
        clear(out).appendChild(errorBox(err));
      }
    } }, h('h2', {}, 'Or play as a guest'), h('label', {}, 'Name ', guestName), h('button', { type: 'submit', id: 'guest-submit' }, 'Play as a guest')),
    out);
}

function seatRow(i, modelIds, isGuest) {
  const kind = h('select', { class: 'seat-kind', 'data-seat': i },
    h('option', { value: 'me', selected: i === 0 }, 'me'),
    h('option', { value: 'bot', selected: i !== 0 }, 'bot'),
    isGuest ? null : h('option', { value: 'model' }, 'model'),
    h('option', { value: 'open' }, 'open seat (a guest joins)'));
  const level = h('input', { class: 'bot-level', type: 'number', min: 1, max: 10, value: 1, 'aria-label': 'bot level' });
  const model = h('select', { class: 'model-id', 'aria-label': 'model' }, modelIds.map((m) => h('option', { value: m }, m)));
  const funding = h('select', { class: 'funding', 'aria-label': 'funding' },
    h('option', { value: 'FUNDING_DONATED_CREDITS' }, 'donated credits'), h('option', { value: 'FUNDING_OWN_KEY' }, 'my own key'));
  const key = h('input', { class: 'own-key', type: 'password', placeholder: 'Abacus key (own key only)', autocomplete: 'off' });
  return h('fieldset', { class: 'seat-row' }, h('legend', {}, `Seat ${i + 1}`), kind, ' level ', level, ' ', model, ' ', funding, ' ', key);
}

export async function playPage(root, rerender) {
  clear(root).appendChild(h('h1', {}, 'Play'));
  const s = session();
  if (!s) {
    root.appendChild(signInForm(rerender));
    return;
  }
  const out = h('div', { class: 'out' });
  let catalogue = [];
  let modelIds = [];
  try {
    catalogue = await games();
  } catch (e) {
    out.appendChild(errorBox(e));
  }
  if (s.role !== 'guest') {
    try {
      modelIds = ((await arena('ListModels', {})).models || []).map((m) => m.id || m.model_id).filter(Boolean);
    } catch {
      modelIds = [];
    }
  }
  const gameSel = h('select', { id: 'table-game' }, catalogue.map((g) => h('option', { value: g.id, 'data-min': g.min_seats, 'data-max': g.max_seats }, g.name || g.id)));
  const variant = h('input', { id: 'table-variant', placeholder: 'variant, e.g. players=2 board=plain', size: 36 });
  const level = h('select', { id: 'table-level' }, h('option', { value: 'TABLE_LEVEL_BEGINNER' }, 'beginner (legal moves lit)'), h('option', { value: 'TABLE_LEVEL_ADVANCED' }, 'advanced'));
  const clues = h('input', { type: 'checkbox', id: 'table-clues', checked: true });
  const isPublic = h('input', { type: 'checkbox', id: 'table-public', checked: true });
  const perMove = h('input', { type: 'number', id: 'table-per-move', min: 0, value: 0, 'aria-label': 'seconds per move (0: no clock)' });
  const seatsBox = h('div', { id: 'table-seats' });
  const seatCount = () => {
    const o = gameSel.selectedOptions[0];
    const words = Object.fromEntries(variant.value.split(/\s+/).filter(Boolean).map((w) => w.split('=')));
    const n = Number(words.players || (o ? o.dataset.min : 2));
    return Math.max(1, Math.min(8, n || 2));
  };
  const layoutSeats = () => {
    clear(seatsBox);
    for (let i = 0; i < seatCount(); i++) seatsBox.appendChild(seatRow(i, modelIds, s.role === 'guest'));
  };
  gameSel.addEventListener('change', layoutSeats);
  variant.addEventListener('change', layoutSeats);
  layoutSeats();

  const create = async (e) => {
    e.preventDefault();
    const options = Object.fromEntries(variant.value.split(/\s+/).filter(Boolean).map((w) => w.split('=')));
    const seats = [];
    let mine = -1;
    [...seatsBox.querySelectorAll('.seat-row')].forEach((row, i) => {
      const k = row.querySelector('.seat-kind').value;
      if (k === 'me') {
        mine = i;
        seats.push({ spec: s.role === 'guest' ? { kind: 'SEAT_KIND_GUEST', display_name: s.name } : { kind: 'SEAT_KIND_HUMAN', account_id: s.account_id, display_name: s.name } });
      } else if (k === 'bot') {
        seats.push({ spec: { kind: 'SEAT_KIND_BOT', bot_level: Number(row.querySelector('.bot-level').value) || 1 } });
      } else if (k === 'model') {
        const funding = row.querySelector('.funding').value;
        const seat = { spec: { kind: 'SEAT_KIND_MODEL', model_id: row.querySelector('.model-id').value, funding } };
        if (funding === 'FUNDING_OWN_KEY') seat.own_api_key = row.querySelector('.own-key').value;
        seats.push(seat);
      } else {
        seats.push({ spec: { kind: 'SEAT_KIND_GUEST' } });
      }
    });
    const perMoveMs = Math.max(0, Number(perMove.value) || 0) * 1000;
    const settings = { engine_game: gameSel.value, variant: { options }, level: level.value, clues: clues.checked, is_public: isPublic.checked };
    if (perMoveMs > 0) settings.clock = { per_move_ms: perMoveMs };
    try {
      const r = await arena('CreateTable', { settings, seats });
      if (mine >= 0) {
        let credential = (r.seat_credentials || [])[mine] || '';
        if (!credential) {
          // A guest's seat is open until the guest sits down, through arena like anyone.
          const j = await arena('JoinTable', { game_id: r.game_id, seat: mine });
          credential = j.seat_credential;
        }
        rememberSeat(r.game_id, mine, credential);
      }
      location.hash = `#/game/${encodeURIComponent(r.game_id)}`;
    } catch (err) {
      clear(out).appendChild(errorBox(err));
    }
  };
  root.appendChild(h('form', { id: 'create-table', class: 'create', onsubmit: create },
    h('h2', {}, 'A new table'),
    h('label', {}, 'Game ', gameSel), h('label', {}, 'Variant ', variant),
    h('label', {}, 'Level ', level), h('label', {}, clues, ' clues'), h('label', {}, isPublic, ' public'),
    h('label', {}, 'Seconds per move ', perMove),
    seatsBox, h('button', { type: 'submit', id: 'create-submit' }, 'Create the table and sit down')));
  root.appendChild(out);
}
