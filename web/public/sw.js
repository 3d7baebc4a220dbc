/* MoodMap service worker (spec §1: registered from /sw.js at load).
 * Deliberately small and safe: network first for everything; only the page shell and the
 * hashed build assets are kept as an offline fallback. The API (/api/*), other origins and
 * non-GET requests are never touched, so data is always fresh and auth is never cached. */
const CACHE = 'moodmap-shell-v1';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function isCacheable(request, url) {
  if (request.mode === 'navigate') return true;
  return url.pathname.startsWith('/assets/');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/sw.js') return;
  if (!isCacheable(request, url)) return;

  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          const key = request.mode === 'navigate' ? '/' : request;
          caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
        }
        return response;
      })
      .catch(() =>
        caches
          .match(request.mode === 'navigate' ? '/' : request)
          .then((cached) => cached || Response.error()),
      ),
  );
});
