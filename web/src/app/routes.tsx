import type { ReactNode } from 'react';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { PULSE_RETURN_PATH } from '../features/pulse/return-path.ts';
import { Deferred, lazyScreen } from '../ui/lazy-screen.tsx';
import { useMarkFirstViewNow } from './first-view.ts';
import { RESET_PATH } from './reset-redirect.ts';
import { RootLayout } from './RootLayout.tsx';
import { Shell } from './Shell.tsx';

// Only the map screen (Shell) is in the first chunk; every other route loads its own.
const ResetPasswordPage = lazyScreen(
  () => import('../features/auth/ResetPasswordPage.tsx'),
  (m) => m.ResetPasswordPage,
);
const ProfileScreen = lazyScreen(
  () => import('../features/profile/ProfileScreen.tsx'),
  (m) => m.ProfileScreen,
);
const UserProfileScreen = lazyScreen(
  () => import('../features/profile/UserProfileScreen.tsx'),
  (m) => m.UserProfileScreen,
);
const CreateScreen = lazyScreen(
  () => import('../features/posts/CreateScreen.tsx'),
  (m) => m.CreateScreen,
);
const MessagesScreen = lazyScreen(
  () => import('../features/messages/MessagesScreen.tsx'),
  (m) => m.MessagesScreen,
);
const AdminScreen = lazyScreen(
  () => import('../features/admin/AdminScreen.tsx'),
  (m) => m.AdminScreen,
);
const AppealLinkScreen = lazyScreen(
  () => import('../features/moderation/AppealLinkScreen.tsx'),
  (m) => m.AppealLinkScreen,
);
const DsaNoticeScreen = lazyScreen(
  () => import('../features/dsa/DsaNoticeScreen.tsx'),
  (m) => m.DsaNoticeScreen,
);
const DsaConfirmScreen = lazyScreen(
  () => import('../features/dsa/DsaConfirmScreen.tsx'),
  (m) => m.DsaConfirmScreen,
);
const PulseReturnPage = lazyScreen(
  () => import('../features/pulse/PulseReturnPage.tsx'),
  (m) => m.PulseReturnPage,
);

/** A page outside the shell: it is the first view (nothing waits for a map there). */
function WithoutMap({ children }: { children: ReactNode }) {
  useMarkFirstViewNow();
  return <Deferred>{children}</Deferred>;
}

/** The shell: the map at /, modal routes over it, unknown paths back to /. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        path: RESET_PATH,
        element: (
          <WithoutMap>
            <ResetPasswordPage />
          </WithoutMap>
        ),
      },
      // Back from the Pulse checkout: outside the shell, it closes the popup or returns.
      {
        path: PULSE_RETURN_PATH,
        element: (
          <WithoutMap>
            <PulseReturnPage />
          </WithoutMap>
        ),
      },
      {
        path: '/',
        element: <Shell />,
        children: [
          { index: true, element: null },
          {
            path: 'profile',
            element: (
              <Deferred>
                <ProfileScreen />
              </Deferred>
            ),
          },
          {
            path: 'user/:userId',
            element: (
              <Deferred>
                <UserProfileScreen />
              </Deferred>
            ),
          },
          {
            path: 'create',
            element: (
              <Deferred>
                <CreateScreen />
              </Deferred>
            ),
          },
          {
            path: 'messages',
            element: (
              <Deferred>
                <MessagesScreen />
              </Deferred>
            ),
          },
          {
            path: 'admin',
            element: (
              <Deferred>
                <AdminScreen />
              </Deferred>
            ),
          },
          // The appeal link of a statement's e-mail: works signed out.
          {
            path: 'appeal',
            element: (
              <Deferred>
                <AppealLinkScreen />
              </Deferred>
            ),
          },
          // Notices of illegal content (DSA Art. 16): open to visitors, like the confirmation link.
          {
            path: 'signalement-illicite',
            element: (
              <Deferred>
                <DsaNoticeScreen />
              </Deferred>
            ),
          },
          {
            path: 'signalement-illicite/confirmer',
            element: (
              <Deferred>
                <DsaConfirmScreen />
              </Deferred>
            ),
          },
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];

/**
 * The routes as the app mounts them, under main.tsx's <BrowserRouter>. Declarative routing, not
 * createBrowserRouter: the app uses no loader, action, fetcher or blocker, and the data router's
 * code (about a third of react-router) would otherwise sit in the first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
