/**
 * A single post's popup: painted at once from the marker (photo, nickname, mood, time,
 * pulse) as a skeleton of the card, then the card itself when `GET /api/posts/:id` answers (or
 * at once when it is cached). A post that is gone (404) leaves the map and closes its popup.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api.ts';
import { DialogHeader } from '../../../ui/DialogHeader.tsx';
import { Suspense } from 'react';
import { lazyScreen } from '../../../ui/lazy-screen.tsx';
import { loadPostCard } from '../../posts/for-map.ts';
import { MoodBadge } from '../../posts/for-map.ts';
import { PopupFrame } from '../../posts/for-map.ts';
import { PostByline } from '../../posts/for-map.ts';
import { usePostCard } from '../../posts/for-map.ts';
import { cardKey, removePostFromCache } from '../../posts/for-map.ts';
import { afterNextPaint } from '../after-paint.ts';
import type { MarkerDto } from '../../posts/for-map.ts';

const PostCard = lazyScreen(loadPostCard, (m) => m.PostCard);

interface PopupProps {
  marker: MarkerDto;
  now: Date;
  onClose: () => void;
  onBack?: () => void;
}

/**
 * The skeleton paints in the tap's own frame; the card is rendered after that frame, so it does
 * not delay it. Its request started with the tap (prefetchPostCard) and
 * is shared here; a card already cached shows at once.
 */
export function PostPopup(props: PopupProps) {
  const client = useQueryClient();
  const cached = client.getQueryData(cardKey(props.marker.id)) !== undefined;
  const [painted, setPainted] = useState(cached);
  useEffect(() => (painted ? undefined : afterNextPaint(() => setPainted(true))), [painted]);
  if (!painted) return <PostCardSkeleton marker={props.marker} now={props.now} onClose={props.onClose} />;
  return <PostPopupCard {...props} />;
}

function PostPopupCard({ marker, now, onClose, onBack }: PopupProps) {
  const client = useQueryClient();
  const card = usePostCard(marker.id);
  const gone = card.data === null || (card.error instanceof ApiError && card.error.status === 404);
  useEffect(() => {
    if (gone) removePostFromCache(client, marker.id);
  }, [gone, client, marker.id]);
  useEffect(() => void loadPostCard().catch(() => undefined), []);
  const skeleton = <PostCardSkeleton marker={marker} now={now} onClose={onClose} />;
  if (!card.data) return skeleton;
  return (
    <Suspense fallback={skeleton}>
      <PostCard key={marker.id} post={card.data} now={now} onClose={onClose} onBack={onBack} />
    </Suspense>
  );
}

/** The card's frame with what the marker knows; the rest shimmers until the card arrives. */
export function PostCardSkeleton({ marker, now, onClose }: { marker: MarkerDto; now: Date; onClose: () => void }) {
  return (
    <PopupFrame post={marker} skeleton>
      <DialogHeader onClose={onClose} size="md" closeTestId="popup-close" className="px-4 pt-3 pb-2">
        <span className="flex min-w-0 flex-1 items-center gap-3">
          <PostByline post={marker} now={now} />
        </span>
      </DialogHeader>
      <div className="space-y-3 px-4 pb-4">
        <MoodBadge post={marker} />
        <span className="block h-4 w-11/12 animate-pulse rounded bg-slate-100 dark:bg-white/10" aria-hidden="true" />
        <span className="block h-4 w-2/3 animate-pulse rounded bg-slate-100 dark:bg-white/10" aria-hidden="true" />
        <span className="block h-10 w-full animate-pulse rounded-xl bg-slate-100 dark:bg-white/10" aria-hidden="true" />
      </div>
    </PopupFrame>
  );
}
