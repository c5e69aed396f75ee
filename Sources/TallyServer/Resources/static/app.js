// Tally's pages work without this script: every action is a plain form. With it, actions go
// through the JSON API and the page updates in place, with a little motion and a tap of
// vibration where the device has them.
"use strict";

// Tally's words in the page's language: the page carries the translations of the phrases its
// scripts say (#tally-words, keyed by the English phrase, as the server's catalogs are), and
// these put the values in, numbers in the page's locale. A phrase the page lacks stays English.
const WORDS = (() => {
  try { return JSON.parse(document.getElementById("tally-words")?.textContent || "{}"); } catch (_) { return {}; }
})();
const LOCALE = document.documentElement.dataset.locale || document.documentElement.lang || "en";
const PLURALS = new Intl.PluralRules(LOCALE);
function fill(template, values) {
  return template.replace(/\{(\d+)\}/g, (whole, index) => (index < values.length ? String(values[index]) : whole));
}
// `tr("Deleted {0}.", what)`: the phrase in the page's language, with its values.
function tr(key, ...values) {
  const entry = WORDS[key];
  return fill(typeof entry === "string" ? entry : key, values);
}
// `trCount(n, "{0} drink sent.", "{0} drinks sent.")`: the form the language uses for n; {0} is n, written
// in the page's locale, and further values are {1}…
function trCount(count, one, other, ...values) {
  const entry = WORDS[other];
  const category = PLURALS.select(count);
  const template = entry && typeof entry === "object" ? (entry[category] ?? entry.other ?? other) : (category === "one" ? one : other);
  return fill(template, [new Intl.NumberFormat(LOCALE).format(count), ...values]);
}
// A number that is not a count (a volume, a percentage) as the server writes volumes: the
// locale's decimal sign, no grouping ("2450", "8.5"; "8,5" in German).
function localNumber(value) {
  return new Intl.NumberFormat(LOCALE, { useGrouping: false, maximumFractionDigits: 4 }).format(value);
}

// A number as the page's locale writes it, in the plain digits and decimal point the server's
// parsers read, as the server reads a form (Written.plainNumber): "1.234,56" on a German page is
// "1234.56"; a plain "12.50" stays as it is; Arabic-Indic digits become ASCII.
const NUMBER_MARKS = (() => {
  const parts = new Intl.NumberFormat(LOCALE).formatToParts(12345.6);
  const decimal = (parts.find((part) => part.type === "decimal")?.value ?? ".").replace("\u066B", ".");
  const group = (parts.find((part) => part.type === "group")?.value ?? ",").replace(/[\u00A0\u202F]/g, " ").replace("\u066C", "\u2019");
  return { decimal, groups: new Set([" ", "\u2019", "'", group]) };
})();
function plainNumber(typed) {
  const text = String(typed).trim()
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (digit) => String(digit.charCodeAt(0) - 0x06F0))
    .replace(/\u066B/g, ".").replace(/\u066C/g, "\u2019").replace(/[\u00A0\u202F]/g, " ");
  const cut = text.lastIndexOf(NUMBER_MARKS.decimal);
  const whole = cut >= 0 ? text.slice(0, cut) : text;
  const groups = [[]];
  for (const character of whole) {
    if (NUMBER_MARKS.groups.has(character)) groups.push([]);
    else groups[groups.length - 1].push(character);
  }
  const words = groups.map((group) => group.join(""));
  const grouped = words.length > 1 && words[0].length >= 1 && words[0].length <= 3
    && words.slice(1).every((word) => word.length === 3) && words.every((word) => /^[0-9]+$/.test(word));
  if (!grouped) return text;
  return words.join("") + (cut >= 0 ? "." + text.slice(cut + 1) : "");
}

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    // The API's refusals in the page's language (the person's choice, which may not be the browser's).
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf(), Accept: "application/json",
               "Accept-Language": document.documentElement.lang || "en" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  if (!response.ok) {
    let detail = tr("Something went wrong; try again.");
    try { detail = (await response.json()).detail ?? detail; } catch (_) {}
    throw new Error(detail);
  }
  // 204, and a 201 that only says "created", have no body.
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

