// The offline service worker: keeps the course readable offline after one visit (`js/boot.js`
// registers it). The build writes it at the site's base as sw.js, after one line of data of its
// own, `const BUILD = { name, files };`: the build's name (a hash of every file it lists) and its
// files, as paths from the site's base (every file but the ones fetched only when a reader asks,
// such as the SQL engine). A new deploy changes that line, so the browser installs a new worker.
// - Install: precaches BUILD.files in a cache named for the build, fetched past the browser's
//   HTTP cache (`cache: "reload"`): pages keep their address from one build to the next, and a
//   copy the browser still held from before a deploy would otherwise be kept beside the new
//   build's files.
// - Activate: deletes every other build's cache, so builds never mix.
// - Fetch: pages network-first with the cache as fallback (so a new deploy's pages load its own
//   files), everything else cache-first by path (a file asked for with a query or a fragment is the
//   same file), keeping a file it had to fetch (the SQL engine, after its first use).
const CACHE = "ie-course-" + BUILD.name;
const at = (path) => new URL(path, self.registration.scope);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((c) => c.addAll(BUILD.files.map((f) => new Request(at(f), { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("ie-course-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => {
      const cache = await caches.open(CACHE);
      const url = new URL(request.url);
      const page = url.pathname.endsWith("/") ? url.pathname + "index.html" : url.pathname + "/index.html";
      return (await cache.match(request, { ignoreSearch: true })) || (await cache.match(page)) || (await cache.match(at("404.html"))) || Response.error();
    }));
    return;
  }
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request).then((r) => {
    if (r.status === 200) cache.put(request, r.clone());
    return r;
  }))));
});
