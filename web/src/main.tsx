import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import './index.css';
import { createQueryClient } from './app/query-client.ts';
import { applyResetRedirect } from './app/reset-redirect.ts';
import { routes } from './app/routes.tsx';
import { preloadMapView } from './app/Shell.tsx';
import mapWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { captureAuthLink } from './features/auth/auth-link.ts';
import { startThemeSync } from './features/theme/theme-store.ts';

// Before the router reads the address: a reset link is forced to /reset-password (spec §2), and
// a confirmation link's token is taken out of it (the session restore then signs in).
if (!applyResetRedirect()) captureAuthLink();
startThemeSync();

// The map first (issue 15): its chunk now, and MapLibre's worker into the HTTP cache (build
// assets are cached for a year), so neither waits for the config answer or for MapLibre to run.
void preloadMapView().catch(() => undefined);
if (import.meta.env.PROD) void fetch(mapWorkerUrl).catch(() => undefined);

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);

// Spec §1: the service worker is registered from /sw.js at load (production builds only, so it
// never caches Vite's dev modules).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
