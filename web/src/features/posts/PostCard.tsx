/**
 * The single-post popup card: author photo and nickname (to the profile),
 * relative time, the report flag (signed in, not the author), category badge, audio player,
 * first image (click to enlarge), text, 'Signaler un contenu illicite' (anyone), the likes, 'Commenter' (the comments area) and
 * 'Contacter'; the owner gets 'Supprimer' instead.
 */
import { openProfileModal } from '../../lib/ui-store.ts';
import { useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { AudioPlayer } from '../../ui/AudioPlayer.tsx';
import { Spinner } from '../../ui/Button.tsx';
import { ImagePreview } from '../../ui/ImagePreview.tsx';
import { ChatIcon, ChevronLeftIcon, FlagIcon, MailIcon, PinIcon } from '../../ui/icons.tsx';
import { DialogHeader } from '../../ui/DialogHeader.tsx';
import { Deferred, lazyScreen } from '../../ui/lazy-screen.tsx';
import { CommentsSection } from '../comments/CommentsSection.tsx';
import { LikeButton } from '../likes/LikeButton.tsx';
import { useContactAuthor } from '../messages/contact.ts';
import { MoodBadge } from './MoodBadge.tsx';
import { PopupFrame } from './PopupFrame.tsx';
import { PostByline } from './PostByline.tsx';
import { DeletePostButton } from './DeletePostButton.tsx';
import { type PostDto, firstImage } from './post-types.ts';
import { BlockButton } from '../moderation/BlockButton.tsx';
import { DSA_NOTICE_PATH } from '../dsa/paths.ts';

export { MoodBadge };

/** The report form (and core's report schema, with zod) loads when the flag is pressed. */
const ReportDialog = lazyScreen(
  () => import('../reports/ReportDialog.tsx'),
  (m) => m.ReportDialog,
);

const ACTION =
  'inline-flex h-10 flex-1 items-center justify-center gap-1.5 rounded-xl px-3 text-sm font-semibold transition';

export function PostCard({
  post,
  now,
  onClose,
  onBack,
}: {
  post: PostDto;
  /** "Now" on the server's clock. */
  now: Date;
  onClose: () => void;
  /** Back to the cluster list this card was opened from. */
  onBack?: () => void;
}) {
  const user = useSessionStore((s) => s.user);
  const [enlarged, setEnlarged] = useState(false);
  const [commentsOpen, setCommentsOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const { contact, opening } = useContactAuthor();
  const mine = user !== null && user.id === post.userId;
  const image = firstImage(post);

  return (
    <PopupFrame post={post}>
      <DialogHeader
        onClose={onClose}
        size="md"
        closeTestId="popup-close"
        className="px-4 pt-3 pb-2"
        actions={
          user && !mine ? (
            <>
              <BlockButton userId={post.userId} compact />
              <button
                type="button"
                onClick={() => setReporting(true)}
                aria-label={MESSAGES.report_title}
                title={MESSAGES.report_title}
                data-testid="post-report"
                className="flex size-8 items-center justify-center rounded-full text-slate-500 dark:text-slate-400 hover:bg-rose-50 hover:text-rose-600 dark:hover:bg-rose-500/10 dark:hover:text-rose-300"
              >
                <FlagIcon size={16} />
              </button>
            </>
          ) : null
        }
      >
        {onBack ? (
          <button
            type="button"
            onClick={onBack}
            aria-label={MESSAGES.cluster_back}
            className="-ml-1.5 flex size-8 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-white/10"
          >
            <ChevronLeftIcon size={18} />
          </button>
        ) : null}
        <button
          type="button"
          onClick={() => openProfileModal(post.userId)}
          className="flex min-w-0 flex-1 items-center gap-3 rounded-xl text-left"
          data-testid="post-author"
        >
          <PostByline post={post} now={now} linked />
        </button>
      </DialogHeader>

      <PostContent
        post={post}
        now={now}
        image={image}
        mine={mine}
        commentsOpen={commentsOpen}
        onEnlarge={() => setEnlarged(true)}
      />

      {/* Two rows whatever the width: likes and comments, then the call to action. */}
      <footer className="grid shrink-0 grid-cols-[auto_minmax(0,1fr)] gap-2 border-t border-slate-100 px-3 py-2.5 dark:border-white/5">
        <LikeButton post={post} />
        <button
          type="button"
          onClick={() => setCommentsOpen((o) => !o)}
          aria-expanded={commentsOpen}
          data-testid="post-comment"
          className={`${ACTION} ${
            commentsOpen
              ? 'bg-brand-50 text-brand-700 ring-1 ring-brand-200 hover:bg-brand-100 dark:bg-brand-500/15 dark:text-brand-200 dark:ring-brand-500/30'
              : 'bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-800 dark:text-slate-100 dark:hover:bg-ink-700'
          }`}
        >
          <ChatIcon size={17} className="shrink-0" /> {MESSAGES.post_comment}
          {post.commentsCount > 0 ? (
            <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400" data-testid="post-comment-count">
              {post.commentsCount}
            </span>
          ) : null}
        </button>
        {mine ? (
          <div className="col-span-2 flex justify-center">
            <DeletePostButton postId={post.id} onDeleted={onClose} compact />
          </div>
        ) : (
          <button
            type="button"
            onClick={() => contact(post)}
            disabled={opening}
            aria-busy={opening}
            data-testid="post-contact"
            className={`${ACTION} col-span-2 bg-gradient-to-r from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/25 hover:brightness-105 disabled:opacity-80`}
          >
            {opening ? <Spinner className="size-4" /> : <MailIcon size={17} className="shrink-0" />}{' '}
            {MESSAGES.post_contact}
          </button>
        )}
      </footer>
      {enlarged && image ? <ImagePreview src={image} onClose={() => setEnlarged(false)} /> : null}
      {reporting ? (
        <Deferred>
          <ReportDialog postId={post.id} onClose={() => setReporting(false)} />
        </Deferred>
      ) : null}
    </PopupFrame>
  );
}

/** The card's body: mood, approximate-place note, voice, image, text, the illegal-content link, comments. */
function PostContent({
  post,
  now,
  image,
  mine,
  commentsOpen,
  onEnlarge,
}: {
  post: PostDto;
  now: Date;
  image: string | null;
  mine: boolean;
  commentsOpen: boolean;
  onEnlarge: () => void;
}) {
  return (
    <div className="min-h-0 flex-1 space-y-3 overflow-y-auto overscroll-contain px-4 pb-3">
      <div className="flex flex-wrap items-center gap-2">
        <MoodBadge post={post} />
        {/* The pin stands for a ~1 km area, not the place it was posted from. */}
        {post.approximate ? (
          <span
            className="inline-flex items-center gap-1 text-xs font-medium text-slate-600 dark:text-slate-300"
            data-testid="post-approximate"
          >
            <PinIcon size={14} className="shrink-0" /> {MESSAGES.post_approximate}
          </span>
        ) : null}
      </div>
      {post.audioUrl ? <AudioPlayer src={post.audioUrl} durationHint={post.audioDuration} testId="post-audio" /> : null}
      {image ? (
        <button
          type="button"
          onClick={onEnlarge}
          aria-label={MESSAGES.image_enlarge}
          className="block w-full overflow-hidden rounded-2xl bg-slate-100 dark:bg-ink-800"
          data-testid="post-image"
        >
          <img
            src={image}
            alt=""
            loading="lazy"
            className="max-h-56 w-full object-cover transition hover:scale-[1.02]"
          />
        </button>
      ) : null}
      {!post.isVoiceOnly && post.content ? (
        <p
          className="text-[15px] leading-relaxed break-words whitespace-pre-line text-ink-800 dark:text-slate-200"
          data-testid="post-text"
        >
          {post.content}
        </p>
      ) : null}
      {/* DSA Art. 16: anyone, visitors included, may notify illegal content (not their own). */}
      {mine ? null : (
        <Link
          to={`${DSA_NOTICE_PATH}?post=${encodeURIComponent(post.id)}`}
          className="inline-block text-xs text-slate-500 underline underline-offset-2 hover:text-rose-600 dark:text-slate-400 dark:hover:text-rose-300"
          data-testid="post-dsa-notice"
        >
          {MESSAGES.dsa_link}
        </Link>
      )}
      {commentsOpen ? <CommentsSection post={post} now={now} /> : null}
    </div>
  );
}
