"""Hostile text in a real browser: whatever a person types stays text on every page.

Through the web forms, one person enters hostile strings everywhere user text reaches a page:
drink kinds (Settings), a ledger's name, its two members' names, the descriptions and categories
of expenses and of recurring expenses (a drink's note goes in through the API, and shows on the
drink's own page). Then every page that shows them (today, history, settings, the ledger, its recurring
expenses, its settings with the activity log) must (a) cause no Content-Security-Policy
violation, (b) carry no attribute or element the server did not write (checked on the server's
HTML itself and on the live page), and (c) show exactly what was typed, or, for text the server
refuses (control characters), say so clearly.

Each of & < > " ' is followed by combining marks: escaping by grapheme cluster (Swift's
Character) once let a quote with a combining acute out of an attribute on the ledger page.
"""

import unicodedata

import pytest
from selenium.webdriver.common.by import By

from conftest import csp_violations, screenshot
from test_spending import LEDGER_URL, load
from test_web import sign_up, wait

# Short enough for every field (a kind's name takes 40 UTF-16 units, a member's 50).
HOSTILE = [
    '"\u0301 autofocus onfocus=alert(1) x="',
    "'\u0301\u0302 onmouseover=alert(2) '",
    "<\u0338img src=x onerror=alert(3)>",
    "<svg onload=alert(4)>\u0301</svg>",
    ">\u0301 &\u0301amp; &lt; &\u20dd#34;",
]
# Text the server may refuse, with a sentence: control characters; bidi overrides and isolates,
# which reorder what others read; joiners where no emoji or script needs them (in names).
CONTROL = ["nul\x00byte", "bell\x07esc\x1bdel\x7f", "c1\x85\x9b[31m",
           "\u202eevil\u202c \u2066a\u2069\u2067b\u2069\u2068c\u2069",
           "a\u200db\u200c\u200dc \U0001F468\u200d\U0001F469\u200d\U0001F467"]


def long_text(limit):
    """A string of exactly `limit` UTF-16 units (a field's maxlength) made of the hostile ones."""
    text, pieces = "", "".join(HOSTILE)
    while len((text + pieces).encode("utf-16-le")) // 2 <= limit:
        text += pieces
    for character in pieces:
        if len((text + character).encode("utf-16-le")) // 2 > limit:
            break
        text += character
    return text


def same_text(shown, typed):
    """Equal as text: a server may keep its text in NFC, where < and U+0338 are one "≮"."""
    return unicodedata.normalize("NFC", shown) == unicodedata.normalize("NFC", typed)


# What the server wrote that no payload could have: an event handler, autofocus, a style, a
# stray x="…" outside SVG, a src on anything but the app's scripts and a receipt's picture, an image
# other than a receipt's, a frame, or an unknown <svg>.
INTRUDERS = r"""
const check = (root, where) => {
  const found = [];
  const script = /^\/static\/(app|spending)\.js\?v=[0-9a-f]{12}$/;
  const svgs = new Set(["ring", "chart", "bottle", "tab-icon", "qr", "bell", "camera"]);
  // A receipt's small copy, from the server's own address for it.
  const receipt = (el) => el.tagName.toLowerCase() === "img" && ["receipt-thumb", "receipt-photo"].includes(el.getAttribute("class"))
    && /^\/spending\/[0-9a-fA-F-]{36}\/entries\/[0-9a-fA-F-]{36}\/receipt\?size=thumbnail$/.test(el.getAttribute("src") ?? "");
  for (const el of root.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    const svg = el.namespaceURI === "http://www.w3.org/2000/svg";
    for (const { name, value } of el.attributes) {
      const stray = name.startsWith("on") || ["autofocus", "style", "srcdoc", "formaction"].includes(name)
        || (name === "x" && !svg) || (name === "src" && !(tag === "script" && script.test(value)) && !receipt(el))
        || /[^a-zA-Z0-9:_-]/.test(name);
      if (stray) found.push(`${where}: <${tag} ${name}="${value.slice(0, 40)}">`);
    }
    if (["img", "iframe", "object", "embed", "image", "foreignobject", "base", "meta"].includes(tag) && !el.closest("head") && !receipt(el)
        || (tag === "svg" && !svgs.has(el.getAttribute("class")))
        || (tag === "script" && !script.test(el.getAttribute("src") ?? "")))
      found.push(`${where}: an unexpected <${tag}>`);
  }
  return found;
};
const done = arguments[arguments.length - 1];
fetch(location.href, { credentials: "same-origin" }).then((r) => r.text()).then((html) => {
  done([...check(new DOMParser().parseFromString(html, "text/html"), "the server's HTML"), ...check(document, "the live page")]);
}, (error) => done([String(error)]));
"""


def intruders(driver):
    driver.set_script_timeout(15)
    return driver.execute_async_script(INTRUDERS)


