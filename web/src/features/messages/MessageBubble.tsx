import { type MessageDto, MESSAGES, bubbleTime } from '@moodmap/core';
import { EmojiText } from './EmojiText.tsx';

/**
 * One message: mine on the right, theirs on the left; an optional image that
 * opens in a new tab, the text, and the time. `grouped`: follows a message of the same sender,
 * so it sits closer and keeps round corners on that side. A message left with neither (a deleted
 * account's image, removed) says 'Photo supprimée'.
 */
export function MessageBubble({
  message,
  mine,
  grouped,
  now,
  seen,
  onImageLoad,
}: {
  message: MessageDto;
  mine: boolean;
  grouped: boolean;
  now: Date;
  /** My last message, read by the other person. */
  seen?: boolean;
  onImageLoad?: () => void;
}) {
  const text = message.content.trim();
  const tone = mine
    ? 'bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-sm shadow-brand-500/20'
    : 'bg-white text-ink-900 shadow-sm ring-1 ring-slate-200/80 dark:bg-ink-700 dark:text-slate-100 dark:ring-white/5';
  const corner = mine ? (grouped ? 'rounded-tr-md' : '') : grouped ? 'rounded-tl-md' : '';
  return (
    <li
      data-testid="message-bubble"
      data-message-id={message.id}
      data-mine={mine ? 'true' : 'false'}
      className={`flex flex-col ${mine ? 'items-end' : 'items-start'} ${grouped ? 'mt-1' : 'mt-3 first:mt-0'}`}
    >
      <div
        className={`max-w-[82%] overflow-hidden rounded-[1.25rem] md:max-w-[70%] ${tone} ${corner} ${message.imageUrl ? 'p-1' : 'px-3.5 pt-2 pb-1.5'}`}
      >
        {message.imageUrl ? (
          <a
            href={message.imageUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={MESSAGES.messages_open_image}
            title={MESSAGES.messages_open_image}
            data-testid="message-image-link"
            className="block overflow-hidden rounded-2xl"
          >
            <img
              src={message.imageUrl}
              alt={MESSAGES.messages_image_alt}
              loading="lazy"
              onLoad={onImageLoad}
              className="max-h-72 min-h-24 w-auto max-w-full bg-black/5 object-cover transition hover:opacity-95 dark:bg-white/5"
            />
          </a>
        ) : null}
        {text ? (
          <p
            className={`text-[15px] leading-snug break-words whitespace-pre-wrap ${message.imageUrl ? 'px-2.5 pt-1.5' : ''}`}
            data-testid="message-text"
          >
            <EmojiText text={text} />
          </p>
        ) : null}
        {!text && !message.imageUrl ? (
          <p
            className="text-[15px] leading-snug text-slate-500 italic dark:text-slate-400"
            data-testid="message-removed"
          >
            {MESSAGES.messages_photo_removed}
          </p>
        ) : null}
        <p
          className={`text-right text-[10.5px] leading-4 tabular-nums ${message.imageUrl ? 'px-2.5 pt-0.5 pb-1' : 'pt-0.5'} ${mine ? 'text-white/75' : 'text-slate-600 dark:text-slate-300'}`}
        >
          <time dateTime={message.createdAt} data-testid="message-time">
            {bubbleTime(message.createdAt, now)}
          </time>
        </p>
      </div>
      {seen ? (
        <span
          className="mt-1 mr-1 text-[11px] font-medium text-slate-500 dark:text-slate-400"
          data-testid="message-seen"
        >
          {MESSAGES.messages_seen}
        </span>
      ) : null}
    </li>
  );
}
