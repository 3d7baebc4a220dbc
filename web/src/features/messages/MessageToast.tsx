import { useState } from 'react';
import { useNavigate } from 'react-router';
import { SHELL_MESSAGES } from '@moodmap/core';
import { ChatIcon, UserIcon } from '../../ui/icons.tsx';
import { CloseButton } from '../../ui/DialogHeader.tsx';
import { EmojiText } from './EmojiText.tsx';
import { useMessageToast } from './message-toast-store.ts';

function SenderAvatar({ url }: { url: string | null }) {
  const [broken, setBroken] = useState(false);
  if (url && !broken) {
    return (
      <img
        src={url}
        alt=""
        onError={() => setBroken(true)}
        className="size-11 rounded-full object-cover ring-2 ring-white dark:ring-ink-800"
        data-testid="message-toast-avatar"
      />
    );
  }
  return (
    <span
      className="flex size-11 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-brand text-white ring-2 ring-white dark:ring-ink-800"
      data-testid="message-toast-default-icon"
    >
      <UserIcon size={22} />
    </span>
  );
}

/**
 * 'Nouveau message', top right, mounted once in the shell. A click
 * opens the conversation on /messages; the close button only hides it.
 */
export function MessageToast() {
  const toast = useMessageToast((s) => s.toast);
  const leaving = useMessageToast((s) => s.leaving);
  const hide = useMessageToast((s) => s.hide);
  const hold = useMessageToast((s) => s.hold);
  const release = useMessageToast((s) => s.release);
  const navigate = useNavigate();
  if (!toast) return null;

  const open = () => {
    hide();
    void navigate(`/messages?conversation=${encodeURIComponent(toast.conversationId)}`);
  };

  return (
    <div className="toast-region pointer-events-none z-[75] flex justify-end">
      <section
        // Announced by the app's persistent live region (ui/announcer.tsx), not by this late-mounted one;
        // a named region so that it can still be found from the landmarks.
        aria-label={SHELL_MESSAGES.message_toast_title}
        data-testid="message-toast"
        data-conversation-id={toast.conversationId}
        data-leaving={leaving ? 'true' : undefined}
        onPointerEnter={() => hold('pointer')}
        onPointerLeave={() => release('pointer')}
        onFocus={() => hold('focus')}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) release('focus');
        }}
        className={`glass pointer-events-auto relative w-full overflow-hidden rounded-2xl ${leaving ? 'animate-toast-out' : 'animate-toast-in'}`}
      >
        <span
          className="absolute inset-y-0 left-0 w-1 bg-gradient-to-b from-brand-500 to-violet-brand"
          aria-hidden="true"
        />
        <button
          type="button"
          onClick={open}
          data-testid="message-toast-open"
          className="flex w-full items-start gap-3 py-3 pr-11 pl-4 text-left transition hover:bg-black/[0.03] dark:hover:bg-white/[0.04]"
        >
          <span className="relative shrink-0">
            <SenderAvatar url={toast.senderAvatar} />
            <span
              className="absolute -right-1 -bottom-1 flex size-5 items-center justify-center rounded-full bg-brand-500 text-white ring-2 ring-white dark:ring-ink-800"
              aria-hidden="true"
            >
              <ChatIcon size={11} strokeWidth={2.6} />
            </span>
          </span>
          <span className="min-w-0 flex-1">
            <span className="flex items-baseline justify-between gap-2">
              <span
                className="text-[11px] font-bold tracking-wide text-brand-600 uppercase dark:text-brand-300"
                data-testid="message-toast-title"
              >
                {SHELL_MESSAGES.message_toast_title}
              </span>
              <span className="shrink-0 text-[11px] text-slate-500 dark:text-slate-400">
                {SHELL_MESSAGES.message_toast_now}
              </span>
            </span>
            <span
              className="mt-0.5 block truncate text-sm font-semibold text-ink-900 dark:text-white"
              data-testid="message-toast-sender"
            >
              {toast.senderName}
            </span>
            <span
              className="mt-0.5 block text-sm break-words text-slate-700 dark:text-slate-200"
              data-testid="message-toast-content"
            >
              <EmojiText text={toast.content} />
            </span>
            <span className="mt-1.5 block text-xs font-medium text-slate-500 dark:text-slate-400">
              {SHELL_MESSAGES.message_toast_reply}
            </span>
          </span>
        </button>
        <CloseButton onClose={hide} size="sm" testId="message-toast-close" className="absolute top-2 right-2" />
      </section>
    </div>
  );
}
