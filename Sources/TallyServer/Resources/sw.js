// Tally's service worker: the app shell from the cache when the network is gone, so that the
// installed app opens offline. Pages come from the network first (they are the user's data) and
// fall back to the copy kept from the last visit; the API is never cached: drinks logged offline
// wait in the page's queue (app.js) until the connection returns.
"use strict";

const SHELL = "tally-shell-v2";
const PAGES = "tally-pages-v1";
const SHELL_FILES = ["/static/app.css", "/static/app.js", "/static/icon.svg", "/static/icon-192.png", "/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (![SHELL, PAGES].includes(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      try {
        const response = await fetch(request);
        if (response.ok) (await caches.open(PAGES)).put(request, response.clone());
        return response;
      } catch (error) {
        const cached = (await caches.match(request)) ?? (await caches.match("/"));
        return cached ?? new Response("<h1>Offline</h1><p>Tally needs the network for this page.</p>",
          { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
      }
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

// A reminder from the server (Web Push): shown as a notification; a tap opens Tally.
self.addEventListener("push", (event) => {
  let message = { title: "Tally", body: "Time for a glass of water.", url: "/" };
  try { message = { ...message, ...event.data.json() }; } catch (_) {}
  event.waitUntil(self.registration.showNotification(message.title, {
    body: message.body, icon: "/static/icon-192.png", badge: "/static/icon-192.png", data: { url: message.url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data?.url ?? "/"));
});
