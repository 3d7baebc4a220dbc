import { Suspense, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { LiveAnnouncer } from '../ui/announcer.tsx';
import { Toaster } from '../ui/toasts/Toaster.tsx';
import { useSessionStore } from '../features/auth/session-store.ts';
import { useUiStore } from '../lib/ui-store.ts';
import { Deferred, lazyScreen } from '../ui/lazy-screen.tsx';
import { useFirstView } from './first-view.ts';
import { Splash } from './Splash.tsx';

// Fetched when first opened: they are closed on the map screen.
const AuthModal = lazyScreen(
  () => import('../features/auth/AuthModal.tsx'),
  (m) => m.AuthModal,
);
const HelpDialog = lazyScreen(
  () => import('../features/help/HelpDialog.tsx'),
  (m) => m.HelpDialog,
);
// Terms notices, the CGU modal and the emergency banner: after the map, never before it
// (first-view.ts): their chunk, the catalogue it carries and their requests wait for its first view.
const LaunchLayer = lazyScreen(
  () => import('../features/terms/LaunchLayer.tsx'),
  (m) => m.LaunchLayer,
);

/** Every route: the page, plus the app-wide dialogs, toasts and the start-up splash. */
export function RootLayout() {
  const queryClient = useQueryClient();
  const initialise = useSessionStore((s) => s.initialise);
  const authOpen = useUiStore((s) => s.authMode !== null);
  const helpOpen = useUiStore((s) => s.helpOpen);
  const firstViewDrawn = useFirstView((s) => s.drawn);
  useEffect(() => {
    void initialise(queryClient);
  }, [initialise, queryClient]);

  return (
    <>
      <Outlet />
      {authOpen ? (
        <Deferred>
          <AuthModal />
        </Deferred>
      ) : null}
      {helpOpen ? (
        <Deferred>
          <HelpDialog />
        </Deferred>
      ) : null}
      {firstViewDrawn ? (
        <Suspense fallback={null}>
          <LaunchLayer />
        </Suspense>
      ) : null}
      <Toaster />
      <LiveAnnouncer />
      <Splash />
    </>
  );
}