// Shows a sentence in the page's message box, or in `where` (a box next to the control that
// was used, when the page's box is out of sight).
function say(text, isError, where) {
  const message = where ?? document.querySelector("main .message");
  if (!message) return;
  message.textContent = text;
  message.className = "message " + (isError ? "error" : "notice");
  message.setAttribute("role", isError ? "alert" : "status");
  message.hidden = false;
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function celebrate(text) {
  if (navigator.vibrate) navigator.vibrate(15);
  if (reducedMotion()) return;
  const pop = document.createElement("div");
  pop.className = "pop";
  pop.setAttribute("aria-hidden", "true");
  pop.textContent = text;
  document.body.append(pop);
  setTimeout(() => pop.remove(), 1000);
}

// Which control of the new content should have the focus the old one had: the same button
// (a preset pressed twice from the keyboard), the dialog's opener, else main itself.
function focusKey(main) {
  const active = document.activeElement;
  if (!active || !main.contains(active)) return null;
  if (active.closest("dialog") || active.matches(".custom-open")) return { selector: "button.custom-open" };
  const label = active.getAttribute("aria-label");
  if (label) return { selector: `[aria-label="${CSS.escape(label)}"]` };
  if (active.id) return { selector: "#" + CSS.escape(active.id) };
  return { selector: null };
}

// Reads of the page, by the order they were started in: which was last drawn.
const reads = { started: 0, drawn: 0 };

// Fetches the page again and swaps its content in, letting the ring move from where it was. An
// answer that comes back after a later read's was drawn is older: it is dropped, and so does not
// take that read's notice away (a stream's "it changed" and the page's own delete cross).
async function refresh(notice, { keepMessage = false } = {}) {
  const read = ++reads.started;
  const oldOffset = document.querySelector(".ring .fill")?.getAttribute("stroke-dashoffset");
  const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  if (read < reads.drawn) return;
  reads.drawn = read;
  const main = document.querySelector("main");
  // Read as the new page goes in, not before: another answer may have spoken meanwhile.
  const said = keepMessage ? main.querySelector(".message:not([hidden])") : null;
  // The focus as it is now, not as the read began: an Undo offered meanwhile, in the notice that
  // stays, keeps it (moving the notice into the new content would drop it).
  const kept = said?.contains(document.activeElement) ? document.activeElement : null;
  const focus = focusKey(main);
  main.replaceChildren(...page.querySelector("main").childNodes);
  const blank = main.querySelector(".message[hidden]");
  if (said && blank) blank.replaceWith(said);
  const fill = document.querySelector(".ring .fill");
  if (fill && oldOffset !== null && !reducedMotion()) {
    const target = fill.getAttribute("stroke-dashoffset");
    fill.style.transition = "none";
    fill.setAttribute("stroke-dashoffset", oldOffset);
    fill.getBoundingClientRect();
    fill.style.transition = "";
    fill.setAttribute("stroke-dashoffset", target);
  }
  if (notice) say(notice, false);
  enhance(main);
  if (kept && main.contains(kept)) kept.focus({ preventScroll: true });
  else if (focus) {
    const target = (focus.selector && main.querySelector(focus.selector)) || main;
    target.focus({ preventScroll: true });
  }
}

// A past day's forms carry the moment they log at (its hidden "at"): sent with the drink.
const when = (form) => (form.elements.at ? { at: form.elements.at.value } : {});

const actions = {
  intake: (form) => ({ method: "POST", path: "/api/v1/intakes",
    body: { id: crypto.randomUUID(), volumeMl: Number(form.elements.volumeMl.value), ...when(form),
      ...(form.elements.kind ? { kind: form.elements.kind.value } : {}) } }),
  removal: (form) => ({ method: "POST", path: "/api/v1/removals",
    body: { id: crypto.randomUUID(), volumeMl: Number(form.elements.volumeMl.value), ...when(form) } }),
  custom: (form) => {
    const ml = typedMilliliters(form);
    return form.elements.mode.value === "remove"
      ? { method: "POST", path: "/api/v1/removals", body: { id: crypto.randomUUID(), volumeMl: ml, ...when(form) } }
      : { method: "POST", path: "/api/v1/intakes",
          body: { id: crypto.randomUUID(), volumeMl: ml, kind: form.elements.kind.value, ...when(form) } };
  },
  delete: (form) => ({ method: "DELETE", path: "/api/v1/entries/" + form.action.split("/").at(-2) }),
};

// The custom amount in millilitres, read as the server reads it (VolumeInput): a number, in the
// unit chosen beside it unless one is typed with it ("8oz", "250 ml"); NaN for anything else.
function typedMilliliters(form) {
  const match = /^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(ml|millilitres?|milliliters?|oz|fl\.?\s?oz|ounces?)?\s*$/i.exec(form.elements.amount.value);
  if (!match) return NaN;
  const typed = match[2]?.toLowerCase();
  const unit = typed ? (typed.startsWith("m") ? "ml" : "oz") : form.elements.unit.value;
  const perUnit = Number([...form.elements.unit.options].find((option) => option.value === unit)?.dataset.ml);
  return Number(match[1]) * perUnit;
}

// The custom amount must be above 0 and within the limit before it can be sent.
function checkAmount(form) {
  const input = form.elements.amount;
  const ml = typedMilliliters(form);
  const valid = Number.isFinite(ml) && ml > 0 && ml <= Number(input.dataset.maxMl) + 1e-9;
  input.setCustomValidity(valid ? "" : form.dataset.invalid);
  input.setAttribute("aria-invalid", String(!valid));
  form.querySelector(".field-error").textContent = valid ? "" : form.dataset.invalid;
  return valid;
}

// Removing water is not drinking: the drink kind goes away while Remove is chosen.
function followMode(form) {
  const removing = form.elements.mode.value === "remove";
  for (const element of [form.elements.kind, form.querySelector('label[for="kind"]')]) {
    if (element) element.hidden = removing;
  }
  const submit = form.querySelector('button[type="submit"]');
  if (submit) submit.textContent = removing ? tr("Remove it") : tr("Log it");
}

function enhanceCustomDialog(root) {
  const details = root.querySelector("details.custom");
  if (!details || typeof HTMLDialogElement === "undefined") return;
  const form = details.querySelector("form");
  const dialog = document.createElement("dialog");
  dialog.setAttribute("aria-labelledby", "custom-title");
  const title = document.createElement("h2");
  title.id = "custom-title";
  title.textContent = tr("Custom amount");
  dialog.append(title);
  dialog.append(form);
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "secondary";
  cancel.textContent = tr("Cancel");
  cancel.addEventListener("click", () => dialog.close());
  form.append(cancel);
  const open = document.createElement("button");
  open.type = "button";
  open.className = "secondary custom-open";
  open.textContent = tr("Custom amount…");
  open.addEventListener("click", () => { dialog.showModal(); form.elements.amount.focus(); });
  details.replaceWith(open, dialog);
  form.elements.amount.addEventListener("input", () => checkAmount(form));
  for (const radio of form.elements.mode) radio.addEventListener("change", () => followMode(form));
  followMode(form);
}

// Who is signed in: the server's id of the person, asked while online and remembered for the
// pages that are opened offline.
const me = {
  key: "tally-user",
  asked: null,
  // Asks the server: the id, or null when it cannot answer (offline) or nobody is signed in.
  async ask() {
    try {
      const { id } = await api("GET", "/api/v1/me");
      localStorage.setItem(this.key, id);
      showConnection();
      return id;
    } catch (_) {
      return null;
    }
  },
  // The same, asked once for this page while it succeeds.
  async now() {
    this.asked ??= this.ask().then((id) => { if (!id) this.asked = null; return id; });
    return this.asked;
  },
  last() { return localStorage.getItem(this.key); },
};

// Drinks logged without a connection wait on the device, each with the id it was given, and
// are sent when the connection returns: the server records an id once, so a drink is neither
// lost nor counted twice, however often the sending is tried. Each drink names who logged it
// and is sent only while that person is signed in: on a shared device, one person's drinks are
// never counted as another's. A ledger page's expenses, payments and deletes wait here too, as
// the forms they were (spending.js); one the server refuses stays, with its reason, until the
// person has seen it.
const outbox = {
  key: "tally-outbox",
  all() {
    try { return JSON.parse(localStorage.getItem(this.key) ?? "[]"); } catch (_) { return []; }
  },
  mine() { return this.all().filter((item) => item.owner && item.owner === me.last()); },
  save(items) { localStorage.setItem(this.key, JSON.stringify(items)); showConnection(); },
  async add(item) {
    const owner = (await me.now()) ?? me.last();
    this.save([...this.all(), { ...item, owner }]);
  },
  sending: false,
  async flush() {
    if (this.sending || !navigator.onLine || this.all().length === 0) return;
    this.sending = true;
    let sent = 0, drinks = 0, refused = 0;
    try {
      // Asked again: another tab may have signed someone else in since this page was opened.
      const owner = await me.ask();
      for (const item of this.all().filter((item) => owner && item.owner === owner && !item.refused)) {
        try {
          if (item.form) await sendForm(item);
          else await api(item.method, item.path, item.body);
        } catch (error) {
          // Still no network: keep it for later.
          if (error instanceof TypeError) break;
          // A refused form stays, with the reason, for its page to show; a refused drink
          // would never succeed: it goes.
          if (item.form) {
            this.save(this.all().map((other) => (this.idOf(other) === this.idOf(item) ? { ...other, refused: error.message } : other)));
            refused += 1;
            continue;
          }
        }
        this.save(this.all().filter((other) => this.idOf(other) !== this.idOf(item)));
        sent += 1;
        if (!item.form) drinks += 1;
      }
    } finally {
      this.sending = false;
    }
    // Only drinks are counted as drinks, and only on a day's page (a ledger's chart has a
    // ".today" bar too).
    if (drinks > 0 && document.querySelector("section.today")) await refresh(trCount(drinks, "{0} drink sent.", "{0} drinks sent."));
    if (sent + refused > 0 && document.querySelector(".live[data-changes]")) {
      await live.update();
      if (refused > 0) {
        say(trCount(refused, "A change made offline could not be made: the reason is at the entry.", "{0} changes made offline could not be made: the reason is at the entry."), true);
      }
    }
  },
  idOf(item) { return item.form ? item.id : item.body.id; },
  drop(id) { this.save(this.all().filter((item) => this.idOf(item) !== id)); },
};

// Sends a form kept in the outbox as its page would have, with the session's CSRF token now.
// A refusal throws an Error with the server's reason; no answer (or a sign-in page: the
// session ended) throws a TypeError, which keeps the form for later.
async function sendForm(item) {
  const body = new URLSearchParams(item.fields);
  body.set("csrf", csrf());
  const response = await fetch(item.action, { method: "POST", body, credentials: "same-origin" });
  if (response.redirected && new URL(response.url).pathname === "/signin") throw new TypeError("signed out");
  if (response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const reason = page.querySelector("main .message.error")?.textContent.trim();
  if (response.status >= 500 || !reason) throw new TypeError("no answer");
  throw new Error(reason);
}

function showConnection() {
  const banner = document.getElementById("offline");
  if (!banner) return;
  const items = outbox.mine().filter((item) => !item.refused);
  const waiting = items.length;
  const drinks = items.every((item) => !item.form);
  if (!navigator.onLine && !waiting) {
    banner.textContent = document.querySelector("form[data-offline]")
      ? tr("You are offline. Expenses you add are kept and sent later.") : tr("You are offline. Drinks you log are kept and sent later.");
  } else if (!navigator.onLine) {
    banner.textContent = drinks
      ? trCount(waiting, "You are offline. {0} drink waits to be sent.", "You are offline. {0} drinks wait to be sent.")
      : trCount(waiting, "You are offline. {0} change waits to be sent.", "You are offline. {0} changes wait to be sent.");
  } else if (waiting) {
    banner.textContent = drinks
      ? trCount(waiting, "Sending: {0} drink waits.", "Sending: {0} drinks wait.")
      : trCount(waiting, "Sending: {0} change waits.", "Sending: {0} changes wait.");
  }
  banner.hidden = navigator.onLine && waiting === 0;
}

function enhanceForms(root) {
  for (const form of root.querySelectorAll("form[data-api]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const kind = form.dataset.api;
      if (kind === "custom" && !checkAmount(form)) { form.elements.amount.focus(); return; }
      // A time typed with it: the server reads it in the person's zone, from the form itself.
      if (kind === "custom" && form.elements.time?.value) { await sendTimed(form); return; }
      // No "Are you sure?": a delete, like a drink, is undone with one tap on the notice.
      const gone = kind === "delete" ? form.closest("li[data-again]") : null;
      const { method, path, body } = actions[kind](form);
      const drink = path === "/api/v1/intakes";
      if (drink && !navigator.onLine) {
        await outbox.add({ method, path, body });
        form.closest("dialog")?.close();
        say(tr("Kept on this device: it is sent when you are online."), false);
        return;
      }
      try {
        await api(method, path, body);
        form.closest("dialog")?.close();
        const unit = document.querySelector("form[data-ml-per-unit]");
        // Whole millilitres, ounces to a tenth (as the server writes volumes).
        const places = unit?.dataset.unit === "oz" ? 10 : 1;
        const shown = body?.volumeMl && unit ? Math.round((body.volumeMl / Number(unit.dataset.mlPerUnit)) * places) / places : null;
        const label = unit?.dataset.unit ?? "";
        const removed = path.endsWith("removals");
        const volume = shown !== null ? localNumber(shown) + " " + label : null;
        if (volume !== null) celebrate((removed ? "−" : "+") + volume);
        await refresh(kind === "delete" ? tr("Deleted.") : null);
        if (kind === "delete" && gone) offerUndo(tr("Deleted {0}.", form.dataset.what), () => logAgain(gone), true);
        else if (body?.id) {
          const done = volume === null ? (removed ? tr("Removed.") : tr("Added."))
            : removed ? tr("Removed {0}.", volume) : tr("Added {0}.", volume);
          offerUndo(done, () => api("DELETE", "/api/v1/entries/" + body.id));
        }
      } catch (error) {
        // The network went away on the way: keep the drink for later, with its id.
        if (drink && error instanceof TypeError) {
          await outbox.add({ method, path, body });
          form.closest("dialog")?.close();
          say(tr("Kept on this device: it is sent when you are online."), false);
          return;
        }
        // The custom amount keeps its dialog open, with the server's reason next to the field.
        if (kind === "custom" && form.closest("dialog")?.open) {
          form.querySelector(".field-error").textContent = error.message;
          form.elements.amount.setAttribute("aria-invalid", "true");
          form.elements.amount.focus();
          return;
        }
        say(error.message, true);
      }
    });
  }
}

// A custom drink or removal at a time of the day shown: sent as the plain form would be (its
// hidden id makes a second sending change nothing); offline, kept as a form for later.
async function sendTimed(form) {
  const item = { form: true, kind: "drink", action: form.action, fields: [...new FormData(form)], id: form.elements.id.value };
  const kept = async () => {
    await outbox.add(item);
    form.closest("dialog")?.close();
    say(tr("Kept on this device: it is sent when you are online."), false);
  };
  if (!navigator.onLine) return kept();
  try {
    await sendForm(item);
  } catch (error) {
    if (error instanceof TypeError) return kept();
    form.querySelector(".field-error").textContent = error.message;
    form.elements.amount.setAttribute("aria-invalid", "true");
    form.elements.amount.focus();
    return;
  }
  form.closest("dialog")?.close();
  await refresh(null);
  const time = localTime(form.elements.time.value);
  offerUndo(form.elements.mode.value === "remove" ? tr("Removed at {0}.", time) : tr("Added at {0}.", time),
    () => api("DELETE", "/api/v1/entries/" + item.id));
}

// "8:15 AM", "08:15": a time field's "08:15" as the page's language writes a time, as the list
// of drinks beside it does (Written.time).
function localTime(value) {
  const [hours, minutes] = value.split(":").map(Number);
  if (!Number.isInteger(hours) || !Number.isInteger(minutes)) return value;
  return new Date(2000, 0, 1, hours, minutes).toLocaleTimeString(LOCALE, { hour: "numeric", minute: "2-digit" });
}

// The notice after a drink, a removal or a delete, with Undo: one tap takes it back (`undo`),
// and the page is read again. After a delete, Undo has the focus the deleted row's button had.
function offerUndo(text, undo, focus) {
  const message = document.querySelector("main .message");
  if (!message) return;
  const words = document.createElement("span");
  words.textContent = text;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = tr("Undo");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await undo();
      await refresh(tr("Undone."));
    } catch (error) {
      say(error.message, true);
    }
  });
  message.replaceChildren(words, button);
  message.className = "message notice undo";
  message.setAttribute("role", "status");
  message.hidden = false;
  if (focus) focusInView(button);
}

