import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { AuthModal } from '../features/auth/AuthModal.tsx';
import { HelpDialog } from '../features/help/HelpDialog.tsx';
import { Toaster } from '../ui/toasts/Toaster.tsx';
import { useSessionStore } from '../features/auth/session-store.ts';
import { Splash } from './Splash.tsx';

/** Every route: the page, plus the app-wide dialogs, toasts and the start-up splash. */
export function RootLayout() {
  const queryClient = useQueryClient();
  const initialise = useSessionStore((s) => s.initialise);
  useEffect(() => {
    void initialise(queryClient);
  }, [initialise, queryClient]);

  return (
    <>
      <Outlet />
      <AuthModal />
      <HelpDialog />
      <Toaster />
      <Splash />
    </>
  );
}
