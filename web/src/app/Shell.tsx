import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';
import { SHELL_MESSAGES } from '@moodmap/core';
import { FloatingButtons } from '../features/map/FloatingButtons.tsx';
import { useListStore } from '../features/map/list/list-store.ts';
import { ViewToggle } from '../features/map/list/ViewToggle.tsx';
import { useProfileRealtime } from '../features/profile/profile-realtime.ts';
import { BottomNav } from './BottomNav.tsx';
import { useMarkFirstViewOnMap } from './first-view.ts';
import { ShellMessaging } from './messaging.tsx';
import { useAppConfig } from '../lib/config.ts';
import { useUiStore } from '../lib/ui-store.ts';
import { Deferred, lazyScreen } from '../ui/lazy-screen.tsx';
import { TopBar } from './TopBar.tsx';

let mapViewModule: Promise<typeof import('../features/map/MapView.tsx')> | undefined;

/**
 * MapLibre is the heaviest dependency: its own chunk. main.tsx starts fetching it at boot, in
 * parallel with the config and session answers the shell waits for, instead of after them.
 */
export function preloadMapView() {
  mapViewModule ??= import('../features/map/MapView.tsx');
  return mapViewModule;
}

const MapView = lazy(() => preloadMapView().then((m) => ({ default: m.MapView })));

// Opened from a marker's or a comment's author: fetched then.
const ProfileModal = lazyScreen(
  () => import('../features/profile/ProfileModal.tsx'),
  (m) => m.ProfileModal,
);
// The list view: fetched when first opened, never on the map's first load.
const PostListPanel = lazyScreen(
  () => import('../features/map/list/PostListPanel.tsx'),
  (m) => m.PostListPanel,
);

/** The map at / with the top bar, floating buttons and navigation; modal routes render in the Outlet. */
export function Shell() {
  const { settled } = useAppConfig();
  const profileOpen = useUiStore((s) => s.profileModalUserId !== null);
  const listOpen = useListStore((s) => s.open);
  // Anyone's new nickname or photo replaces the old one on markers, comments and chats.
  useProfileRealtime();
  useMarkFirstViewOnMap();
  return (
    <div className="relative h-full w-full overflow-hidden">
      <h1 className="sr-only">{SHELL_MESSAGES.app_name}</h1>
      <main className="absolute inset-0" aria-label={SHELL_MESSAGES.map_label}>
        {settled ? (
          <Suspense fallback={null}>
            <MapView />
          </Suspense>
        ) : null}
      </main>
      <TopBar />
      <ViewToggle />
      {listOpen ? (
        <Deferred>
          <PostListPanel />
        </Deferred>
      ) : null}
      <FloatingButtons />
      <Outlet />
      <BottomNav />
      {profileOpen ? (
        <Deferred>
          <ProfileModal />
        </Deferred>
      ) : null}
      {/* Messages stay live app-wide while signed in: the realtime bridge and the 'Nouveau message' toast. */}
      <ShellMessaging />
    </div>
  );
}