// Logs a deleted entry again as it was (a new id; the same amount, kind, moment and note).
function logAgain(row) {
  const data = row.dataset;
  const body = { id: crypto.randomUUID(), volumeMl: Number(data.volumeMl), at: data.at };
  if (data.again === "removal") return api("POST", "/api/v1/removals", body);
  return api("POST", "/api/v1/intakes", { ...body, kind: data.kind, ...(data.note ? { note: data.note } : {}) });
}

// Onboarding and the profile show the goal the numbers give as they are typed.
function enhanceGoalPreview(root) {
  for (const form of root.querySelectorAll("form[data-goal-preview]")) {
    const output = form.querySelector("output");
    const update = async () => {
      const body = { age: Number(form.elements.age.value), weightKg: Number(form.elements.weight.value),
                     activity: form.elements.activity.value };
      if (!form.elements.age.value || !form.elements.weight.value) return;
      try {
        const goal = await api("POST", "/api/v1/goal/calculate", body);
        output.replaceChildren();
        const base = tr("Base {0} ml ({1} ml per kg)", localNumber(Math.round(goal.baseMl)), localNumber(goal.mlPerKg));
        for (const text of [base, tr("+ activity {0} ml", localNumber(goal.bonusMl))]) {
          const span = document.createElement("span");
          span.textContent = text;
          output.append(span);
        }
        const total = document.createElement("strong");
        const perDay = localNumber(Math.round(goal.goalMl));
        total.textContent = goal.clamped ? tr("= {0} ml a day (kept within 1500–4500 ml)", perDay) : tr("= {0} ml a day", perDay);
        output.append(total);
      } catch (error) {
        output.textContent = error.message;
      }
    };
    for (const name of ["age", "weight", "activity"]) form.elements[name].addEventListener("change", update);
  }
}

