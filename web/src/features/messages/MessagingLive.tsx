/**
 * Messaging's live parts in the shell: the realtime bridge, the 'Nouveau
 * message' toast (said by the live region too) and the navigation's unread badge. A visitor has
 * none of them, so they are a chunk of their own, fetched once someone is signed in
 * (app/messaging.tsx), not on the map's first load.
 */
import { useEffect } from 'react';
import { SHELL_MESSAGES } from '@moodmap/core';
import { announce } from '../../ui/announcer.tsx';
import { MessageToast } from './MessageToast.tsx';
import { useMessaging } from './messages-realtime.ts';
import { useUnreadCount } from './messages-query.ts';
import { useMessageToast } from './message-toast-store.ts';
import { UnreadBadge } from './UnreadBadge.tsx';

/** Mounted once in the shell from the first sign-in on (a sign-out then clears what it held). */
export function MessagingLive() {
  useMessaging();
  useAnnounceMessages();
  return <MessageToast />;
}

/** The badge on 'Messages' in the bottom navigation. */
export function NavUnreadBadge({ className }: { className?: string }) {
  return <UnreadBadge count={useUnreadCount()} className={className} />;
}

/** A new message's toast is also said by the live region (it is mounted only while shown). */
function useAnnounceMessages() {
  const message = useMessageToast((s) => s.toast);
  useEffect(() => {
    if (message) announce(`${SHELL_MESSAGES.message_toast_title} : ${message.senderName}, ${message.content}`);
  }, [message]);
}
