// The lobby, finished games, leagues, the leaderboard and model statistics.

import { arena, game, games } from './api.js';
import { clear, credits, errorBox, h, table, when } from './dom.js';
import { isModelGame, seatLabel, statusWord } from './seats.js';

async function guarded(root, title, fn) {
  clear(root).appendChild(h('h1', {}, title));
  const body = h('div', { class: 'body' }, h('p', {}, 'loading…'));
  root.appendChild(body);
  try {
    const content = await fn();
    clear(body).append(...[content].flat());
  } catch (e) {
    clear(body).appendChild(errorBox(e));
  }
}

export function lobby(root) {
  return guarded(root, 'Live games', async () => {
    const r = await game('ListGames', { include_finished: false, limit: 200 });
    const list = (r.games || []).slice().sort((a, b) =>
      (isModelGame(b) - isModelGame(a)) ||
      ((b.status === 'GAME_STATUS_ACTIVE') - (a.status === 'GAME_STATUS_ACTIVE')) ||
      (Number(b.action_number) - Number(a.action_number)));
    if (!list.length) return h('p', { id: 'no-games' }, 'No live games right now.');
    return h('ul', { class: 'lobby', id: 'lobby' }, list.map((g) => h('li', { class: isModelGame(g) ? 'model-game' : '' },
      h('a', { href: `#/game/${encodeURIComponent(g.game_id)}`, 'data-game': g.game_id },
        h('strong', {}, g.engine_game), ' ',
        (g.seats || []).map((s) => seatLabel(s.spec)).join(' vs '),
        ' · ', statusWord(g.status), ` · ${g.action_number} actions`,
        isModelGame(g) ? h('span', { class: 'tag' }, 'model') : null))));
  });
}

export function finished(root) {
  return guarded(root, 'Finished games', async () => {
    const r = await arena('ListMatches', { state: 'finished', limit: 100 });
    const rows = (r.matches || []).map((m) => [
      h('a', { href: `#/replay/${encodeURIComponent(m.game_id)}/0`, 'data-game': m.game_id }, m.game_id),
      m.engine_game, (m.participants || []).join(' vs '), m.result_text || '', m.reason || '', when(m.finished_at)]);
    if (!rows.length) return h('p', {}, 'No finished games yet.');
    return table(['game', 'game kind', 'players', 'result', 'reason', 'finished'], rows, { id: 'finished' });
  });
}

export function leagues(root) {
  return guarded(root, 'Leagues', async () => {
    const r = await arena('ListLeagues', { limit: 100 });
    const rows = (r.leagues || []).map((l) => [
      h('a', { href: `#/league/${encodeURIComponent(l.league_id)}` }, l.name || l.league_id),
      l.engine_game, l.state, `${l.games_finished}/${l.games_total}`, (l.participants || []).join(', ')]);
    if (!rows.length) return h('p', {}, 'No leagues yet.');
    return table(['league', 'game', 'state', 'games', 'participants'], rows, { id: 'leagues' });
  });
}

export function standings(root, leagueId) {
  return guarded(root, 'League standings', async () => {
    const r = await arena('GetStandings', { league_id: leagueId });
    const l = r.league || {};
    return [h('p', {}, `${l.name || leagueId} · ${l.engine_game} · ${l.state} · ${l.games_finished}/${l.games_total} games`),
      table(['#', 'participant', 'points', 'W', 'D', 'L', 'games'], (r.standings || []).map((s, i) =>
        [i + 1, s.participant, Number(s.points).toFixed(2), s.wins, s.draws, s.losses, s.games]), { id: 'standings' })];
  });
}

// The headline figure with its 95% interval drawn as a bar on a shared scale.
function intervalBar(r, lo, hi) {
  const span = Math.max(1, hi - lo);
  const x = (v) => ((v - lo) / span) * 100;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 100 10');
  svg.setAttribute('class', 'interval');
  const bar = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bar.setAttribute('x', String(x(r.bt_low95)));
  bar.setAttribute('width', String(Math.max(0.5, x(r.bt_high95) - x(r.bt_low95))));
  bar.setAttribute('y', '3');
  bar.setAttribute('height', '4');
  const dot = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  dot.setAttribute('cx', String(x(r.bt_rating)));
  dot.setAttribute('cy', '5');
  dot.setAttribute('r', '2');
  svg.append(bar, dot);
  return svg;
}

export function leaderboard(root, engineGame) {
  return guarded(root, 'Leaderboard', async () => {
    const all = await games();
    const chosen = engineGame || (all[0] && all[0].id) || 'chess';
    const pick = h('select', { id: 'leaderboard-game', onchange: (e) => { location.hash = `#/leaderboard/${e.target.value}`; } },
      all.map((g) => h('option', { value: g.id, selected: g.id === chosen }, g.name || g.id)));
    const r = await arena('GetLeaderboard', { engine_game: chosen });
    const ratings = r.ratings || [];
    const lo = Math.min(...ratings.map((x) => Number(x.bt_low95)), 0);
    const hi = Math.max(...ratings.map((x) => Number(x.bt_high95)), 1);
    const rows = ratings.map((x, i) => [i + 1, x.participant + (x.anchor ? ' (anchor)' : ''),
      Math.round(x.bt_rating), `${Math.round(x.bt_low95)} – ${Math.round(x.bt_high95)}`, intervalBar(x, lo, hi),
      x.anchor ? '' : `${Math.round(x.glicko_rating)} ± ${Math.round(2 * x.glicko_rd)}`, x.games]);
    return [h('p', {}, pick, ' ', h('span', { class: 'scale' }, r.scale || '')),
      rows.length ? table(['#', 'participant', 'rating', '95% interval', '', 'Glicko-2', 'games'], rows, { id: 'leaderboard' })
        : h('p', {}, 'No rated games yet.')];
  });
}

export function models(root) {
  return guarded(root, 'Model statistics', async () => {
    const r = await arena('GetModelStats', {});
    const rows = (r.models || []).map((m) => [m.model_id, m.games, m.moves,
      Number(m.illegal_per_1000_moves).toFixed(1), Number(m.unparsable_per_1000_moves).toFixed(1),
      Number(m.tokens_per_move).toFixed(0), credits(m.cost_per_game_microcredits),
      Number(m.latency_ms_per_move).toFixed(0), m.forfeits]);
    if (!rows.length) return h('p', {}, 'No model has played yet.');
    return table(['model', 'games', 'moves', 'illegal / 1000', 'unparsable / 1000', 'tokens / move',
      'cost / game', 'ms / move', 'forfeits'], rows, { id: 'models' });
  });
}
