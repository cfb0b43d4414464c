// The page's one door to arena-web: JSON calls to arena and game-state, the session kept in
// this browser's storage (a bearer token sent as Authorization, never a cookie), the seat
// credentials of tables this browser created, and game event streams.

const SESSION_KEY = 'arena.session';
const SEATS_KEY = 'arena.seats';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function session() {
  try {
    return JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
  } catch {
    return null;
  }
}

export function setSession(s) {
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
  window.dispatchEvent(new Event('arena-session'));
}

// Seat credentials are shown once by CreateTable; this browser keeps them per game.
export function seatFor(gameId) {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}')[gameId] || null;
  } catch {
    return null;
  }
}

export function rememberSeat(gameId, seat, credential) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(SEATS_KEY) || '{}');
  } catch {
    all = {};
  }
  all[gameId] = { seat, credential };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

// POST /api/<service>/<method> with `body`; resolves to the response message or throws ApiError.
export async function call(service, method, body = {}, { seatCredential, hostCredential } = {}) {
  const headers = { 'Content-Type': 'application/json' };
  const s = session();
  if (s && s.token) headers.Authorization = `Bearer ${s.token}`;
  if (seatCredential) headers['X-Arena-Seat-Credential'] = seatCredential;
  if (hostCredential) headers['X-Arena-Host-Credential'] = hostCredential;
  let res;
  try {
    res = await fetch(`/api/${service}/${method}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      credentials: 'omit',
    });
  } catch (e) {
    throw new ApiError(0, 'UNAVAILABLE', `arena-web is not reachable (${e.message})`);
  }
  let data = {};
  try {
    data = await res.json();
  } catch {
    data = {};
  }
  if (!res.ok) throw new ApiError(res.status, data.code || 'UNKNOWN', data.message || res.statusText);
  return data;
}

export const arena = (method, body, opts) => call('arena', method, body, opts);
export const game = (method, body, opts) => call('game', method, body, opts);
export const web = (method, body) => call('web', method, body);

export async function games() {
  const res = await fetch('/api/web/games', { credentials: 'omit' });
  return res.json();
}

// Follows a game's events: snapshot first, then events and newer views; EventSource resumes
// with Last-Event-ID by itself after a drop. Returns a function that stops following.
export function follow(gameId, handlers, lastEventId) {
  const q = lastEventId !== undefined ? `?last_event_id=${encodeURIComponent(lastEventId)}` : '';
  const es = new EventSource(`/api/games/${encodeURIComponent(gameId)}/events${q}`);
  const parse = (fn) => (e) => fn(JSON.parse(e.data), e.lastEventId);
  if (handlers.snapshot) es.addEventListener('snapshot', parse(handlers.snapshot));
  if (handlers.event) es.addEventListener('event', parse(handlers.event));
  if (handlers.view) es.addEventListener('view', parse(handlers.view));
  es.addEventListener('end', (e) => {
    es.close();
    if (handlers.end) handlers.end(JSON.parse(e.data));
  });
  es.addEventListener('failure', (e) => {
    es.close();
    if (handlers.error) handlers.error(JSON.parse(e.data));
  });
  return () => es.close();
}
