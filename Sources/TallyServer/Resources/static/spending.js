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
  const match = /^([0-9]+)(?:[.,]([0-9]*))?$/.exec(plainNumber(text));
  if (!match || (match[2] ?? "").length > decimals) return NaN;
  return Number(match[1]) * 10 ** decimals + Number((match[2] ?? "").padEnd(decimals, "0") || 0);
}

// "−€12.50", as the server writes money (Written.money, in the page's locale), "+" when asked.
function moneyText(units, ledger, signed) {
  const text = formatMoney(Math.abs(units), ledger.currency, ledger.decimals);
  const sign = units < 0 ? "−" : signed && units > 0 ? "+" : "";
  return sign + text;
}

// What the page knows of its ledger: where its forms go, its currency, each member's name and
// figures as the server last drew them, and their ids in member order (the order the server
// keeps payers and split parts in, and breaks ties in).
function ledgerOnPage(root) {
  const summary = root.querySelector("section.summary[data-currency]");
  if (!summary) return null;
  const members = [...summary.querySelectorAll("tr[data-member]")].map((row) => ({
    id: Number(row.dataset.member), name: row.querySelector("th").textContent, row,
    paid: Number(row.dataset.paid), balance: Number(row.dataset.balance),
  }));
  return { summary, members, ids: members.map((member) => member.id).sort((a, b) => a - b),
    currency: summary.dataset.currency, decimals: Number(summary.dataset.decimals), path: location.pathname.replace(/\/$/, "") };
}

// "12.50" as a form field takes an amount: the currency's decimals, "-" for a minus.
function plainAmount(units, ledger) {
  const scale = 10 ** ledger.decimals;
  const whole = Math.floor(Math.abs(units) / scale);
  const fraction = ledger.decimals ? "." + String(Math.abs(units) % scale).padStart(ledger.decimals, "0") : "";
  return `${units < 0 ? "-" : ""}${whole}${fraction}`;
}

// Who pays what and who owes what for a waiting form: { payers: Map(member → units), amount, kind,
// shares: Map(member → units) }, or { error, at } when the server would refuse it: `at` names the
// fieldset the reason belongs to ("payers" or "split").
function effectOf(fields, ledger) {
  const get = (name) => fields.find(([key]) => key === name)?.[1];
  const foreign = foreignOf(get, ledger);
  if (foreign?.error) return { error: foreign.error };
  // What was typed is read in its own currency, and shared in the ledger's as the server does:
  // the converted amount by the same weights, an exact split and several payers by their parts.
  const typed = foreign ? { ...ledger, decimals: foreign.decimals } : ledger;
  const amount = minorUnits(get("amount") ?? "", typed.decimals);
  if (!(amount > 0)) return { error: tr("Type an amount such as 12.50.") };
  const total = foreign ? converted(amount, foreign, ledger) : amount;
  if (!(total > 0)) return { error: tr("Type an amount such as 12.50.") };
  if (get("to")) {
    return { payers: new Map([[Number(get("from")), total]]), amount: total, kind: "payment", shares: new Map([[Number(get("to")), total]]),
      typed: foreign ? { amount, currency: foreign.code, decimals: foreign.decimals } : null };
  }
  const payers = payersOf(get, amount, typed);
  if (payers.error) return { error: payers.error, at: "payers" };
  const shares = sharesOf(get, amount, typed, total);
  if (shares.error) return { error: shares.error, at: "split" };
  return { payers: total === amount ? payers : sharedOut(payers, total), amount: total, kind: "expense", shares,
    typed: foreign ? { amount, currency: foreign.code, decimals: foreign.decimals } : null };
}