// Money as the server writes it (Written.money): the page's locale (body's data-locale), the
// currency's symbol and grouping, exactly its decimals, a true minus, no break inside.
function formatMoney(units, currency, decimals) {
  const locale = document.body.dataset.locale || "en-US";
  let text;
  try {
    text = new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals })
      .format(units / 10 ** decimals);
  } catch {
    text = `${(units / 10 ** decimals).toFixed(decimals)} ${currency}`;
  }
  return text.replace(/-/g, "−").replace(/[ \u202f]/g, "\u00a0");
}

// A fieldset of amounts in the ledger's currency (data-decimals, data-currency) that says what is
// left as you type: `update` redraws it, now and whenever it or the form's amount changes. It is
// given how to read a typed number and write minor units as money.
function followAmounts(fieldset, update) {
  const decimals = Number(fieldset.dataset.decimals);
  const scale = 10 ** decimals;
  const figures = {
    form: fieldset.form, left: fieldset.querySelector(".left"), scale,
    number: (text) => Number(String(text).trim().replace(",", ".")),
    money: (units) => formatMoney(units, fieldset.dataset.currency, decimals),
  };
  const redraw = () => update(figures);
  fieldset.addEventListener("input", redraw);
  fieldset.addEventListener("change", redraw);
  fieldset.form?.elements.amount?.addEventListener("input", redraw);
  redraw();
}