def submit(driver, form_css, values, button_css="button[type=submit]"):
    """Fills a form's fields exactly (control characters too: typing would act on them), submits
    it with its button as a tap would, and waits for the answer (a new page, or <main> swapped)."""
    driver.execute_script("""
        const [css, values, buttonCss] = arguments;
        const form = document.querySelector(css);
        for (const [name, value] of Object.entries(values)) {
          const field = form.querySelector(`[name="${name}"]`);
          field.value = value;
          field.dispatchEvent(new Event("input", { bubbles: true }));
        }
        window.__sent = form;
        form.querySelector(buttonCss).click();""", form_css, values, button_css)
    wait(driver, lambda d: d.execute_script(
        "return document.readyState === 'complete' && !(window.__sent && window.__sent.isConnected)"),
        timeout=15, message=f"{form_css}: the form had no answer")


def outcome(driver):
    """After a form: "saved", or the refusal the page shows ("refused: …")."""
    error = wait(driver, lambda d: d.execute_script("""
        if (document.readyState !== "complete") return null;
        const shown = [...document.querySelectorAll("main .message.error, main .field-error")]
          .map((e) => e.textContent.trim()).filter(Boolean);
        return [shown[0] ?? ""];"""), timeout=15)[0]
    return f"refused: {error}" if error else "saved"


def text_of(driver, css):
    return [e.get_property("textContent") for e in driver.find_elements(By.CSS_SELECTOR, css)]