// Another currency than the ledger's, as a waiting form has it: its decimals (2 unless the page
// knows it) and its rate as an exact fraction; null for the ledger's own, { error } for a rate
// the server would refuse.
function foreignOf(get, ledger) {
  const code = (get("currency") ?? "").trim().toUpperCase();
  if (code === "" || code === ledger.currency) return null;
  const box = document.querySelector("[data-currency-fields]");
  const decimals = new Map((box?.dataset.decimals || "").split(" ").filter(Boolean).map((pair) => pair.split("=")));
  const match = /^([0-9]+)(?:[.,]([0-9]{0,10}))?$/.exec(plainNumber(get("rate") ?? "").trim());
  if (!match || !(Number(plainNumber(get("rate")).replace(",", ".")) > 0)) {
    return { error: tr("Give the rate of {0}: how many {1} one {2} is worth. This ledger has no rate for it yet.", code, ledger.currency, code) };
  }
  const places = (match[2] ?? "").length;
  return { code, decimals: Number(decimals.get(code) ?? 2), numerator: BigInt(match[1] + (match[2] ?? "")), places };
}

// `units` of the typed currency in the ledger's minor units: amount × rate, rounded once, half up.
function converted(units, foreign, ledger) {
  const numerator = BigInt(units) * foreign.numerator * 10n ** BigInt(ledger.decimals);
  const denominator = 10n ** BigInt(foreign.places + foreign.decimals);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

// `parts` (a Map of member → units) scaled to add up to `total`, as the server shares a
// converted amount: in proportion, the leftover to the largest remainders.
function sharedOut(parts, total) {
  const shares = shareOut(total, [...parts.values()]);
  return new Map([...parts.keys()].map((id, index) => [id, shares[index]]));
}

// Who paid an expense, as the server reads the form: one member the whole amount, or with
// "several" what each member typed (an empty field: they paid nothing), checked as the server
// checks it, in its words. A Map(member → units), or { error }.
function payersOf(get, amount, ledger) {
  if (get("payer") !== "several") return new Map([[Number(get("payer")), amount]]);
  const ids = ledger.ids;
  const name = (id) => ledger.members.find((member) => member.id === id).name;
  const payers = new Map();
  for (const id of ids) {
    const typed = (get("paid-" + id) ?? "").trim();
    if (typed === "") continue;
    const units = minorUnits(typed, ledger.decimals);
    if (Number.isNaN(units)) return { error: notAnAmount(typed, ledger) };
    if (!(units > 0)) return { error: tr("What {0} paid must be more than 0.", name(id)) };
    payers.set(id, units);
  }
  if (payers.size === 0) return { error: tr("Give what each member paid, or choose the one who paid it all.") };
  const sum = [...payers.values()].reduce((a, b) => a + b, 0);
  if (sum !== amount) {
    return { error: tr("What the payers paid adds up to {0}, not {1}: change it by {2} so it matches the expense.",
      plainAmount(sum, ledger), plainAmount(amount, ledger), plainAmount(amount - sum, ledger)) };
  }
  return payers;
}

// Why typed text is not an amount, as the server says it (Money(parsing:)). The plural one has
// its count first ({0}), as trCount has it; the server's sentence has it last.
function notAnAmount(typed, ledger) {
  if (/^[0-9]*[.,][0-9]+$/.test(typed)) {
    if (ledger.decimals === 0) return tr('"{0}" has more decimals than {1} has: write it with no decimals.', typed, ledger.currency);
    return trCount(ledger.decimals, '"{1}" has more decimals than {2} has: write it with {0} decimal.', '"{1}" has more decimals than {2} has: write it with {0} decimals.', typed, ledger.currency);
  }
  if (typed.startsWith("-")) return tr('An amount must be more than 0; "{0}" is negative.', typed);
  return tr('"{0}" is not an amount: write digits with at most one decimal point, such as 12.50.', typed);
}

// Who owes what of an expense, shared the way the server shares: a Map(member → units), or { error }.
// `into`: the amount in the ledger's currency that the shares add up to, when it was typed in another.
function sharesOf(get, amount, ledger, into = amount) {
  const method = get("split") ?? "equal";
  const ids = ledger.ids;
  let members, weights;
  if (method === "equal") {
    members = ids.filter((id) => get("among-" + id) !== undefined);
    weights = members.map(() => 1);
  } else {
    members = ids.filter((id) => (get("part-" + id) ?? "").trim() !== "");
    const numbers = members.map((id) => Number(plainNumber(get("part-" + id)).replace(",", ".")));
    if (numbers.some((value) => !(value >= 0))) return { error: tr("Each member's part must be a number.") };
    if (method === "exact") {
      const units = members.map((id) => minorUnits(get("part-" + id), ledger.decimals));
      const sum = units.reduce((a, b) => a + b, 0);
      if (units.some(Number.isNaN)) {
        return { error: trCount(ledger.decimals, "Each exact amount must be a number with at most {0} decimal.", "Each exact amount must be a number with at most {0} decimals.") };
      }
      if (sum !== amount) {
        return { error: tr("The exact amounts add up to {0}, not {1}: change them by {2} so they match the expense.",
          plainAmount(sum, ledger), plainAmount(amount, ledger), plainAmount(amount - sum, ledger)) };
      }
      const exact = new Map(members.map((id, index) => [id, units[index]]));
      return into === amount ? exact : sharedOut(exact, into);
    }
    const total = Math.round(numbers.reduce((a, b) => a + b, 0) * 10000);
    if (method === "percent" && total !== 1000000) {
      return { error: tr("The percentages add up to {0}%, not 100%: change them by {1} so they add up.", total / 10000, (1000000 - total) / 10000) };
    }
    weights = numbers.map((value) => Math.round(value * 10000));
  }
  if (members.length === 0 || weights.some((weight) => !(weight > 0))) return { error: tr("Choose who shares the expense.") };
  const parts = shareOut(into, weights);
  return new Map(members.map((id, index) => [id, parts[index]]));
}

// The effect of an entry the server drew (data-payers, data-amount, data-shares: "member:units"
// pairs). A page kept from before several payers has only data-payer, who paid it all.
function effectOfEntry(item) {
  const pairs = (text) => new Map((text || "").split(" ").filter(Boolean).map((pair) => pair.split(":").map(Number)));
  const amount = Number(item.dataset.amount);
  const payers = item.dataset.payers ? pairs(item.dataset.payers) : new Map([[Number(item.dataset.payer), amount]]);
  return { payers, amount, kind: item.dataset.kind, shares: pairs(item.dataset.shares) };
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
    say(tr("Deleted on this device: it is sent when you are online."), false);
  } else {
    const effect = effectOf(fields, ledger);
    // Who paid is checked first, as the server does; a refusal shows at one fieldset, the other's goes.
    const payers = form.querySelector("fieldset[data-payers]");
    refuseAt(payers, effect.at === "payers" ? effect.error : null);
    refuseAt(form.querySelector("fieldset[data-split]"), effect.at === "payers" ? null : effect.error ?? null);
    if (effect.error) return;
    const id = body.get("id");
    await outbox.add({ form: true, kind, ledger: ledger.path, action: form.action, fields, id, date: body.get("date") });
    // The next expense is another one: a new id, and the fields ready for it (what each paid
    // was of the amount that goes).
    if (form.elements.id) form.elements.id.value = crypto.randomUUID();
    for (const name of ["amount", "description"]) if (form.elements[name]) form.elements[name].value = "";
    for (const paid of payers?.querySelectorAll("input.paid") ?? []) paid.value = "";
    payers?.dispatchEvent(new Event("input"));
    say(tr("Kept on this device: it is sent when you are online."), false);
  }
  showWaiting(document);
}