// The quick entry's split: only the chosen method's fields show (ticks for equal shares, numbers
// for the others), and what is left to share is said as you type. The server checks it again.
function enhanceSplit(root) {
  for (const fieldset of root.querySelectorAll("fieldset[data-split]")) {
    followAmounts(fieldset, ({ form, left, scale, number, money }) => {
      const method = fieldset.querySelector("input[name=split]:checked")?.value ?? "equal";
      fieldset.dataset.method = method;
      const parts = [...fieldset.querySelectorAll("input.part")].filter((input) => input.value.trim() !== "");
      const values = parts.map((input) => number(input.value));
      const amount = Math.round(number(form.elements.amount.value) * scale);
      let text = "";
      if (method !== "equal" && parts.length > 0 && !values.some((value) => Number.isNaN(value) || value < 0)) {
        const sum = values.reduce((total, value) => total + value, 0);
        if (method === "percent") {
          const rest = Math.round((100 - sum) * 10000) / 10000;
          // (A no-break space before each "%".)
          text = rest === 0 ? tr("The percentages add up to 100 %.")
            : rest > 0 ? tr("{0} % left to share.", localNumber(rest)) : tr("{0} % too many.", localNumber(-rest));
        } else if (!(amount > 0)) {
          text = tr("Type the amount to see how it is shared.");
        } else if (method === "exact") {
          const rest = amount - Math.round(sum * scale);
          text = rest === 0 ? tr("The amounts add up.") : rest > 0 ? tr("{0} left to share.", money(rest)) : tr("{0} too much.", money(-rest));
        } else if (sum > 0) {
          const name = (input) => input.closest("li").querySelector("label").textContent;
          const shares = parts.map((input, index) => tr("{0} about {1}", name(input), money(Math.round(amount * values[index] / sum))));
          // "Alex about €5.00, Sam about €3.00.": the locale's list of measures ("a, b, c" in English).
          text = new Intl.ListFormat(LOCALE, { type: "unit", style: "short" }).format(shares) + ".";
        }
      }
      left.textContent = text;
    });
  }
}

// Who paid: one member's toggle, or "Several" with what each member paid. The amounts show only
// while "Several" is chosen (the style sheet hides them otherwise), and what is left to pay is
// said as you type. The server checks it again.
function enhancePayers(root) {
  for (const fieldset of root.querySelectorAll("fieldset[data-payers]")) {
    followAmounts(fieldset, ({ form, left, scale, number, money }) => {
      const several = fieldset.querySelector("input[name=payer]:checked")?.value === "several";
      fieldset.dataset.mode = several ? "several" : "one";
      const parts = [...fieldset.querySelectorAll("input.paid")].filter((input) => input.value.trim() !== "");
      const values = parts.map((input) => number(input.value));
      const amount = Math.round(number(form?.elements.amount?.value ?? "") * scale);
      let text = "";
      // A part that is not a number has nothing to add up (the server says why when it is sent).
      if (several && !values.some((value) => Number.isNaN(value) || value < 0)) {
        if (!(amount > 0)) {
          text = parts.length > 0 ? tr("Type the amount to see what is left.") : "";
        } else {
          const rest = amount - values.reduce((total, value) => total + Math.round(value * scale), 0);
          text = rest === 0 ? tr("The parts add up.") : rest > 0 ? tr("{0} left to pay.", money(rest)) : tr("{0} too much.", money(-rest));
        }
      }
      left.textContent = text;
    });
  }
}

// The currency an expense is typed in: the rate field shows only for another currency than the
// ledger's, filled in with the rate the ledger last used for it (data-rates: "USD=0.92 GBP=1.17"),
// and the amount's label names the chosen currency. The amount's own pattern holds the ledger
// currency's decimals; for another currency the server checks them.
function enhanceCurrency(root) {
  for (const box of root.querySelectorAll("[data-currency-fields]")) {
    const form = box.closest("form");
    const code = box.querySelector("input[name=currency]");
    const rate = box.querySelector("input[name=rate]");
    const field = box.querySelector("[data-rate-field]");
    const rates = new Map((box.dataset.rates || "").split(" ").filter(Boolean).map((pair) => pair.split("=")));
    const amount = form?.elements.amount;
    if (amount && amount.dataset.pattern === undefined) amount.dataset.pattern = amount.getAttribute("pattern") ?? "";
    let shown = code.value.trim().toUpperCase();
    const follow = () => {
      const chosen = code.value.trim().toUpperCase();
      const other = chosen !== "" && chosen !== box.dataset.ledger;
      field.hidden = !other;
      if (chosen !== shown && other) rate.value = rates.get(chosen) ?? "";
      shown = chosen;
      for (const label of form?.querySelectorAll("[data-amount-currency], [data-rate-from]") ?? []) {
        label.textContent = chosen || box.dataset.ledger;
      }
      if (amount && amount.dataset.pattern) {
        if (other) amount.removeAttribute("pattern"); else amount.setAttribute("pattern", amount.dataset.pattern);
      }
    };
    code.addEventListener("input", follow);
    code.addEventListener("change", follow);
    follow();
  }
}

// A money amount must match the field's pattern (the currency's decimals), be above 0 and at
// most 1,000,000 before it is sent; the field says why not.
function checkMoney(form) {
  const input = form.elements.amount;
  const text = input.value.trim();
  const value = Number(plainNumber(text).replace(",", "."));
  const pattern = input.getAttribute("pattern");
  const valid = (!pattern || new RegExp("^(?:" + pattern + ")$").test(text)) && value > 0
    && (!pattern || value <= Number(input.dataset.max));
  input.setCustomValidity(valid ? "" : input.dataset.invalid);
  input.setAttribute("aria-invalid", String(!valid));
  // The amount's own message: the field it names, else the form's first.
  const error = (input.getAttribute("aria-describedby") && document.getElementById(input.getAttribute("aria-describedby")))
    || form.querySelector(".field-error");
  if (error) error.textContent = valid ? "" : input.dataset.invalid;
  return valid;
}

