// A ledger's page without a connection. An expense added, a payment recorded or an entry
// deleted while offline waits in the outbox (app.js) as the form it was, its id included, and
// is sent once the connection returns: the server records an id once, so nothing is lost or
// doubled. Meanwhile the history shows it, marked, and the balances include it: worked out here
// from the balances the page was drawn with, shared the way the server shares (S3: whole minor
// units, the leftover to the largest remainders). A refusal (a member removed meanwhile, an
// entry changed since it was seen) stays on the entry with the server's reason until the person
// removes it.
"use strict";

// Splits `total` minor units in proportion to `weights`, as the server's Split does: each part
// rounded down, the leftover one by one to the largest remainders, ties to the earlier member.
function shareOut(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((weight) => Math.floor((total * weight) / sum));
  let leftover = total - parts.reduce((a, b) => a + b, 0);
  const order = weights.map((_, index) => index)
    .sort((a, b) => ((total * weights[b]) % sum) - ((total * weights[a]) % sum) || a - b);
  for (let index = 0; leftover > 0; index += 1, leftover -= 1) parts[order[index]] += 1;
  return parts;
}

// "12.50" as minor units with `decimals` places, or NaN.
function minorUnits(text, decimals) {
  const match = /^([0-9]+)(?:[.,]([0-9]*))?$/.exec(String(text).trim());
  if (!match || (match[2] ?? "").length > decimals) return NaN;
  return Number(match[1]) * 10 ** decimals + Number((match[2] ?? "").padEnd(decimals, "0") || 0);
}

// "−12.50 EUR", as the server writes money (Layout.money), "+" when asked.
function moneyText(units, ledger, signed) {
  const scale = 10 ** ledger.decimals;
  const whole = Math.floor(Math.abs(units) / scale);
  const fraction = ledger.decimals ? "." + String(Math.abs(units) % scale).padStart(ledger.decimals, "0") : "";
  const sign = units < 0 ? "−" : signed && units > 0 ? "+" : "";
  return `${sign}${whole}${fraction}\u00a0${ledger.currency}`;
}

// What the page knows of its ledger: where its forms go, its currency, and each member's name
// and figures as the server last drew them.
function ledgerOnPage(root) {
  const summary = root.querySelector("section.summary[data-currency]");
  if (!summary) return null;
  const members = [...summary.querySelectorAll("tr[data-member]")].map((row) => ({
    id: Number(row.dataset.member), name: row.querySelector("th").textContent, row,
    paid: Number(row.dataset.paid), balance: Number(row.dataset.balance),
  }));
  return { summary, members, currency: summary.dataset.currency, decimals: Number(summary.dataset.decimals),
    path: location.pathname.replace(/\/$/, "") };
}

// Who pays what and who owes what for a waiting form: { payer, amount, shares: Map(member → units) },
// or { error } when the form cannot be shared out (the server would refuse it too).
function effectOf(fields, ledger) {
  const get = (name) => fields.find(([key]) => key === name)?.[1];
  const amount = minorUnits(get("amount") ?? "", ledger.decimals);
  if (!(amount > 0)) return { error: "Type an amount such as 12.50." };
  const payer = Number(get(fields.some(([key]) => key === "from") ? "from" : "payer"));
  if (get("to")) return { payer, amount, kind: "payment", shares: new Map([[Number(get("to")), amount]]) };
  const method = get("split") ?? "equal";
  // In member order, as the server's split keeps them: the order ties are broken in.
  const ids = ledger.members.map((member) => member.id).sort((a, b) => a - b);
  let members, weights;
  if (method === "equal") {
    members = ids.filter((id) => get("among-" + id) !== undefined);
    weights = members.map(() => 1);
  } else {
    members = ids.filter((id) => (get("part-" + id) ?? "").trim() !== "");
    const numbers = members.map((id) => Number(get("part-" + id).trim().replace(",", ".")));
    if (numbers.some((value) => !(value >= 0))) return { error: "Each member's part must be a number." };
    if (method === "exact") {
      const units = members.map((id) => minorUnits(get("part-" + id), ledger.decimals));
      const sum = units.reduce((a, b) => a + b, 0);
      if (units.some(Number.isNaN)) return { error: `Each exact amount must be a number with at most ${ledger.decimals} decimals.` };
      if (sum !== amount) {
        const plain = (units) => moneyText(units, ledger).split("\u00a0")[0].replace("−", "-");
        return { error: `The exact amounts add up to ${plain(sum)}, not ${plain(amount)}: change them by ${plain(amount - sum)} so they match the expense.` };
      }
      return { payer, amount, kind: "expense", shares: new Map(members.map((id, index) => [id, units[index]])) };
    }
    const total = Math.round(numbers.reduce((a, b) => a + b, 0) * 10000);
    if (method === "percent" && total !== 1000000) {
      return { error: `The percentages add up to ${total / 10000}%, not 100%: change them by ${(1000000 - total) / 10000} so they add up.` };
    }
    weights = numbers.map((value) => Math.round(value * 10000));
  }
  if (members.length === 0 || weights.some((weight) => !(weight > 0))) return { error: "Choose who shares the expense." };
  const parts = shareOut(amount, weights);
  return { payer, amount, kind: "expense", shares: new Map(members.map((id, index) => [id, parts[index]])) };
}