// Who paid, or a split, that the server would refuse is said at its fieldset, in the server's
// words (the amount was checked before); null clears it. Without the fieldset, the page says it.
function refuseAt(fieldset, reason) {
  if (!fieldset) { if (reason) say(reason, true); return; }
  fieldset.querySelector(".field-error").textContent = reason ?? "";
  if (!reason) { fieldset.removeAttribute("aria-invalid"); return; }
  fieldset.setAttribute("aria-invalid", "true");
  fieldset.closest("details")?.setAttribute("open", "");
  focusInView(fieldset.querySelector("input:checked") ?? fieldset);
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
  const name = (id) => ledger.members.find((member) => member.id === id)?.name ?? tr("a former member");
  const effects = [];
  for (const item of mine) {
    if (item.kind === "delete") {
      const shown = root.querySelector(`li[data-entry="${CSS.escape(item.entry)}"]`);
      if (!shown) continue;
      shown.classList.add("deleting");
      shown.classList.toggle("refused", Boolean(item.refused));
      shown.querySelector(".what").append(waitingLine(item, tr("Deleted here; waits to be sent.")));
      const what = shown.querySelector("strong").textContent;
      shown.append(item.refused ? dropButton(item, tr("Dismiss"), tr("Dismiss: {0}", what)) : dropButton(item, tr("Keep it"), tr("Keep it: {0}", what)));
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
      // Each payer is credited their part; a payment's sender is not counted as having spent.
      const part = effect.payers.get(member.id) ?? 0;
      balance += effect.sign * part;
      if (effect.kind === "expense") paid += effect.sign * part;
      balance -= effect.sign * (effect.shares.get(member.id) ?? 0);
    }
    const [paidCell, balanceCell] = member.row.querySelectorAll("td");
    paidCell.textContent = moneyText(paid, ledger);
    balanceCell.textContent = moneyText(balance, ledger, true);
    balanceCell.className = balance > 0 ? "owed" : balance < 0 ? "owes" : "";
  }
  // Who owes whom is worked out by the server: until then the page says the balance is newer.
  for (const part of document.querySelectorAll(".summary p.owes, section[aria-labelledby=plan-title], [data-standing]")) part.hidden = effects.length > 0;
  if (effects.length > 0) {
    const note = document.createElement("p");
    note.className = "help waiting-note";
    note.textContent = trCount(effects.length, "Includes {0} change waiting to be sent; who pays whom is worked out again once they are.",
      "Includes {0} changes waiting to be sent; who pays whom is worked out again once they are.");
    ledger.summary.querySelector("table").before(note);
  }
}

