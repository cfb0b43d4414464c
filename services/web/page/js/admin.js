// The admin console: an account's balance and history, grants and adjustments with a reason,
// allowances, freezes and blocks, and the audit log, each through arena's admin RPCs. The page
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
    out, h('h2', {}, 'Account'), balanceBox, h('h2', {}, 'Audit log'), auditBox);
  await showAudit();
}