// The effect of an entry the server drew (data-payer, data-amount, data-shares).
function effectOfEntry(item) {
  const shares = new Map((item.dataset.shares || "").split(" ").filter(Boolean).map((pair) => pair.split(":").map(Number)));
  return { payer: Number(item.dataset.payer), amount: Number(item.dataset.amount), kind: item.dataset.kind, shares };
}

// Keeps a ledger form for later, or says at once why it could not be sent at all.
async function keepForLater(form, body) {
  const ledger = ledgerOnPage(document);
  if (!ledger) return;
  const fields = [...body.entries()];
  const kind = form.dataset.offline;
  if (kind === "delete") {
    const entry = form.closest("li[data-entry], li[data-waiting]");
    // Deleting what has not been sent yet: it is simply not sent.
    if (entry?.dataset.waiting) { outbox.drop(entry.dataset.waiting); showWaiting(document); return; }
    await outbox.add({ form: true, kind, ledger: ledger.path, action: form.action, fields, id: "delete:" + entry.dataset.entry,
      entry: entry.dataset.entry });
    say("Deleted on this device: it is sent when you are online.", false);
  } else {
    const effect = effectOf(fields, ledger);
    const split = form.querySelector("fieldset[data-split]");
    if (effect.error) { refuseAtSplit(split, effect.error); return; }
    refuseAtSplit(split, null);
    const id = body.get("id");
    await outbox.add({ form: true, kind, ledger: ledger.path, action: form.action, fields, id, date: body.get("date") });
    // The next expense is another one: a new id, and the fields ready for it.
    if (form.elements.id) form.elements.id.value = crypto.randomUUID();
    for (const name of ["amount", "description"]) if (form.elements[name]) form.elements[name].value = "";
    say("Kept on this device: it is sent when you are online.", false);
  }
  showWaiting(document);
}

// A split that cannot be shared out is said at the split, in the server's words (the amount was
// checked before); null clears it.
function refuseAtSplit(split, reason) {
  if (!split) { if (reason) say(reason, true); return; }
  split.querySelector(".field-error").textContent = reason ?? "";
  if (!reason) { split.removeAttribute("aria-invalid"); return; }
  split.setAttribute("aria-invalid", "true");
  split.closest("details")?.setAttribute("open", "");
  focusInView(split.querySelector("input:checked") ?? split);
}

