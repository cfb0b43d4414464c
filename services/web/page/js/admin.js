// The admin console: an account's balance and history, grants and adjustments with a reason,
// allowances, freezes and blocks, the audit log and the fair-play check's open flags (dismiss,
// or action with the opponent refunded and the account frozen), each through arena's admin RPCs. The page
// shows it to anyone who opens it; arena refuses every call from a non-admin, and the page
// shows that refusal.

import { arena } from './api.js';
import { clear, credits, errorBox, h, table, when } from './dom.js';

export async function adminPage(root) {
  clear(root).appendChild(h('h1', {}, 'Admin console'));
  const out = h('div', { class: 'out', id: 'admin-out' });
  const account = h('input', { id: 'admin-account', placeholder: 'account id or name', required: true });
  const amount = h('input', { id: 'admin-amount', type: 'number', step: 'any', placeholder: 'credits' });
  const reason = h('input', { id: 'admin-reason', placeholder: 'reason (recorded in the audit log)', maxlength: 500 });
  const balanceBox = h('div', { id: 'admin-balance' });
  const auditBox = h('div', { id: 'admin-audit' });
  const flagsBox = h('div', { id: 'admin-flags' });
  const micro = () => Math.round(Number(amount.value || 0) * 1e6);
  const key = () => `web-${Date.now()}-${Math.random().toString(36).slice(2)}`;

  async function showAudit() {
    try {
      const r = await arena('AdminAudit', { limit: 50 });
      clear(auditBox).appendChild(table(['when', 'actor', 'action', 'target', 'reason'],
        (r.records || []).map((a) => [when(a.at), a.actor, a.action, a.target, a.reason]), { id: 'audit' }));
    } catch (e) {
      clear(auditBox).appendChild(errorBox(e));
    }
  }
  async function showFlags() {
    try {
      const r = await arena('AdminListFairPlayFlags', { state: 'open', limit: 100 });
      const decide = (f, decision) => run(() => arena('AdminReviewFairPlayFlag', {
        report_id: f.report_id, decision, reason: reason.value,
        refund_opponent: decision === 'action', block: decision === 'action' }));
      clear(flagsBox).appendChild(table(['flagged', 'account', 'colour', 'opponent', 'moves', 'match', 'ACPL', 'opponent lost', 'game', ''],
        (r.flags || []).map((f) => [when(f.created_at), f.account_name || f.account_id, f.colour, f.opponent_name,
          String(f.moves_analysed), `${Math.round(100 * f.match_rate)}%`, Number(f.acpl).toFixed(1),
          credits(f.opponent_loss_microcredits), f.game_id,
          h('span', {},
            h('button', { type: 'button', class: 'flag-dismiss', onclick: decide(f, 'dismiss') }, 'Dismiss'),
            h('button', { type: 'button', class: 'flag-action', onclick: decide(f, 'action') }, 'Refund & freeze'))]),
        { id: 'fair-play-flags' }));
    } catch (e) {
      clear(flagsBox).appendChild(errorBox(e));
    }
  }
  async function showBalance() {
    if (!account.value) return;
    try {
      const b = await arena('GetBalance', { account_id: account.value });
      const hist = await arena('GetHistory', { account_id: account.value, limit: 20 });
      clear(balanceBox).append(
        h('p', { id: 'balance' }, `${b.account_id}: available ${credits(b.available_microcredits)}, held ${credits(b.held_microcredits)}, `,
          `allowance ${credits(b.daily_allowance_microcredits)} a day (used ${credits(b.allowance_used_today_microcredits)})`, b.frozen ? ' · FROZEN' : ''),
        table(['when', 'kind', 'amount', 'from', 'to', 'memo'], (hist.entries || []).map((x) =>
          [when(x.at), x.kind, credits(x.amount_microcredits), x.debit_account, x.credit_account, x.memo])));
    } catch (e) {
      clear(balanceBox).appendChild(errorBox(e));
    }
  }
  const run = (fn) => async (e) => {
    e.preventDefault();
    clear(out);
    try {
      await fn();
      out.appendChild(h('p', { class: 'ok', id: 'admin-ok' }, 'done'));
      await showBalance();
      await showAudit();
      await showFlags();
    } catch (err) {
      out.appendChild(errorBox(err));
    }
  };
  root.append(
    h('form', { class: 'admin', onsubmit: run(showBalance) },
      h('label', {}, 'Account ', account), h('label', {}, 'Amount ', amount), h('label', {}, 'Reason ', reason),
      h('div', { class: 'buttons' },
        h('button', { type: 'submit', id: 'admin-show' }, 'Show balance'),
        h('button', { type: 'button', id: 'admin-grant', onclick: run(() => arena('AdminGrant', { account_id: account.value, amount_microcredits: micro(), reason: reason.value, idempotency_key: key() })) }, 'Grant'),
        h('button', { type: 'button', id: 'admin-adjust', onclick: run(() => arena('AdminAdjust', { account_id: account.value, delta_microcredits: micro(), reason: reason.value, idempotency_key: key() })) }, 'Adjust (±)'),
        h('button', { type: 'button', id: 'admin-allowance', onclick: run(() => arena('AdminSetAllowance', { account_id: account.value, daily_microcredits: micro(), reason: reason.value })) }, 'Set daily allowance'),
        h('button', { type: 'button', id: 'admin-freeze', onclick: run(() => arena('AdminFreeze', { account_id: account.value, freeze: true, reason: reason.value })) }, 'Freeze'),
        h('button', { type: 'button', id: 'admin-unfreeze', onclick: run(() => arena('AdminFreeze', { account_id: account.value, freeze: false, reason: reason.value })) }, 'Unfreeze'),
        h('button', { type: 'button', id: 'admin-block', onclick: run(() => arena('Block', { name: account.value })) }, 'Block'),
        h('button', { type: 'button', id: 'admin-unblock', onclick: run(() => arena('Block', { name: account.value, unblock: true })) }, 'Unblock'),
        h('button', { type: 'button', id: 'admin-donations', onclick: run(async () => { account.value = 'system:pool'; }) }, 'Donation pool'))),
    out, h('h2', {}, 'Account'), balanceBox,
    h('h2', {}, 'Fair-play flags'), h('p', {}, 'Each decision is made once and needs the reason above.'), flagsBox,
    h('h2', {}, 'Audit log'), auditBox);
  await showAudit();
  await showFlags();
}