function waitingLine(item, text) {
  const line = document.createElement("span");
  line.className = item.refused ? "waiting field-error" : "waiting help";
  line.textContent = item.refused ? tr("Not sent: {0}", item.refused) : text;
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
  // A form the page can no longer work out (a member removed since) still says who it named.
  const payers = effect.payers ? [...effect.payers]
    : get("payer") === "several" ? null : [[Number(get("payer") ?? get("from")), 0]];
  title.textContent = effect.kind === "payment" ? tr("{0} paid {1}", name(payers[0][0]), name([...effect.shares.keys()][0]))
    : get("description")?.trim() || tr("Expense");
  const detail = document.createElement("span");
  detail.className = "help";
  const date = get("date") || item.date || "";
  detail.textContent = payers ? tr("{0} · paid by {1}", date, paidBy(payers, ledger, name)) : tr("{0} · paid by several", date);
  what.append(title, detail, waitingLine(item, tr("Waiting to be sent.")));
  const amount = document.createElement("span");
  amount.className = "amount";
  // "$10.05 → €9.05" for an amount typed in another currency, as the history shows it.
  const converted = moneyText(effect.amount, ledger);
  amount.textContent = effect.error ? get("amount") : effect.typed
    ? tr("{0} → {1}", formatMoney(effect.typed.amount, effect.typed.currency, effect.typed.decimals), converted) : converted;
  entry.append(what, amount, item.refused
    ? dropButton(item, tr("Dismiss"), tr("Dismiss: {0}, {1}", title.textContent, amount.textContent))
    : dropButton(item, tr("Cancel"), tr("Cancel: {0}, {1}", title.textContent, amount.textContent)));
  return entry;
}

// "Alex" for one payer; "Alex 30.00 and Sam 20.00" for several, as the history says it (commas
// before the last of three or more).
// "Ana €60.00 and Ben €30.00", as the server writes it (Layout.payers): the page's language
// lists them, each amount written as it writes money.
function paidBy(payers, ledger, name) {
  if (payers.length === 1) return name(payers[0][0]);
  const each = payers.map(([id, units]) => `${name(id)} ${moneyText(units, ledger)}`);
  return new Intl.ListFormat(LOCALE, { type: "conjunction" }).format(each);
}

// Takes a waiting form out of the outbox: it will not be sent. `label` is the button's word,
// `described` the same with what it is about, for a screen reader.
function dropButton(item, label, described) {
  const actions = document.createElement("span");
  actions.className = "actions waiting-actions";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.setAttribute("aria-label", described);
  button.addEventListener("click", () => { outbox.drop(item.id); showWaiting(document); });
  actions.append(button);
  return actions;
}

enhancers.push(showWaiting);
