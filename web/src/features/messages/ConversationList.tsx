import { type UIEvent, useEffect, useState } from 'react';
import {
  type ConversationSummaryDto,
  MESSAGES,
  MINUTE,
  type MessageDto,
  conversationListTime,
  isUnreadFor,
  t,
} from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { ChatIcon } from '../../ui/icons.tsx';
import { EmojiText } from './EmojiText.tsx';
import { ParticipantAvatar } from './ParticipantAvatar.tsx';
import { useRequests } from './message-requests.ts';
import { useConversationList } from './messages-query.ts';
import { useMessagesSelection } from './messages-store.ts';

/** Older conversations load when the list is scrolled this close to its end. */
const LOAD_MORE_PX = 160;

/** The clock the list's times follow, ticking every minute ('HH:mm' turns into 'Hier'). */
export function useNow(everyMs = MINUTE): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * A list entry's preview: 'Vous: ' when I sent it, '📷 Photo' for an image
 * message, 'Photo supprimée' for a deleted account's image (neither text nor image left).
 */
export function conversationPreview(last: MessageDto | null, me: string | null | undefined): string {
  if (!last) return '';
  const text = last.content.replace(/\s+/g, ' ').trim();
  const body = last.imageUrl ? MESSAGES.messages_photo_preview : text || MESSAGES.messages_photo_removed;
  return (last.senderId === me ? MESSAGES.messages_you_prefix : '') + body;
}

function ConversationItem({
  conversation,
  selected,
  me,
  now,
  onSelect,
}: {
  conversation: ConversationSummaryDto;
  selected: boolean;
  me: string;
  now: Date;
  onSelect: (c: ConversationSummaryDto) => void;
}) {
  const { otherParticipant: other, lastMessage } = conversation;
  // The dot marks an unread last message from the other person, in a conversation not open.
  const unread = !selected && isUnreadFor(me, !conversation.request, lastMessage);
  const preview = conversationPreview(lastMessage, me);
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(conversation)}
        data-testid="conversation-item"
        data-conversation-id={conversation.id}
        data-unread={unread ? 'true' : 'false'}
        aria-current={selected ? 'true' : undefined}
        className={`flex w-full items-center gap-3 rounded-2xl px-3 py-2.5 text-left transition ${
          selected
            ? 'bg-brand-500/10 ring-1 ring-brand-500/20 dark:bg-brand-400/10 dark:ring-brand-400/20'
            : 'hover:bg-slate-100/80 dark:hover:bg-white/5'
        }`}
      >
        <ParticipantAvatar participant={other} size={48} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span
              className={`min-w-0 flex-1 truncate text-[15px] text-ink-900 dark:text-white ${unread ? 'font-bold' : 'font-semibold'}`}
              data-testid="conversation-nickname"
            >
              {other.nickname}
            </span>
            <time
              dateTime={lastMessage?.createdAt ?? conversation.updatedAt}
              data-testid="conversation-time"
              className={`shrink-0 text-xs ${unread ? 'font-semibold text-blue-600 dark:text-blue-400' : 'text-slate-600 dark:text-slate-400'}`}
            >
              {conversationListTime(lastMessage?.createdAt ?? conversation.updatedAt, now)}
            </time>
          </span>
          <span className="mt-0.5 flex items-center gap-2">
            <span
              data-testid="conversation-preview"
              className={`min-w-0 flex-1 truncate text-sm ${unread ? 'font-medium text-ink-800 dark:text-slate-100' : 'text-slate-600 dark:text-slate-400'}`}
            >
              {lastMessage ? (
                <EmojiText text={preview} />
              ) : (
                <span className="italic">{t('messages_start_with', { nickname: other.nickname })}</span>
              )}
            </span>
            {unread ? (
              <span
                role="img"
                aria-label={MESSAGES.messages_unread_dot}
                data-testid="unread-dot"
                className="size-2.5 shrink-0 rounded-full bg-blue-500 shadow-[0_0_0_3px] shadow-blue-500/15"
              />
            ) : null}
          </span>
        </span>
      </button>
    </li>
  );
}

