import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, MINUTE, type MessageDto, TIMING, t } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { ChatIcon } from '../../ui/icons.tsx';
import { ChatHeader } from './ChatHeader.tsx';
import { Composer } from './Composer.tsx';
import { PushOffer } from '../push/PushOffer.tsx';
import { usePushOffer } from '../push/offer-store.ts';
import { useNow } from './ConversationList.tsx';
import { MessageBubble } from './MessageBubble.tsx';
import { markRead, needsReadMark, useConversationSummary, useThread } from './messages-query.ts';
import { useMessagesSelection } from './messages-store.ts';
import { ParticipantAvatar, isDeletedAccount } from './ParticipantAvatar.tsx';
import { RequestActions } from './RequestActions.tsx';

/** Two messages of one sender this close together read as one group. */
const GROUP_MS = 5 * MINUTE;

const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';

/**
 * Read marks: the other party's messages are marked read when the conversation opens,
 * as they arrive while it is in front of the user, and every 5 s while visible — a request is
 * only sent when something is left to mark.
 */
function useReadMarks(conversationId: string, me: string, messages: MessageDto[], enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (enabled && visible()) void markRead(client, conversationId, me);
  }, [client, conversationId, me, enabled]);

  useEffect(() => {
    if (enabled && visible() && messages.some((m) => m.senderId !== me && !m.read))
      void markRead(client, conversationId, me);
  }, [client, conversationId, me, messages, enabled]);

  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      if (visible() && needsReadMark(client, conversationId, me)) void markRead(client, conversationId, me);
    };
    const timer = setInterval(check, TIMING.readMarkIntervalMs);
    document.addEventListener('visibilitychange', check);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [client, conversationId, me, enabled]);
}

/**
 * Scrolling (whether the user has scrolled more than 100 px from the bottom):
 * the thread opens at its end; a new message scrolls into view when the user is near the end or
 * sent it; older messages loaded above keep what is on screen in place.
 */
function useThreadScroll(messages: MessageDto[], me: string) {
  const ref = useRef<HTMLDivElement>(null);
  const farFromBottom = useRef(false);
  const lastId = useRef<string | null>(null);
  const firstId = useRef<string | null>(null);
  const height = useRef(0);

  const toBottom = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    farFromBottom.current = false;
  }, []);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    farFromBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight > TIMING.scrollNearBottomPx;
    height.current = el.scrollHeight;
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    const first = messages[0]?.id ?? null;
    const last = messages[messages.length - 1];
    if (el) {
      if (firstId.current !== null && first !== firstId.current && last?.id === lastId.current) {
        // Older messages went in above: keep the same ones on screen.
        el.scrollTop += el.scrollHeight - height.current;
      } else if (last && last.id !== lastId.current) {
        if (lastId.current === null || !farFromBottom.current || last.senderId === me) toBottom();
      }
      height.current = el.scrollHeight;
    }
    firstId.current = first;
    lastId.current = last?.id ?? null;
  }, [messages, me, toBottom]);

  /** An image finished loading: stay at the end if the user was there. */
  const onContentGrew = useCallback(() => {
    if (!farFromBottom.current) toBottom();
    else if (ref.current) height.current = ref.current.scrollHeight;
  }, [toBottom]);

  return { ref, onScroll, toBottom, onContentGrew };
}

