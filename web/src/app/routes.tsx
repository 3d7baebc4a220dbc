import { Navigate, type RouteObject } from 'react-router';
import { AdminScreen } from '../features/admin/AdminScreen.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { MessagesScreen } from '../features/messages/MessagesScreen.tsx';
import { CreateScreen } from '../features/posts/CreateScreen.tsx';
import { ProfileScreen } from '../features/profile/ProfileScreen.tsx';
import { UserProfileScreen } from '../features/profile/UserProfileScreen.tsx';
import { RESET_PATH } from './reset-redirect.ts';
import { RootLayout } from './RootLayout.tsx';
import { Shell } from './Shell.tsx';

/** Spec §2 "Shell": the map at /, modal routes over it, unknown paths back to /. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: RESET_PATH, element: <ResetPasswordPage /> },
      {
        path: '/',
        element: <Shell />,
        children: [
          { index: true, element: null },
          { path: 'profile', element: <ProfileScreen /> },
          { path: 'user/:userId', element: <UserProfileScreen /> },
          { path: 'create', element: <CreateScreen /> },
          { path: 'messages', element: <MessagesScreen /> },
          { path: 'admin', element: <AdminScreen /> },
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];