// Spending forms post as they would without the script, and the answer's page replaces this
// one's content: no reload, the same server rules, and the address follows (?deleted=… for undo).
function enhanceSwapForms(root) {
  for (const form of root.querySelectorAll("form[data-swap]")) {
    const money = form.querySelector("input.amount-input");
    if (money) money.addEventListener("input", () => { if (money.getAttribute("aria-invalid")) checkMoney(form); });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      // A second tap while the first is on its way sends nothing (the form's id would also
      // keep the server from adding it twice).
      if (form.dataset.pending) return;
      if (money && !checkMoney(form)) { focusInView(money); return; }
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
      // A photo of the receipt goes as the multipart form it is; the rest as plain fields.
      const data = new FormData(form, event.submitter);
      const photo = data.get("receipt");
      data.delete("receipt");
      const body = new URLSearchParams(data);
      if (form.dataset.confirm) body.set("confirm", "yes");
      const withPhoto = photo instanceof File && photo.size > 0;
      const added = money ? money.value.trim() : null;
      const later = () => {
        keepForLater(form, body);
        if (withPhoto) say(tr("Kept without its receipt while offline: attach the photo from the expense once you are online."), true);
      };
      if (form.dataset.offline && !navigator.onLine) { later(); return; }
      form.dataset.pending = "yes";
      try {
        const sent = withPhoto ? new FormData(form, event.submitter) : body;
        const response = await fetch(form.action, { method: "POST", body: sent, credentials: "same-origin" });
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const main = document.querySelector("main");
        main.replaceChildren(...page.querySelector("main").childNodes);
        if (response.redirected) history.replaceState(null, "", response.url);
        enhance(main);
        // A refusal comes back with the reason at its field; the field gets the focus (in a
        // fieldset, its chosen toggle: "Several", not the first member's).
        if (main.querySelector(".message.error")) {
          focusInView(main.querySelector('[aria-invalid="true"] input:checked')
            ?? main.querySelector('[aria-invalid="true"] input, [aria-invalid="true"]') ?? main);
          return;
        }
        if (added) {
          celebrate("+" + added);
          main.querySelector("input.amount-input")?.focus({ preventScroll: true });
        } else if (main.querySelector(".undo button")) {
          focusInView(main.querySelector(".undo button"));
        } else {
          // The same form's button again (a second sip is one more press), where it was.
          const same = main.querySelector(`form[action="${form.getAttribute("action")}"] button[type="submit"]`);
          (same ?? main).focus({ preventScroll: true });
        }
      } catch (error) {
        // The connection went on the way: a ledger's form waits for it, with its id.
        if (form.dataset.offline) later();
        else say(tr("The server did not answer; check the connection and try again."), true);
      } finally {
        delete form.dataset.pending;
      }
    });
  }
}

// "Show more" under a ledger's history: the next page's entries join the list where they are,
// instead of opening that page; the focus goes to the first of them.
function enhanceMoreEntries(root) {
  for (const link of root.querySelectorAll("a[data-more-entries]")) {
    link.addEventListener("click", async (event) => {
      event.preventDefault();
      if (link.dataset.pending) return;
      link.dataset.pending = "yes";
      try {
        const response = await fetch(link.href, { credentials: "same-origin" });
        if (!response.ok) throw new Error(String(response.status));
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const list = link.closest("section").querySelector(".ledger-entries");
        const added = [...page.querySelectorAll(".ledger-entries > li")];
        for (const item of added) {
          list.append(item);
          enhanceSwapForms(item);
        }
        const next = page.querySelector("a[data-more-entries]");
        if (next) {
          link.href = next.href;
        } else {
          link.closest(".more-entries").remove();
        }
        const first = added[0]?.querySelector("summary, button");
        if (first) focusInView(first);
      } catch (error) {
        say(tr("The server did not answer; check the connection and try again."), true);
      } finally {
        delete link.dataset.pending;
      }
    });
  }
}

// Focuses an element and brings it to the middle of the screen, label and all.
function focusInView(element) {
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
}

// An export file picked from the device fills the field it names, so the plain form sends it.
// A receipt: the photo chosen on an entry's page is sent at once; the quick entry's camera
// button shows that a photo waits to go with the expense; removing a receipt asks first.
function enhanceReceipts(root) {
  for (const form of root.querySelectorAll("form[data-receipt]")) {
    form.classList.add("auto");
    form.elements.receipt.addEventListener("change", () => { if (form.elements.receipt.files.length) form.requestSubmit(); });
  }
  const camera = root.querySelector("input#add-receipt");
  if (camera) {
    const label = root.querySelector('label[for="add-receipt"]');
    const title = label.title;
    camera.addEventListener("change", () => {
      const file = camera.files?.[0];
      label.classList.toggle("chosen", Boolean(file));
      label.title = file ? file.name : title;
    });
  }
  for (const form of root.querySelectorAll("form[data-confirm]:not([data-swap])")) {
    form.addEventListener("submit", (event) => { if (!window.confirm(form.dataset.confirm)) event.preventDefault(); });
  }
}

function enhanceFileFields(root) {
  for (const input of root.querySelectorAll("input[type=file][data-fills]")) {
    const target = root.querySelector("#" + input.dataset.fills);
    input.hidden = false;
    root.querySelector(`label[for="${input.id}"]`)?.removeAttribute("hidden");
    input.addEventListener("change", async () => {
      if (input.files?.[0]) target.value = await input.files[0].text();
    });
  }
}

// The bottle's slider says the level it would set, in the person's unit, as it moves.
function enhanceLevelSliders(root) {
  for (const slider of root.querySelectorAll("input[type=range][data-ml-per-unit]")) {
    const output = root.querySelector(`output[for="${slider.id}"]`);
    const show = () => {
      output.textContent = Math.round(Number(slider.value) / Number(slider.dataset.mlPerUnit)) + " " + slider.dataset.unit;
    };
    slider.addEventListener("input", show);
  }
}

