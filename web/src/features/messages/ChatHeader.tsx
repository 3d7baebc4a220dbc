import { MESSAGES, type ParticipantDto, t } from '@moodmap/core';
import { openProfileModal } from '../../lib/ui-store.ts';
import { IconButton } from '../../ui/Button.tsx';
import { ArrowLeftIcon } from '../../ui/icons.tsx';
import { ParticipantAvatar } from './ParticipantAvatar.tsx';

/** Who the conversation is with: their profile opens from it; a deleted account opens nothing. */
function ChatPeer({ other, nickname }: { other: ParticipantDto | undefined; nickname: string }) {
  if (!other) {
    return (
      <div className="flex animate-pulse items-center gap-3 py-1 pl-1" role="status" aria-label={MESSAGES.loading}>
        <div className="size-10 rounded-full bg-slate-200 dark:bg-white/10" />
        <div className="h-3.5 w-28 rounded-full bg-slate-200 dark:bg-white/10" />
      </div>
    );
  }
  const userId = other.id;
  if (userId === null) {
    return (
      <div className="flex min-w-0 items-center gap-3 py-1 pr-3 pl-1" data-testid="chat-deleted-account">
        <ParticipantAvatar participant={other} size={40} />
        <span
          className="truncate text-[15px] font-semibold text-slate-600 dark:text-slate-300"
          data-testid="chat-nickname"
        >
          {other.nickname}
        </span>
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={() => openProfileModal(userId)}
      title={t('profile_open', { name: nickname })}
      data-testid="chat-profile"
      className="flex min-w-0 items-center gap-3 rounded-2xl py-1 pr-3 pl-1 text-left transition hover:bg-slate-100 dark:hover:bg-white/5"
    >
      <ParticipantAvatar participant={{ ...other, nickname }} size={40} />
      <span className="truncate text-[15px] font-semibold text-ink-900 dark:text-white" data-testid="chat-nickname">
        {nickname}
      </span>
    </button>
  );
}

/** The chat's top bar: back (on mobile) and the other person, or a placeholder while unknown. */
export function ChatHeader({
  other,
  nickname,
  onBack,
}: {
  other: ParticipantDto | undefined;
  nickname: string;
  onBack: () => void;
}) {
  return (
    <header
      className="flex shrink-0 items-center gap-2 border-b border-slate-100 bg-white px-2 py-2 md:px-4 md:py-2.5 dark:border-white/5 dark:bg-ink-900"
      data-testid="chat-header"
    >
      <IconButton
        onClick={onBack}
        label={MESSAGES.messages_back}
        testId="chat-back"
        className="size-10 text-slate-600 hover:bg-slate-100 md:hidden dark:text-slate-300 dark:hover:bg-white/10"
      >
        <ArrowLeftIcon size={20} />
      </IconButton>
      <ChatPeer other={other} nickname={nickname} />
    </header>
  );
}
