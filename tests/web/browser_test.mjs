// Browser tests of arena-web's page on Debian's chromium, driven by playwright-core (no
// browser is ever downloaded). Started by tests/web_e2e_test.cc, which brings up every server
// and PostgreSQL, prepares a live model game, a finished game and two accounts, and passes
// them in the environment. Each scenario saves screenshots to $SCREENSHOT_DIR.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const env = (k) => {
  if (!process.env[k]) throw new Error(`${k} is not set`);
  return process.env[k];
};
const URL = env('WEB_URL');
const SHOTS = env('SCREENSHOT_DIR');
mkdirSync(SHOTS, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

let passed = 0;
let failed = 0;
const only = process.env.ONLY ? process.env.ONLY.split(',') : null;

async function scenario(name, fn) {
  if (only && !only.includes(name)) return;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  const started = Date.now();
  try {
    await fn(page, context);
    // A CSP violation or a script error is a failure even when the scenario got through.
    const fatal = problems.filter((p) => /Content Security Policy|page error/.test(p));
    if (fatal.length) throw new Error(fatal.join('; '));
    passed++;
    console.log(`ok ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
    for (const p of problems) console.log(`  ${p}`);
    await page.screenshot({ path: join(SHOTS, `${name}-failure.png`), fullPage: true }).catch(() => {});
  } finally {
    await context.close();
  }
}

function check(cond, message) {
  if (!cond) throw new Error(message);
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function signIn(page, name, password) {
  await page.goto(`${URL}/#/play`);
  await page.fill('#signin-name', name);
  await page.fill('#signin-password', password);
  await page.click('#signin-submit');
  await page.waitForSelector('#whoami');
}

const moveCount = (page) => page.locator('#moves li').count();

await scenario('lobby-and-live-model-game', async (page) => {
  const gameId = env('MODEL_GAME');
  await page.goto(`${URL}/#/`);
  await page.waitForSelector('#lobby li');
  const first = await page.locator('#lobby li').first().getAttribute('class');
  check((first || '').includes('model-game'), 'model games come first in the lobby');
  check(await page.locator(`#lobby a[data-game="${gameId}"]`).count() === 1, 'the model game is listed');
  await shot(page, 'lobby');
  await page.click(`#lobby a[data-game="${gameId}"]`);
  await page.waitForSelector('#board svg.board .cell');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length > 0, null, { timeout: 60000 });
  const before = await moveCount(page);
  // Moves arrive over the stream without a reload.
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before, { timeout: 60000 });
  const after = await moveCount(page);
  check(after > before, `moves arrived (${before} -> ${after})`);
  check(await page.locator('#board .piece').count() > 0, 'pieces are drawn');
  // The model's moves carry the bot's judgement: its preferred move, or that it agrees.
  await page.waitForSelector('#moves .evaluation', { timeout: 60000 });
  const judged = await page.locator('#moves .evaluation').first().textContent();
  check(/bot prefers|the bot's choice too/.test(judged || ''), `a model move is judged ("${judged}")`);
  // Turned to the other seat's edge: the server sends the board from that seat.
  await page.selectOption('#perspective', '1');
  await page.waitForFunction(() => document.querySelector('#board svg.board')?.dataset.perspective === '1', null, { timeout: 20000 });
  await page.check('#coords');
  await page.waitForSelector('#board .coord');
  await shot(page, 'live-model-game');
});

await scenario('replay-finished-game', async (page) => {
  const gameId = env('FINISHED_GAME');
  await page.goto(`${URL}/#/finished`);
  await page.waitForSelector(`#finished a[data-game="${gameId}"]`);
  await shot(page, 'finished-games');
  await page.click(`#finished a[data-game="${gameId}"]`);
  await page.waitForSelector('#position');
  const text = await page.textContent('#position');
  const total = Number(/of (\d+)/.exec(text)[1]);
  check(total >= 3, `the finished game has positions (${text})`);
  const pieces0 = await page.locator('#board .piece').count();
  await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#position').textContent.startsWith('position 1 '));
  check(page.url().endsWith(`#/replay/${gameId}/1`), `a link per position (${page.url()})`);
  check((await page.textContent('#last-action')).length > 0, 'the first action is named');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#position').textContent.startsWith('position 2 '));
  // The shared link opens the same position.
  const share = await page.getAttribute('#share', 'href');
  await page.goto(`${URL}/${share}`);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#position')?.textContent.startsWith('position 2 '));
  await page.click('#last');
  await page.waitForFunction((t) => document.querySelector('#position').textContent === `position ${t} of ${t}`, total);
  check(pieces0 > 0, 'the start position has pieces');
  await shot(page, 'replay');
});

await scenario('guest-plays-a-full-game-against-a-bot', async (page) => {
  await page.goto(`${URL}/#/play`);
  await page.fill('#guest-name', 'browser guest');
  await page.click('#guest-submit');
  await page.waitForSelector('#create-table');
  await page.selectOption('#table-game', 'hex-tictactoe');
  await page.waitForSelector('.seat-row');
  await page.selectOption('.seat-row >> nth=0 >> .seat-kind', 'me');
  await page.selectOption('.seat-row >> nth=1 >> .seat-kind', 'bot');
  await shot(page, 'create-table');
  await page.click('#create-submit');
  await page.waitForSelector('#play', { timeout: 30000 });
  const deadline = Date.now() + 150000;
  let moves = 0;
  let shotMid = false;
  while (Date.now() < deadline) {
    const status = (await page.textContent('#game-status').catch(() => '')) || '';
    if (/finished/.test(status)) break;
    if (await page.locator('#your-turn').count()) {
      const target = page.locator('#board .target');
      if (await target.count() === 0) {
        const movable = page.locator('#board .cell.movable');
        if (await movable.count()) await movable.first().click();
        await page.waitForTimeout(100);
        continue;
      }
      const before = await moveCount(page);
      // The board is drawn anew on every event: a cell lit a moment ago may be gone (the turn's
      // view replaced); look again rather than wait on it.
      if (!(await target.first().click({ force: true, timeout: 5000 }).then(() => true, () => false))) continue;
      moves++;
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n || /finished/.test(document.querySelector('#game-status')?.textContent || ''), before, { timeout: 20000 });
      if (!shotMid && moves === 2) {
        shotMid = true;
        await shot(page, 'guest-game-in-play');
      }
    } else {
      await page.waitForTimeout(150);
    }
  }
  const status = await page.textContent('#game-status');
  check(/finished/.test(status), `the game finished (${status})`);
  check(moves >= 2, `the guest played (${moves} moves)`);
  // Each move is in the list once, named after the seat whose stone it placed.
  const agree = await page.evaluate(async () => {
    const id = decodeURIComponent(location.hash.split('/')[2]);
    const seat = JSON.parse(localStorage.getItem('arena.seats'))[id];
    const r = await fetch('/api/game/GetGame', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Arena-Seat-Credential': seat.credential }, body: JSON.stringify({ game_id: id }) });
    const v = await r.json();
    const mine = v.seats.find((s) => s.seat === seat.seat).engine_seat;
    const name = v.board.seats[mine].name;
    const stones = v.board.pieces.filter((p) => p.seat === mine).length;
    const listed = [...document.querySelectorAll('#moves li .who')].filter((w) => w.textContent === name).length;
    return { name, stones, listed, moves: document.querySelectorAll('#moves li').length, pieces: v.board.pieces.length };
  });
  check(agree.listed === agree.stones, `the guest's moves are listed as ${agree.name}'s (${agree.listed} listed, ${agree.stones} stones)`);
  check(agree.moves === agree.pieces, `every move is listed once (${agree.moves} listed, ${agree.pieces} stones)`);
  await shot(page, 'guest-game-finished');
});

await scenario('admin-grants-and-sees-the-audit-log', async (page) => {
  await signIn(page, env('ADMIN_NAME'), env('ADMIN_PASSWORD'));
  await page.goto(`${URL}/#/admin`);
  await page.waitForSelector('#admin-audit');
  await page.waitForSelector('#fair-play-flags');  // the open flags, through the edge (none yet)
  const reason = `browser grant ${Date.now()}`;
  await page.fill('#admin-account', env('PLAYER_NAME'));
  await page.fill('#admin-amount', '5');
  await page.fill('#admin-reason', reason);
  await page.click('#admin-grant');
  await page.waitForSelector('#admin-ok');
  await page.waitForFunction((r) => document.querySelector('#audit')?.textContent.includes(r), reason, { timeout: 20000 });
  await page.waitForFunction(() => /available 5/.test(document.querySelector('#balance')?.textContent || ''), null, { timeout: 20000 });
  await shot(page, 'admin-console');
  for (const [path, id] of [['leagues', '#leagues, .body p'], ['leaderboard', '#leaderboard, .body p'], ['models', '#models, .body p']]) {
    await page.goto(`${URL}/#/${path}`);
    await page.waitForSelector(id);
    await shot(page, path);
  }
});

await scenario('non-admin-is-refused-by-the-api', async (page) => {
  await signIn(page, env('PLAYER_NAME'), env('PLAYER_PASSWORD'));
  check(await page.locator('#nav-admin').isHidden(), 'no admin link for a player');
  await page.goto(`${URL}/#/admin`);
  await page.waitForSelector('#admin-audit .error');
  check((await page.textContent('#admin-audit .error')).includes('PERMISSION_DENIED'), 'arena refused the audit log');
  await page.waitForSelector('#admin-flags .error');
  check((await page.textContent('#admin-flags .error')).includes('PERMISSION_DENIED'), 'arena refused the fair-play flags');
  await page.fill('#admin-account', env('PLAYER_NAME'));
  await page.fill('#admin-amount', '1000');
  await page.fill('#admin-reason', 'self-grant');
  await page.click('#admin-grant');
  await page.waitForSelector('#admin-out .error');
  check((await page.textContent('#admin-out .error')).includes('PERMISSION_DENIED'), 'arena refused the grant');
  // The API itself refuses, whatever the page shows.
  const status = await page.evaluate(async () => {
    const s = JSON.parse(localStorage.getItem('arena.session'));
    const r = await fetch('/api/arena/AdminGrant', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${s.token}` },
      body: JSON.stringify({ account_id: s.account_id, amount_microcredits: '1000000', reason: 'x', idempotency_key: 'k1' }),
    });
    return r.status;
  });
  check(status === 403, `the API answered ${status}, not 403`);
  await shot(page, 'admin-refused');
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
