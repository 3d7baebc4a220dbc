import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { FloatingButtons } from '../features/map/FloatingButtons.tsx';
import { MessageToast } from '../features/messages/MessageToast.tsx';
import { useMessaging } from '../features/messages/messages-realtime.ts';
import { ProfileModal } from '../features/profile/ProfileModal.tsx';
import { useProfileRealtime } from '../features/profile/profile-realtime.ts';
import { BottomNav } from './BottomNav.tsx';
import { useAppConfig } from '../lib/config.ts';
import { TopBar } from './TopBar.tsx';

// MapLibre is the heaviest dependency: its own chunk, loaded while the splash shows.
const MapView = lazy(() => import('../features/map/MapView.tsx').then((m) => ({ default: m.MapView })));

/** The map at / with the top bar, floating buttons and navigation; modal routes render in the Outlet. */
export function Shell() {
  const { settled } = useAppConfig();
  // Messages stay live app-wide while signed in: the unread badge and the 'Nouveau message' toast.
  useMessaging();
  // Anyone's new nickname or photo replaces the old one on markers, comments and chats.
  useProfileRealtime();
  return (
    <div className="relative h-full w-full overflow-hidden">
      <h1 className="sr-only">{MESSAGES.app_name}</h1>
      <main className="absolute inset-0" aria-label={MESSAGES.map_label}>
        {settled ? (
          <Suspense fallback={null}>
            <MapView />
          </Suspense>
        ) : null}
      </main>
      <TopBar />
      <FloatingButtons />
      <Outlet />
      <BottomNav />
      <ProfileModal />
      <MessageToast />
    </div>
  );
}