/** The open conversation: header, the thread with older pages on demand, the composer. */
export function ChatView({ conversationId, me }: { conversationId: string; me: string }) {
  const { summary, missing } = useConversationSummary(conversationId);
  const knownNickname = useMessagesSelection((s) => (s.conversationId === conversationId ? s.otherNickname : null));
  const clear = useMessagesSelection((s) => s.clear);
  const thread = useThread(conversationId);
  const { messages } = thread;
  const now = useNow();
  const scroll = useThreadScroll(messages, me);
  // A request is read without telling its sender: nothing is marked until it is accepted.
  const request = summary?.request === true;
  useReadMarks(conversationId, me, messages, !request);
  const lastMessage = messages[messages.length - 1];
  const seen = Boolean(lastMessage && lastMessage.senderId === me && lastMessage.read);
  // 'Vu' appearing under the last message keeps it in view.
  const { onContentGrew } = scroll;
  useLayoutEffect(() => {
    if (seen) onContentGrew();
  }, [seen, onContentGrew]);

  if (missing) return <ConversationNotFound onBack={clear} />;

  const other = summary?.otherParticipant;
  const nickname = other?.nickname || knownNickname || '';
  // The other person deleted their account: what they sent stays, nothing more can be written.
  const closed = isDeletedAccount(other);
  const empty = !thread.isPending && messages.length === 0;
  const seenId = seen ? lastMessage!.id : null;

  let body;
  if (thread.isPending) {
    body = (
      <div
        className="flex flex-1 items-center justify-center text-brand-500"
        role="status"
        aria-label={MESSAGES.loading}
      >
        <Spinner className="size-7 border-[3px]" />
      </div>
    );
  } else if (empty) {
    body = (
      <div
        className="flex flex-1 flex-col items-center justify-center gap-4 px-6 py-10 text-center"
        data-testid="conversation-empty"
      >
        {other ? <ParticipantAvatar participant={{ ...other, nickname }} size={72} /> : null}
        <p className="max-w-xs text-[15px] text-slate-600 dark:text-slate-300">
          {t('messages_start_with', { nickname })}
        </p>
      </div>
    );
  } else {
    body = (
      <MessageThread
        thread={thread}
        nickname={nickname}
        me={me}
        now={now}
        seenId={seenId}
        onImageLoad={scroll.onContentGrew}
      />
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="chat-view" data-conversation-id={conversationId}>
      <ChatHeader other={other} nickname={nickname} onBack={clear} />
      <div
        ref={scroll.ref}
        onScroll={scroll.onScroll}
        data-testid="messages-thread"
        className="flex min-h-0 flex-1 flex-col overflow-y-auto overscroll-contain bg-slate-50 px-3 py-4 md:px-6 dark:bg-[#10182a]"
      >
        {body}
      </div>
      {request && other ? <RequestActions conversationId={conversationId} other={other} /> : null}
      {request || closed ? null : <PushOffer />}
      {request ? null : (
        <Composer
          conversationId={conversationId}
          closedReason={closed ? MESSAGES.conversation_closed : undefined}
          placeholder={empty ? MESSAGES.messages_first_placeholder : MESSAGES.messages_placeholder}
          onSent={() => {
            scroll.toBottom();
            // A first message sent is when being notified of the answer makes sense.
            usePushOffer.getState().afterSend();
          }}
        />
      )}
    </div>
  );
}

/** A conversation that does not exist (or no longer): the header to go back, and why it is empty. */
function ConversationNotFound({ onBack }: { onBack: () => void }) {
  return (
    <div className="flex flex-1 flex-col" data-testid="conversation-not-found">
      <ChatHeader other={undefined} nickname="" onBack={onBack} />
      <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center">
        <div className="flex size-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-400 dark:bg-ink-800 dark:text-slate-500">
          <ChatIcon size={26} />
        </div>
        <p className="font-semibold text-ink-900 dark:text-white">{MESSAGES.conversation_not_found}</p>
      </div>
    </div>
  );
}

/** The messages, oldest first, with the button that loads the older ones above them. */
function MessageThread({
  thread,
  nickname,
  me,
  now,
  seenId,
  onImageLoad,
}: {
  thread: ReturnType<typeof useThread>;
  nickname: string;
  me: string;
  now: Date;
  seenId: string | null;
  onImageLoad: () => void;
}) {
  const { messages } = thread;
  return (
    <div className="mt-auto">
      {thread.hasOlder ? (
        <div className="mb-4 flex justify-center">
          <button
            type="button"
            onClick={() => void thread.loadOlder()}
            disabled={thread.loadingOlder}
            data-testid="messages-load-older"
            className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-1.5 text-xs font-semibold text-brand-700 shadow-sm ring-1 ring-slate-200 transition hover:bg-brand-50 disabled:opacity-60 dark:bg-ink-800 dark:text-brand-300 dark:ring-white/10 dark:hover:bg-ink-700"
          >
            {thread.loadingOlder ? <Spinner className="size-3.5" /> : null}
            {MESSAGES.messages_load_older}
          </button>
        </div>
      ) : null}
      <ol className="flex flex-col" aria-label={t('messages_conversation_with', { name: nickname })}>
        {messages.map((m, i) => {
          const previous = messages[i - 1];
          const grouped = Boolean(
            previous &&
              previous.senderId === m.senderId &&
              Date.parse(m.createdAt) - Date.parse(previous.createdAt) < GROUP_MS,
          );
          return (
            <MessageBubble
              key={m.id}
              message={m}
              mine={m.senderId === me}
              grouped={grouped}
              now={now}
              seen={m.id === seenId}
              onImageLoad={onImageLoad}
            />
          );
        })}
      </ol>
    </div>
  );
}