// The ledger's waiting forms in its history, and its balances with them.
function showWaiting(root) {
  const ledger = ledgerOnPage(root);
  if (!ledger) return;
  const mine = outbox.mine().filter((item) => item.form && item.ledger === ledger.path);
  const history = root.querySelector("section[aria-labelledby=history-title]");
  for (const old of root.querySelectorAll("li[data-waiting], .waiting-note")) old.remove();
  for (const item of root.querySelectorAll("li.deleting")) {
    item.classList.remove("deleting", "refused");
    for (const added of item.querySelectorAll(".waiting, .waiting-actions")) added.remove();
  }
  const name = (id) => ledger.members.find((member) => member.id === id)?.name ?? "a former member";
  const effects = [];
  for (const item of mine) {
    if (item.kind === "delete") {
      const shown = root.querySelector(`li[data-entry="${CSS.escape(item.entry)}"]`);
      if (!shown) continue;
      shown.classList.add("deleting");
      shown.classList.toggle("refused", Boolean(item.refused));
      shown.querySelector(".what").append(waitingLine(item, "Deleted here; waits to be sent."));
      shown.append(dropButton(item, item.refused ? "Dismiss" : "Keep it", shown.querySelector("strong").textContent));
      if (!item.refused) effects.push({ ...effectOfEntry(shown), sign: -1 });
      continue;
    }
    const effect = effectOf(item.fields, ledger);
    if (!effect.error && !item.refused) effects.push({ ...effect, sign: 1 });
    let list = history?.querySelector(".ledger-entries");
    if (history && !list) {
      list = document.createElement("ul");
      list.className = "entries ledger-entries";
      history.querySelector(".empty")?.replaceWith(list);
    }
    list?.prepend(waitingEntry(item, effect, ledger, name));
  }
  // The balances: as drawn, plus what waits.
  for (const member of ledger.members) {
    let { paid, balance } = member;
    for (const effect of effects) {
      if (effect.payer === member.id) {
        balance += effect.sign * effect.amount;
        if (effect.kind === "expense") paid += effect.sign * effect.amount;
      }
      balance -= effect.sign * (effect.shares.get(member.id) ?? 0);
    }
    const [paidCell, balanceCell] = member.row.querySelectorAll("td");
    paidCell.textContent = moneyText(paid, ledger);
    balanceCell.textContent = moneyText(balance, ledger, true);
    balanceCell.className = balance > 0 ? "owed" : balance < 0 ? "owes" : "";
  }
  // Who owes whom is worked out by the server: until then the page says the balance is newer.
  for (const part of root.querySelectorAll(".summary p.owes, section[aria-labelledby=plan-title]")) part.hidden = effects.length > 0;
  if (effects.length > 0) {
    const note = document.createElement("p");
    note.className = "help waiting-note";
    note.textContent = `Includes ${effects.length === 1 ? "1 change" : `${effects.length} changes`} waiting to be sent; who pays whom is worked out again once they are.`;
    ledger.summary.querySelector("table").before(note);
  }
}

function waitingLine(item, text) {
  const line = document.createElement("span");
  line.className = item.refused ? "waiting field-error" : "waiting help";
  line.textContent = item.refused ? `Not sent: ${item.refused}` : text;
  return line;
}

function waitingEntry(item, effect, ledger, name) {
  const get = (key) => item.fields.find(([field]) => field === key)?.[1];
  const entry = document.createElement("li");
  entry.className = `${effect.kind ?? "expense"} waiting-entry`;
  entry.dataset.waiting = item.id;
  const what = document.createElement("span");
  what.className = "what";
  const title = document.createElement("strong");
  title.textContent = effect.kind === "payment" ? `${name(effect.payer)} paid ${name([...effect.shares.keys()][0])}`
    : get("description")?.trim() || "Expense";
  const detail = document.createElement("span");
  detail.className = "help";
  detail.textContent = `${get("date") || item.date || ""} · paid by ${name(effect.payer)}`;
  what.append(title, detail, waitingLine(item, "Waiting to be sent."));
  const amount = document.createElement("span");
  amount.className = "amount";
  amount.textContent = effect.error ? get("amount") : moneyText(effect.amount, ledger);
  entry.append(what, amount, dropButton(item, item.refused ? "Dismiss" : "Cancel", `${title.textContent}, ${amount.textContent}`));
  return entry;
}

// Takes a waiting form out of the outbox: it will not be sent.
function dropButton(item, label, what) {
  const actions = document.createElement("span");
  actions.className = "actions waiting-actions";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.setAttribute("aria-label", `${label}: ${what}`);
  button.addEventListener("click", () => { outbox.drop(item.id); showWaiting(document); });
  actions.append(button);
  return actions;
}

enhancers.push(showWaiting);