def test_hostile_text_stays_text_on_every_page(server, browser, unique_name):
    driver = browser("desktop")
    sign_up(driver, server, unique_name)
    results = {}

    def send(where, form_css, values, button_css="button[type=submit]", may_refuse=False):
        submit(driver, form_css, values, button_css)
        results[where] = outcome(driver)
        if results[where].startswith("refused") and not may_refuse:
            pytest.fail(f"{where} was refused: {results[where]}")

    # Drink kinds, and a drink of each (with the text as its note too).
    kinds = HOSTILE + CONTROL + [long_text(40)]
    for number, name in enumerate(kinds):
        load(driver, server + "/settings/kinds")
        send(f"kind {number} {name!r}", "form[action='/settings/kinds']", {"name": name, "factor": "1"},
             may_refuse=name in CONTROL)
    accepted_kinds = [name for number, name in enumerate(kinds) if results[f"kind {number} {name!r}"] == "saved"]
    load(driver, server + "/")
    driver.set_script_timeout(15)
    for name in accepted_kinds:
        error = driver.execute_async_script("""
            const [kind, done] = [arguments[0], arguments[arguments.length - 1]];
            fetch("/api/v1/intakes", { method: "POST", credentials: "same-origin",
              headers: { "Content-Type": "application/json", "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content },
              body: JSON.stringify({ id: crypto.randomUUID(), volumeMl: 100, kind, note: kind }) })
              .then((r) => done(r.ok ? null : r.status + ""), (e) => done(String(e)));""", name)
        assert error is None, f"a drink of {name!r} was not logged: {error}"

    # A ledger with a hostile name and two members with hostile names.
    ledger_name = long_text(100)
    load(driver, server + "/spending")
    submit(driver, "form[action='/spending']", {"name": ledger_name, "currency": "EUR"})
    wait(driver, lambda d: LEDGER_URL.search(d.current_url), timeout=15, message=lambda: f"the ledger was not created: {outcome(driver)}")
    ledger = driver.current_url
    members = [HOSTILE[0], HOSTILE[1]]
    for number, name in enumerate(members):
        load(driver, ledger + "/settings")
        form = f"ul.kinds li:nth-child({number + 1}) form"
        send(f"member {number + 1}", form, {"name": name}, "button[value=rename]")

    # An expense for each text, with the text as its category too.
    load(driver, ledger)
    descriptions = HOSTILE + CONTROL + [long_text(200)]
    for number, text in enumerate(descriptions):
        send(f"expense {number} {text[:40]!r}", "form[action$='/expenses']",
             {"amount": "1.00", "description": text, "category": text[:50]}, "button.add", may_refuse=text in CONTROL)
    accepted = [t for n, t in enumerate(descriptions) if results[f"expense {n} {t[:40]!r}"] == "saved"]

    # A recurring expense for each text, from a day far ahead (so that none is recorded now).
    for number, text in enumerate(descriptions):
        load(driver, ledger + "/recurring")
        send(f"recurring {number} {text[:40]!r}", "form[action$='/recurring']",
             {"amount": "2.00", "description": text, "category": text[:50], "every": "month", "start": "2099-01-31"},
             may_refuse=text in CONTROL)
    recurring = [t for n, t in enumerate(descriptions) if results[f"recurring {n} {t[:40]!r}"] == "saved"]

    # The control characters are either kept as they are or refused with a sentence.
    for where, result in results.items():
        assert result == "saved" or len(result) > len("refused: ") + 10, f"{where}: an unclear refusal {result!r}"

    # Every page: no CSP violation, nothing the server did not write, the text as typed.
    problems = []
    pages = {"today": server + "/", "history": server + "/history", "settings": server + "/settings/kinds",
             "ledger": ledger, "ledger settings": ledger + "/settings", "activity": ledger + "/activity",
             "recurring": ledger + "/recurring"}
    for page, url in pages.items():
        load(driver, url)
        screenshot(driver, f"hostile-{page.replace(' ', '-')}")
        problems += [f"{page}: CSP: {v}" for v in csp_violations(driver)]
        problems += [f"{page}: {found}" for found in intruders(driver)]
        if page == "settings":
            kept = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "ul.kinds input[name=name]")]
            problems += [f"settings: the kind {k!r} is not shown as typed" for k in accepted_kinds
                         if not any(same_text(v, k) for v in kept)]
        if page == "today":
            options = text_of(driver, "select#kind option")
            problems += [f"today: the kind {k!r} is not among the choices" for k in accepted_kinds
                         if not any(same_text(o.lower(), k.lower()) for o in options)]
        if page == "ledger":
            titles = text_of(driver, "ul.entries li .what strong")
            problems += [f"ledger: {t!r} is not shown as typed" for t in accepted if not any(same_text(s, t) for s in titles)]
            if not same_text(driver.find_element(By.TAG_NAME, "h1").get_property("textContent"), ledger_name):
                problems.append("ledger: the heading is not the ledger's name as typed")
            confirms = [f.get_attribute("data-confirm") for f in driver.find_elements(By.CSS_SELECTOR, "form[data-confirm]")]
            labels = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "button.delete")]
            # Compared in NFC, where the server keeps text: "<" and U+0338 are one "≮" there.
            for t in (unicodedata.normalize("NFC", t) for t in accepted):
                if not any(unicodedata.normalize("NFC", c)[len("Delete "):].startswith(t) for c in confirms):
                    problems.append(f"ledger: no data-confirm names {t!r} as typed")
                if not any(unicodedata.normalize("NFC", a)[len("Delete "):].startswith(t) for a in labels):
                    problems.append(f"ledger: no aria-label names {t!r} as typed")
            payers = " ".join(text_of(driver, "fieldset.payers label"))
            problems += [f"ledger: the member {m!r} is not a payer as typed" for m in members
                         if unicodedata.normalize("NFC", m) not in unicodedata.normalize("NFC", payers)]
        if page == "recurring":
            titles = text_of(driver, "ul.recurring li .what strong")
            problems += [f"recurring: {t!r} is not shown as typed" for t in recurring if not any(same_text(s, t) for s in titles)]
            labels = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "ul.recurring button")]
            for t in (unicodedata.normalize("NFC", t) for t in recurring):
                for action in ("Pause", "End", "Delete"):
                    if not any(unicodedata.normalize("NFC", a).startswith(f"{action} {t}, €2.00") for a in labels):
                        problems.append(f"recurring: no {action} button's aria-label names {t!r} as typed")
            payers = " ".join(text_of(driver, "fieldset.payers label"))
            problems += [f"recurring: the member {m!r} is not a payer as typed" for m in members
                         if unicodedata.normalize("NFC", m) not in unicodedata.normalize("NFC", payers)]
        if page == "ledger settings":
            names = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "ul.kinds input[name=name]")]
            problems += [f"ledger settings: the member {m!r} is not shown as typed" for m in members
                         if not any(same_text(n, m) for n in names)]
            if not same_text(driver.find_element(By.ID, "ledger-name").get_attribute("value"), ledger_name):
                problems.append("ledger settings: the ledger's name is not shown as typed")
        if page == "activity":
            log = unicodedata.normalize("NFC", " ".join(text_of(driver, "ul.log li")))
            problems += [f"activity: {t!r} is not in the log as typed" for t in accepted
                         if unicodedata.normalize("NFC", t) not in log]
    # Each drink's own page shows its note (the kind's text) as typed, in its field.
    load(driver, server + "/")
    edits = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#entries a.edit")]
    notes = []
    for url in edits:
        load(driver, url)
        problems += [f"drink page: CSP: {v}" for v in csp_violations(driver)]
        problems += [f"drink page: {found}" for found in intruders(driver)]
        notes.append(driver.find_element(By.ID, "note").get_property("value"))
    problems += [f"drink page: the note {k!r} is not shown as typed" for k in accepted_kinds
                 if not any(same_text(n, k) for n in notes)]
    assert not problems, "\n".join(problems) + "\n\nwhat the forms said:\n" + "\n".join(f"{k}: {v}" for k, v in results.items())
