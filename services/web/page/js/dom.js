// Small DOM helpers: elements are built, never parsed from strings, so no text from a game, a
// model or a player can become markup.

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
  return e;
}

export function errorBox(err) {
  return h('p', { class: 'error', role: 'alert' }, err && err.code ? `${err.code}: ${err.message}` : String(err));
}

export function table(headers, rows, attrs = {}) {
  return h('table', attrs, h('thead', {}, h('tr', {}, headers.map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, c))))));
}

// Credits are microcredits on the wire (int64 as a string).
export function credits(micro) {
  const n = Number(micro || 0) / 1e6;
  return n.toLocaleString('en', { maximumFractionDigits: 6 });
}

export function clock(ms) {
  const n = Math.max(0, Number(ms || 0));
  const s = Math.floor(n / 1000);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function when(ts) {
  if (!ts) return '';
  const d = new Date(ts);
  return isNaN(d) ? String(ts) : d.toISOString().replace('T', ' ').slice(0, 19);
}
