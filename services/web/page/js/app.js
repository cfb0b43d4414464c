// The page's router: one view at a time, chosen by the location's hash, so every view (a
// game, a replay position, a league) has a link of its own.

import { arena, session, setSession } from './api.js';
import { adminPage } from './admin.js';
import { clear, h } from './dom.js';
import { liveGame } from './game.js';
import { playPage } from './play.js';
import { replayGame } from './replay.js';
import { finished, leaderboard, leagues, lobby, models, standings } from './views.js';

const root = document.getElementById('view');
let leave = null;

function renderAccount() {
  const box = document.getElementById('account');
  const s = session();
  document.getElementById('nav-admin').hidden = !(s && s.role === 'admin');
  clear(box);
  if (!s) {
    box.appendChild(h('a', { href: '#/play', id: 'signin-link' }, 'Sign in or play as a guest'));
    return;
  }
  box.append(h('span', { id: 'whoami' }, `${s.name} (${s.role})`), ' ',
    h('button', { id: 'signout', onclick: () => { setSession(null); route(); } }, 'Sign out'));
}

function route() {
  if (leave) leave();
  leave = null;
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [page, a, b] = parts;
  for (const link of document.querySelectorAll('nav a')) link.classList.toggle('here', link.dataset.nav === (page || 'lobby'));
  switch (page || '') {
    case '':
      lobby(root);
      break;
    case 'finished':
      finished(root);
      break;
    case 'game':
      leave = liveGame(root, a);
      break;
    case 'replay':
      leave = replayGame(root, a, b);
      break;
    case 'leagues':
      leagues(root);
      break;
    case 'league':
      standings(root, a);
      break;
    case 'leaderboard':
      leaderboard(root, a);
      break;
    case 'models':
      models(root);
      break;
    case 'play':
      playPage(root, () => { renderAccount(); route(); });
      break;
    case 'admin':
      adminPage(root);
      break;
    default:
      clear(root).appendChild(h('p', {}, 'No such page. ', h('a', { href: '#/' }, 'Live games')));
  }
}

// A stored token that arena no longer accepts (revoked, expired) is dropped.
async function checkSession() {
  const s = session();
  if (!s) return;
  try {
    const who = await arena('WhoAmI', {});
    setSession({ ...s, name: who.name || s.name, role: who.role || s.role, account_id: who.account_id || s.account_id });
  } catch (e) {
    if (e.status === 401) setSession(null);
  }
}

window.addEventListener('hashchange', route);
window.addEventListener('arena-session', renderAccount);
renderAccount();
route();
checkSession();
