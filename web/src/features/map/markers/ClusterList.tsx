/**
 * The 100 m cluster popup: 'Annonces dans cette zone' and its posts, newest first. It
 * paints at once from the markers (photo, nickname, mood, time), then fills each row's text and
 * image when the group's cards arrive (`GET /api/posts/cards?ids=`).
 */
import { MAP, SHELL_MESSAGES, POST_CARDS_MAX, relativeTime, fillCount, truncate, MOOD_INFO } from '@moodmap/core';
import { MicIcon } from '../../../ui/icons.tsx';
import { DialogHeader } from '../../../ui/DialogHeader.tsx';
import { AuthorPhoto } from '../../posts/for-map.ts';
import { MoodBadge } from '../../posts/for-map.ts';
import { useGroupCards } from '../../posts/for-map.ts';
import { type MarkerDto, firstImage } from '../../posts/for-map.ts';

export function ClusterList({
  markers,
  now,
  onPick,
  onClose,
  onShowList,
}: {
  markers: MarkerDto[];
  now: Date;
  onPick: (marker: MarkerDto) => void;
  onClose: () => void;
  /** The same posts in the list view, sortable, with their full cards. */
  onShowList?: () => void;
}) {
  // A list longer than one read shows its newest posts' cards; the rest keep their marker row.
  const cards = useGroupCards(markers.slice(0, POST_CARDS_MAX).map((m) => m.id));
  const byId = new Map((cards.data ?? []).map((card) => [card.id, card]));
  // On a phone the popup shares its column with the floating buttons: its room runs from under
  // the 'Carte / Liste' toggle (~8.6rem from the top) to above them (~19.3rem from the bottom), so
  // that the whole list shows and scrolls (popup-fit.ts); wider screens keep the buttons aside.
  return (
    <section
      className="flex max-h-[min(30rem,calc(100dvh-28.5rem))] md:max-h-[min(30rem,calc(100dvh-19rem))] w-[min(21rem,calc(100vw-5.5rem))] md:w-[21rem] flex-col overflow-hidden rounded-[20px] bg-white text-left text-ink-900 shadow-2xl ring-1 ring-black/5 dark:bg-ink-900 dark:text-slate-100 dark:ring-white/10"
      data-testid="cluster-popup"
      data-count={markers.length}
      aria-label={SHELL_MESSAGES.cluster_popup_title}
    >
      <DialogHeader
        onClose={onClose}
        size="md"
        closeTestId="popup-close"
        className="border-b border-slate-100 px-4 py-3 dark:border-white/5"
      >
        <span
          className="flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-extrabold text-white"
          style={{ backgroundColor: MAP.clusterColor }}
        >
          {markers.length}
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="text-[15px] leading-snug font-bold">{SHELL_MESSAGES.cluster_popup_title}</h2>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {fillCount(SHELL_MESSAGES, 'cluster_count', markers.length)}
          </p>
        </div>
        {onShowList ? (
          <button
            type="button"
            onClick={onShowList}
            data-testid="cluster-show-list"
            className="shrink-0 rounded-lg px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-white/10"
          >
            {SHELL_MESSAGES.cluster_show_list}
          </button>
        ) : null}
      </DialogHeader>
      <ul className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto overscroll-contain dark:divide-white/5">
        {markers.map((marker) => {
          const card = byId.get(marker.id);
          const image = card ? (card.thumbnailUrl ?? firstImage(card)) : null;
          return (
            <li key={marker.id}>
              <button
                type="button"
                onClick={() => onPick(marker)}
                data-testid="cluster-item"
                data-post-id={marker.id}
                className="flex w-full items-center gap-3 px-4 py-2.5 text-left transition hover:bg-slate-50 dark:hover:bg-white/5"
              >
                <span
                  className="block size-10 shrink-0 overflow-hidden rounded-full"
                  style={{ boxShadow: `0 0 0 2px ${MOOD_INFO[marker.category].color}` }}
                >
                  <AuthorPhoto post={card ?? marker} size={40} />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center gap-2">
                    <span className="truncate text-sm font-semibold">{marker.nickname}</span>
                    <MoodBadge post={marker} small />
                  </span>
                  {!card ? (
                    <span
                      className="mt-1 block h-3 w-3/4 animate-pulse rounded bg-slate-100 dark:bg-white/10"
                      aria-hidden="true"
                    />
                  ) : card.isVoiceOnly || (!card.content && card.audioUrl) ? (
                    <span className="mt-0.5 flex items-center gap-1 text-[13px] text-slate-600 dark:text-slate-300">
                      <MicIcon size={13} className="shrink-0" /> {SHELL_MESSAGES.create_voice_label}
                    </span>
                  ) : (
                    <span className="mt-0.5 block truncate text-[13px] text-slate-600 dark:text-slate-300">
                      {truncate(card.content, 60)}
                    </span>
                  )}
                  <span className="block text-[11px] text-slate-500 dark:text-slate-400">
                    {relativeTime(marker.createdAt, now)}
                  </span>
                </span>
                {image ? (
                  <img src={image} alt="" loading="lazy" className="size-11 shrink-0 rounded-lg object-cover" />
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
