/* MoodMap service worker, registered from /sw.js at load (main.tsx).
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
          caches
            .open(CACHE)
            .then((cache) => cache.put(key, copy))
            .catch(() => {});
        }
        return response;
      })
      .catch(() =>
        caches.match(request.mode === 'navigate' ? '/' : request).then((cached) => cached || Response.error()),
      ),
  );
});

/* Web Push. The server sends { title, body, url, tag } encrypted for this browser
 * (server/src/modules/push): only a nickname and, if this device allows it, a short preview. */
function readPush(event) {
  try {
    const data = event.data ? event.data.json() : null;
    if (data && typeof data.title === 'string') return data;
  } catch {
    /* not JSON: shown as a generic notification below */
  }
  return { title: 'MoodMap', body: '', url: '/', tag: 'moodmap' };
}

/** Only paths of this app are opened: a payload can never send the user elsewhere. */
function appUrl(url) {
  try {
    const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('push', (event) => {
  const push = readPush(event);
  event.waitUntil(
    self.registration.showNotification(push.title, {
      body: typeof push.body === 'string' ? push.body : '',
      tag: typeof push.tag === 'string' ? push.tag : undefined,
      // A second message of the same conversation replaces the first and still alerts.
      renotify: typeof push.tag === 'string',
      icon: '/logo.svg',
      badge: '/logo.svg',
      data: { url: appUrl(push.url) },
    }),
  );
});

/** Focuses an open tab of the app and takes it to the notification's address, else opens one. */
async function openFromNotification(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tab = windows.find((c) => new URL(c.url).origin === self.location.origin);
  if (tab) {
    const focused = await tab.focus().catch(() => tab);
    const navigated = await (focused || tab).navigate(url).catch(() => null);
    if (navigated) return navigated;
  }
  return self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(appUrl(event.notification.data && event.notification.data.url)));
});