function ListSkeleton() {
  return (
    <div role="status" aria-label={MESSAGES.loading} className="flex flex-col gap-1 p-2">
      {[0, 1, 2, 3, 4].map((i) => (
        <div key={i} className="flex animate-pulse items-center gap-3 px-3 py-2.5">
          <div className="size-12 rounded-full bg-slate-200/80 dark:bg-white/10" />
          <div className="flex-1 space-y-2">
            <div className="h-3.5 w-1/2 rounded-full bg-slate-200/80 dark:bg-white/10" />
            <div className="h-3 w-4/5 rounded-full bg-slate-100 dark:bg-white/5" />
          </div>
        </div>
      ))}
    </div>
  );
}

type Box = 'conversations' | 'requests';

/** 'Conversations' and 'Demandes' (with their count): the stranger's requests wait in the second. */
function BoxTabs({ box, requests, onChange }: { box: Box; requests: number; onChange: (box: Box) => void }) {
  const tab = (value: Box, label: string, testId: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={box === value}
      data-testid={testId}
      onClick={() => onChange(value)}
      className={`flex-1 rounded-xl px-3 py-1.5 text-sm font-semibold transition ${
        box === value
          ? 'bg-white text-ink-900 shadow-sm dark:bg-ink-700 dark:text-white'
          : 'text-slate-600 hover:text-ink-900 dark:text-slate-400 dark:hover:text-white'
      }`}
    >
      {label}
    </button>
  );
  return (
    <div role="tablist" className="m-2 mb-0 flex gap-1 rounded-2xl bg-slate-100 p-1 dark:bg-white/5">
      {tab('conversations', MESSAGES.conversations_tab, 'box-conversations')}
      {tab('requests', requests ? `${MESSAGES.requests_tab} (${requests})` : MESSAGES.requests_tab, 'box-requests')}
    </div>
  );
}

/** The conversations: the other person, the last message's time and a preview. */
export function ConversationList({
  me,
  selectedId,
  className = '',
}: {
  me: string;
  selectedId: string | null;
  className?: string;
}) {
  const list = useConversationList();
  const requests = useRequests();
  const [box, setBox] = useState<Box>('conversations');
  const showRequests = box === 'requests';
  const { hasMore, loadMore, loadingMore } = list;
  const conversations = showRequests ? requests : list.conversations;
  const isPending = !showRequests && list.isPending;
  const select = useMessagesSelection((s) => s.select);
  const now = useNow();

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    if (!showRequests && hasMore && el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_PX) void loadMore();
  };

  let body;
  if (isPending) {
    body = <ListSkeleton />;
  } else if (conversations.length === 0 && showRequests) {
    body = (
      <p className="px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400" data-testid="requests-empty">
        {MESSAGES.requests_empty}
      </p>
    );
  } else if (conversations.length === 0) {
    body = (
      <div
        className="flex flex-1 flex-col items-center justify-center px-6 py-12 text-center"
        data-testid="messages-empty"
      >
        <div className="mb-5 flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500/15 to-violet-brand/15 text-brand-600 ring-1 ring-brand-500/20 dark:text-brand-300">
          <ChatIcon size={30} />
        </div>
        <p className="mb-2 text-lg font-bold text-ink-900 dark:text-white">{MESSAGES.messages_empty}</p>
        <p className="max-w-xs text-sm leading-relaxed text-slate-600 dark:text-slate-400">
          {MESSAGES.messages_empty_hint}
        </p>
      </div>
    );
  } else {
    body = (
      <ul className="flex flex-col gap-0.5 p-2" data-testid={showRequests ? 'request-list' : 'conversation-list'}>
        {conversations.map((c) => (
          <ConversationItem
            key={c.id}
            conversation={c}
            selected={c.id === selectedId}
            me={me}
            now={now}
            onSelect={(conv) => select(conv.id, { otherNickname: conv.otherParticipant.nickname })}
          />
        ))}
        {loadingMore ? (
          <li className="flex justify-center py-3 text-brand-500" role="status" aria-label={MESSAGES.loading}>
            <Spinner />
          </li>
        ) : null}
      </ul>
    );
  }

  return (
    <aside
      data-testid="messages-list"
      onScroll={onScroll}
      className={`min-h-0 flex-col overflow-y-auto overscroll-contain md:w-80 md:shrink-0 md:border-r md:border-slate-100 dark:md:border-white/5 ${className}`}
    >
      <BoxTabs box={box} requests={requests.length} onChange={setBox} />
      {body}
    </aside>
  );
}