// Notifications: the browser subscribes with the server's VAPID key, and the subscription is
// sent to the server, which encrypts each reminder for it.
function enhancePush(root) {
  const box = root.querySelector("[data-push]");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  box.hidden = false;
  const status = box.querySelector("[data-push-status]");
  const keyBytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  box.querySelector("[data-push-on]").addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        say(tr("Notifications are blocked for this site: allow them in the browser's settings."), true, status);
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const { publicKey } = await api("GET", "/api/v1/push/key");
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      await api("POST", "/api/v1/push/subscriptions", subscription.toJSON());
      say(tr("Notifications are on for this device."), false, status);
      markThisDevice(document);
    } catch (error) {
      say(error.message || tr("This browser could not turn notifications on."), true, status);
    }
  });
  box.querySelector("[data-push-test]").addEventListener("click", async () => {
    try {
      const { sent, devices } = await api("POST", "/api/v1/push/test");
      const sentCount = new Intl.NumberFormat(LOCALE).format(sent);
      say(trCount(devices, "Sent to {1} of {0} device.", "Sent to {1} of {0} devices.", sentCount), sent === 0, status);
    } catch (error) {
      say(error.message, true, status);
    }
  });
  markThisDevice(root);
}

// The list of devices says which of them is this browser.
async function markThisDevice(root) {
  try {
    const subscription = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
    const row = subscription && [...root.querySelectorAll("ul.devices li[data-device]")]
      .find((item) => item.dataset.device === subscription.endpoint);
    if (!row || row.querySelector(".this-device")) return;
    const mark = document.createElement("span");
    mark.className = "this-device";
    mark.textContent = tr("this device");
    row.querySelector(".what")?.after(mark);
  } catch (_) {} // no service worker yet: nothing to mark
}

// Signing out leaves nothing of the person on the device: the drinks still waiting are sent
// first (they would be lost), then the kept pages and the queue go. The server's answer clears
// the site's storage too (Clear-Site-Data), and the service worker drops pages that are not the
// signed-in person's; this covers a browser that ignores the header.
function enhanceSignOut(root) {
  for (const form of root.querySelectorAll('form[action="/signout"]')) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!navigator.onLine) {
        say(tr("You are offline: signing out needs the connection."), true);
        return;
      }
      await outbox.flush();
      try {
        for (const name of await caches.keys()) {
          if (name.startsWith("tally-pages-")) await caches.delete(name);
        }
        // The session the worker answers reminders with.
        await (await caches.open("tally-words")).delete("/worker-session.json");
      } catch (_) {} // no Cache Storage (an insecure origin): nothing was kept
      localStorage.removeItem(outbox.key);
      localStorage.removeItem(me.key);
      form.submit();
    });
  }
}

// A quick add opened from the home screen logs at once: its page sends the form a tap would,
// once. The server marks the form only when the person opened the address themselves (see
// QuickAddWebController); here it is sent only on a fresh visit, online, and once the page is
// shown: a reload, back or forward, or a prerendered page never sends it.
function autoSubmit(root) {
  const form = root.querySelector("form[data-auto-submit]");
  if (!form || !navigator.onLine) return;
  const visit = performance.getEntriesByType("navigation")[0];
  if (visit && visit.type !== "navigate") return;
  const send = () => { form.removeAttribute("data-auto-submit"); form.requestSubmit(); };
  if (document.prerendering) document.addEventListener("prerenderingchange", send, { once: true });
  else send();
}

// A file form sends its file with a bar that shows how much has gone (a big file takes a while);
// the answer's page then replaces this one, as the plain form's answer would.
function enhanceUploads(root) {
  for (const form of root.querySelectorAll("form[data-upload]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (form.dataset.pending) return;
      const progress = form.querySelector("progress");
      const request = new XMLHttpRequest();
      request.open("POST", form.action);
      request.upload.addEventListener("progress", (sent) => {
        if (!progress || !sent.lengthComputable) return;
        progress.hidden = false;
        progress.value = Math.round((100 * sent.loaded) / sent.total);
      });
      request.addEventListener("load", () => {
        delete form.dataset.pending;
        const action = new URL(form.action, location.href);
        const answer = new URL(request.responseURL);
        if (answer.pathname !== action.pathname) {
          location.assign(answer.pathname + answer.search + action.hash);
          return;
        }
        const page = new DOMParser().parseFromString(request.responseText, "text/html").querySelector("main");
        if (progress) progress.hidden = true;
        if (!page) {
          // Not a page (a proxy's answer, say): what the server said, or that it failed.
          say(request.status === 413 ? tr("The file is too big to send.") : tr("The upload failed; try again."), true);
          return;
        }
        const main = document.querySelector("main");
        main.replaceChildren(...page.childNodes);
        enhance(main);
        const error = main.querySelector(".message.error");
        if (error) {
          error.tabIndex = -1;
          focusInView(error);
        }
      });
      request.addEventListener("error", () => {
        delete form.dataset.pending;
        if (progress) progress.hidden = true;
        say(tr("The server did not answer; check the connection and try again."), true);
      });
      form.dataset.pending = "yes";
      request.send(new FormData(form));
    });
  }
}

