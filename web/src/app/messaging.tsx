/**
 * The shell's messaging (features/messages/MessagingLive.tsx), fetched only once someone is
 * signed in: a visitor's first load does not carry the realtime bridge, the toast and the badge's
 * queries.
 */
import { Suspense, useState } from 'react';
import { useSessionStore } from '../features/auth/session-store.ts';
import { lazyScreen } from '../ui/lazy-screen.tsx';

const load = () => import('../features/messages/MessagingLive.tsx');
const Live = lazyScreen(load, (m) => m.MessagingLive);
const Badge = lazyScreen(load, (m) => m.NavUnreadBadge);

/**
 * The bridge and the toast, mounted from the first sign-in on and kept after a sign-out: the
 * bridge's own sign-out handling (messages-realtime.ts useMessaging) then forgets the messages.
 */
export function ShellMessaging() {
  const signedIn = useSessionStore((s) => s.user !== null);
  const [mounted, setMounted] = useState(signedIn);
  if (signedIn && !mounted) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Live />
    </Suspense>
  );
}

/** The unread badge, signed in only: a visitor has no conversations. */
export function MessagesBadge({ className }: { className?: string }) {
  const signedIn = useSessionStore((s) => s.user !== null);
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <Badge className={className} />
    </Suspense>
  );
}
