// Tally's service worker: the app shell from the cache when the network is gone, so that the
// installed app opens offline. Pages come from the network first (they are the user's data) and
// fall back to the copy kept from the last visit; the API is never cached (its streams of
// changes included): drinks and expenses added offline wait in the page's queue (app.js) until
// the connection returns.
//
// Pages belong to one person. The server names whose page an answer is (Tally-Page-Owner, an
// opaque value per person), and the kept pages live in a cache named for that person: a page of
// someone else, or a page for nobody (signed out), drops them before anything is kept, so that a
// shared device never shows one person's pages (with their invite codes) to the next.
"use strict";

const SHELL = "tally-shell-v5";
const PAGES = "tally-pages-v2-"; // + the owner
// The worker's few sentences in the person's language, left by the page (app.js:
// leaveWorkerWords), since a worker has no page of its own; English until a page has left them.
const WORDS = "tally-words";
const WORDS_FILE = "/worker-words.json";
const SHELL_FILES = ["/static/app.css", "/static/app.js", "/static/spending.js", "/static/icon.svg", "/static/icon-192.png",
  "/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Earlier versions kept pages without knowing whose they were: they go.
    for (const name of await caches.keys()) {
      if (name !== SHELL && name !== WORDS && !name.startsWith(PAGES)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The cache for `owner`'s pages, after dropping every other person's; null for nobody.
async function pagesOf(owner) {
  for (const name of await caches.keys()) {
    if (name.startsWith(PAGES) && name !== PAGES + owner) await caches.delete(name);
  }
  return owner ? caches.open(PAGES + owner) : null;
}

// { offlineTitle, offlineText, reminder } as the page left them, or {} (none yet, or no cache).
async function words() {
  try {
    const kept = await (await caches.open(WORDS)).match(WORDS_FILE);
    const found = kept ? await kept.json() : {};
    return found && typeof found === "object" ? found : {};
  } catch (_) {
    return {};
  }
}

const escapeHTML = (text) => String(text).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

async function keptPage(request) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PAGES)) continue;
    const cache = await caches.open(name);
    const page = (await cache.match(request)) ?? (await cache.match("/"));
    if (page) return page;
  }
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      let response;
      try {
        response = await fetch(request);
      } catch (error) {
        const kept = await keptPage(request);
        if (kept) return kept;
        const said = await words();
        const title = escapeHTML(said.offlineTitle ?? "Offline");
        const text = escapeHTML(said.offlineText ?? "Tally needs the network for this page.");
        return new Response(`<h1>${title}</h1><p>${text}</p>`, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
      }
      // A redirect (opaque here) and a refusal say nothing about who is signed in.
      if (response.ok && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) {
        // Settled before the page is shown, so that the page never sees another person's cache.
        const cache = await pagesOf(response.headers.get("Tally-Page-Owner") ?? "");
        if (cache) event.waitUntil(cache.put(request, response.clone()));
      }
      return response;
    })());
    return;
  }
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    // The shell: from the cache at once, refreshed from the network for next time.
    event.respondWith((async () => {
      const cache = await caches.open(SHELL);
      const cached = await cache.match(request);
      const fresh = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }).catch(() => cached);
      return cached ?? fresh;
    })());
  }
});

// A notification from the server (Web Push): a reminder, or another member's change to a
// ledger; shown, and a tap opens the page it names. The server sends its words; a message
// without them says the page's (the name Tally is the same in every language).
self.addEventListener("push", (event) => {
  event.waitUntil((async () => {
    let message = { title: "Tally", body: (await words()).reminder ?? "Time for a glass of water.", url: "/" };
    try { message = { ...message, ...event.data.json() }; } catch (_) {}
    await show(message);
  })());
});

// Shows a message as the server sent it; a reminder comes with its buttons (actions).
function show(message) {
  return self.registration.showNotification(message.title, {
    body: message.body, icon: "/static/icon-192.png", badge: "/static/icon-192.png", tag: message.tag,
    actions: Array.isArray(message.actions) ? message.actions.slice(0, 2) : [],
    data: { url: message.url ?? "/", drink: message.drink, done: message.done ?? {} },
  });
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data ?? {};
  if (event.action === "log" || event.action === "snooze") {
    event.waitUntil(answer(event.action, data));
    return;
  }
  event.waitUntil(self.clients.openWindow(data.url ?? "/"));
});

// The session the pages left (app.js: leaveWorkerSession): its CSRF token and whose it is.
const SESSION_FILE = "/worker-session.json";
// Drinks logged from a reminder without a connection, for the next page to put in its outbox
// (app.js: takeWorkerDrinks), where they wait like any other.
const WAITING_FILE = "/worker-drinks.json";

async function keptJSON(file, empty) {
  try {
    const kept = await (await caches.open(WORDS)).match(file);
    return kept ? await kept.json() : empty;
  } catch (_) {
    return empty;
  }
}

async function keepJSON(file, value) {
  const cache = await caches.open(WORDS);
  await cache.put(file, new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json" } }));
}

// A reminder's button, done without opening a window, with the session of whoever is signed in
// on this device: "log" adds the drink the reminder named (its id was made once for the
// reminder, so a second tap adds nothing), "snooze" puts reminders off for an hour. What was
// done is said in a notification of its own; a refusal (signed out) opens Tally instead.
async function answer(action, data) {
  const done = data.done ?? {};
  const session = await keptJSON(SESSION_FILE, {});
  const drink = data.drink && typeof data.drink.id === "string" ? { id: data.drink.id, volumeMl: Number(data.drink.volumeMl) } : null;
  if (action === "log" && !drink) return self.clients.openWindow(data.url ?? "/");
  const request = action === "log"
    ? { method: "POST", path: "/api/v1/intakes", body: drink }
    : { method: "POST", path: "/api/v1/reminders/snooze", body: { minutes: 60 } };
  let response;
  try {
    response = await fetch(request.path, {
      method: request.method, credentials: "same-origin", body: JSON.stringify(request.body),
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": session.csrf ?? "" },
    });
  } catch (_) {
    // No connection: a drink waits on the device; a snooze cannot.
    if (action !== "log") return say(done.failed);
    const waiting = await keptJSON(WAITING_FILE, []);
    if (!waiting.some((item) => item.body?.id === drink.id)) {
      await keepJSON(WAITING_FILE, [...(Array.isArray(waiting) ? waiting : []), { ...request, owner: session.owner ?? null }]);
    }
    return say(done.waiting);
  }
  if (!response.ok) return self.clients.openWindow(data.url ?? "/");
  return say(done[action]);
}

function say(text) {
  if (!text) return undefined;
  return self.registration.showNotification("Tally", { body: String(text), icon: "/static/icon-192.png", tag: "answer" });
}