// Another member's change, or this person's on another device, shows without a reload: the
// server names the revision of what the page shows each time it moves (server-sent events read
// from the database, so a change made through any instance counts), and the page reads itself
// again. Only the part that shows the data is replaced: what is being typed stays.
const live = {
  source: null,
  watch() {
    const shown = document.querySelector("[data-changes]");
    const url = shown ? new URL(shown.dataset.changes, location.href).href : null;
    if (this.source?.url === url) return;
    this.source?.close();
    this.source = null;
    if (!url || !("EventSource" in window)) return;
    this.source = new EventSource(url);
    this.source.addEventListener("message", (event) => {
      let revision;
      try { ({ revision } = JSON.parse(event.data)); } catch (_) { return; }
      if (String(revision) !== document.querySelector("[data-changes]")?.dataset.revision) this.update();
    });
  },
  reading: null,
  again: false,
  // One read at a time; a change named during a read gets one more.
  async update() {
    if (this.reading) { this.again = true; return this.reading; }
    this.reading = (async () => {
      try {
        do { this.again = false; await this.read(); } while (this.again);
      } catch (_) {
        // Offline again, or the page is gone: the next event tries again.
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  },
  async read() {
    const shown = document.querySelector("[data-changes]");
    if (!shown) return;
    // An open dialog (a custom amount being typed) waits until it closes.
    const dialog = document.querySelector("dialog[open]");
    if (dialog) { dialog.addEventListener("close", () => this.update(), { once: true }); return; }
    // What the page says (an Undo above all) outlives a change the stream names: often the
    // person's own, whose answer is being drawn at the same time.
    if (shown.matches(".today")) { await refresh(null, { keepMessage: true }); return; }
    const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector("[data-changes]");
    if (!fresh || !document.contains(shown)) return;
    const focus = focusKey(shown);
    shown.replaceWith(fresh);
    // The reader's own number, above the form, moves with the rest.
    const standing = page.querySelector("[data-standing]");
    if (standing) document.querySelector("[data-standing]")?.replaceWith(standing);
    enhance(fresh);
    if (focus?.selector) fresh.querySelector(focus.selector)?.focus({ preventScroll: true });
  },
};

// What makes a page's controls work in place; other scripts add theirs (spending.js).
// A new invite link: Copy puts it on the clipboard; Share hands it to the system's share sheet
// where the browser has the Web Share API (a phone's messages, mail, chat).
function enhanceInviteShare(root) {
  for (const box of root.querySelectorAll("[data-invite-link]")) {
    const link = box.dataset.inviteLink;
    const said = box.querySelector("[data-copied]");
    const copy = box.querySelector("[data-copy-invite]");
    if (copy && navigator.clipboard) {
      copy.hidden = false;
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(link);
          said.textContent = tr("Link copied.");
        } catch {
          said.textContent = tr("Could not copy: select the link above instead.");
        }
      });
    }
    const share = box.querySelector("[data-share-invite]");
    if (share && navigator.share) {
      share.hidden = false;
      share.addEventListener("click", () => navigator.share({ title: document.title, text: tr("Join me on Tally"), url: link }).catch(() => {}));
    }
  }
}

// The service worker has no page to say things in: its few sentences (a reminder that came
// without words, the page it shows offline when none was kept) are left for it here, in the
// page's language, in a cache it reads (sw.js: WORDS). They are nobody's data: signing out
// leaves them.
async function leaveWorkerWords() {
  if (!("caches" in window)) return;
  const words = { offlineTitle: tr("Offline"), offlineText: tr("Tally needs the network for this page."),
    reminder: tr("Time for a glass of water.") };
  try {
    const cache = await caches.open("tally-words");
    await cache.put("/worker-words.json", new Response(JSON.stringify(words), { headers: { "Content-Type": "application/json" } }));
  } catch (_) {} // no Cache Storage (an insecure origin): the worker says them in English
}

// A reminder's buttons are answered by the worker with the session signed in here: it is left
// for the worker beside its words (only this origin's scripts read it, as they read the page's
// own token), and dropped on a page for nobody.
async function leaveWorkerSession() {
  if (!("caches" in window)) return;
  try {
    const cache = await caches.open("tally-words");
    if (!document.querySelector('form[action="/signout"]')) {
      await cache.delete("/worker-session.json");
      return;
    }
    // Who is signed in, as an earlier page learned it; asked only when no page did yet.
    const session = { csrf: csrf(), owner: me.last() ?? (await me.now()) };
    await cache.put("/worker-session.json", new Response(JSON.stringify(session), { headers: { "Content-Type": "application/json" } }));
  } catch (_) {}
}

// Drinks a reminder's button logged without a connection (sw.js) join the outbox, and are sent
// with the others.
async function takeWorkerDrinks() {
  if (!("caches" in window)) return;
  try {
    const cache = await caches.open("tally-words");
    const kept = await cache.match("/worker-drinks.json");
    if (!kept) return;
    const drinks = await kept.json();
    await cache.delete("/worker-drinks.json");
    const known = new Set(outbox.all().map((item) => outbox.idOf(item)));
    const fresh = (Array.isArray(drinks) ? drinks : []).filter((item) => item?.body?.id && !known.has(item.body.id));
    if (fresh.length) outbox.save([...outbox.all(), ...fresh.map(({ method, path, body, owner }) => ({ method, path, body, owner: owner ?? me.last() }))]);
  } catch (_) {}
}

const enhancers = [enhancePush, enhanceLevelSliders, enhanceFileFields, enhanceCustomDialog, enhanceForms, enhanceSwapForms,
  enhanceMoreEntries, enhanceGoalPreview, enhanceSplit, enhancePayers, enhanceCurrency, enhanceUploads, enhanceInviteShare,
  enhanceReceipts];

function enhance(root) {
  for (const enhancer of enhancers) enhancer(root);
}

window.addEventListener("online", () => { showConnection(); outbox.flush(); });
window.addEventListener("offline", showConnection);

document.addEventListener("DOMContentLoaded", () => {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  leaveWorkerWords();
  // A page for nobody (signed out) forgets who was signed in; a page where drinks or expenses
  // can be added asks, so that what is added after the connection goes knows whose it is.
  if (!document.querySelector('form[action="/signout"]')) localStorage.removeItem(me.key);
  else if (document.querySelector("form[data-api], form[data-offline]") && navigator.onLine) me.now();
  leaveWorkerSession();
  takeWorkerDrinks().then(() => { showConnection(); outbox.flush(); });
  enhanceSignOut(document);
  for (const field of document.querySelectorAll("input[data-time-zone]")) {
    field.value = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  }
  enhance(document);
  live.watch();
  autoSubmit(document);
  // The browser opens a page at its #section (a settings form's answer), except a page the
  // service worker answered after a redirect: that one opens at the top. Go there.
  window.addEventListener("load", () => {
    const target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && scrollY === 0) target.scrollIntoView();
  });
});
