import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import './index.css';
import { createQueryClient } from './app/query-client.ts';
import { configQuery } from './lib/config.ts';
import { afterFirstView } from './app/first-view.ts';
import { RESET_PATH, applyResetRedirect } from './app/reset-redirect.ts';
import { AppRoutes } from './app/routes.tsx';
import { preloadMapView } from './app/Shell.tsx';
import { captureAuthLink } from './features/auth/auth-link.ts';
import { prefetchFirstViewport } from './features/map/first-viewport.ts';
import { initialView } from './features/map/map-view.ts';
import { PULSE_RETURN_PATH } from './features/pulse/return-path.ts';
import { startThemeSync } from './features/theme/theme-store.ts';

// Before the router reads the address: a reset link is forced to /reset-password, and
// a confirmation link's token is taken out of it (the session restore then signs in).
if (!applyResetRedirect()) captureAuthLink();
startThemeSync();

// The map first: its chunk now (index.html already preloads its files), and MapLibre's
// worker started as soon as MapLibre has run (prewarm), so the worker loads its script and starts
// while the shell waits for the config answer, instead of when the map is created. One worker
// load: fetching its script ahead as well would download it twice when the two overlap.
void preloadMapView().catch(() => undefined);
void import('./features/map/maplibre.ts').then(
  ({ maplibregl }) => maplibregl.prewarm(),
  () => undefined,
);

const queryClient = createQueryClient();
// The config decides the map's style, so the map is created once it is known: asked now (the
// answer index.html preloads), not after the first render's effects.
void queryClient.prefetchQuery(configQuery);
// The map's first markers too, for the view it will open on (features/map/first-viewport.ts): on
// every route but the two pages drawn without the map.
if (location.pathname !== RESET_PATH && location.pathname !== PULSE_RETURN_PATH) {
  prefetchFirstViewport(queryClient, initialView(), window.innerWidth, window.innerHeight);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);

// The service worker is registered from /sw.js at load (production builds only, so it
// never caches Vite's dev modules), once the first view is drawn: its install and the fetches it
// then intercepts do not compete with the map's.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  afterFirstView(() => {
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  });
}
