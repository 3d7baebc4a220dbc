import { Link, useNavigate } from 'react-router';
import { MESSAGES, truncate } from '@moodmap/core';
import { useUiStore } from '../../lib/ui-store.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ChatIcon, UserIcon } from '../../ui/icons.tsx';
import { MoodBadge, ProfileIdentity, focusState, postThumbnails } from './ProfileBits.tsx';
import { usePublicProfile, useSendMessage } from './profile-api.ts';

/** The modal shows the latest 6 posts, each with up to 3 thumbnails. */
export const MODAL_POSTS = 6;
export const MODAL_THUMBNAILS = 3;

/**
 * The profile modal, mounted once in the shell and opened with
 * `openProfileModal(userId)` from ui-store (a marker's author, a comment's author).
 */
export function ProfileModal() {
  const userId = useUiStore((s) => s.profileModalUserId);
  const close = useUiStore((s) => s.closeProfileModal);
  if (!userId) return null;
  return (
    <Dialog title={MESSAGES.profile_title} onClose={close} testId="profile-modal" width="max-w-lg">
      <ProfileModalBody key={userId} userId={userId} onClose={close} />
    </Dialog>
  );
}

function ProfileModalBody({ userId, onClose }: { userId: string; onClose: () => void }) {
  const query = usePublicProfile(userId);
  const navigate = useNavigate();
  const message = useSendMessage(userId, query.data?.username, onClose);
  const profile = query.data;

  if (query.isPending) {
    return (
      <div
        className="flex min-h-48 items-center justify-center text-brand-500"
        role="status"
        aria-label={MESSAGES.loading}
      >
        <Spinner className="size-8 border-[3px]" />
      </div>
    );
  }
  if (!profile) {
    return (
      <div
        className="flex min-h-48 flex-col items-center justify-center gap-3 text-center"
        data-testid="profile-not-found"
      >
        <div className="flex size-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-400 dark:bg-ink-800 dark:text-slate-500">
          <UserIcon size={26} />
        </div>
        <p className="font-semibold text-ink-900 dark:text-white">{MESSAGES.profile_not_found}</p>
      </div>
    );
  }

  const posts = profile.posts.slice(0, MODAL_POSTS);
  return (
    <div data-testid="profile-modal-body" data-user-id={profile.id}>
      <div className="flex items-center gap-4">
        <ProfileIdentity profile={profile} place="modal" />
      </div>
      {profile.bio ? (
        <p
          className="mt-4 text-[15px] whitespace-pre-line text-slate-700 dark:text-slate-300"
          data-testid="profile-bio"
        >
          {profile.bio}
        </p>
      ) : null}
      <div className="mt-5 flex flex-col gap-2 sm:flex-row">
        {message.visible ? (
          <Button
            className="flex-1 whitespace-nowrap"
            onClick={message.send}
            disabled={message.busy}
            data-testid="profile-send-message"
          >
            {message.busy ? <Spinner /> : <ChatIcon size={18} />}
            {MESSAGES.profile_send_message}
          </Button>
        ) : null}
        <Link
          to={`/user/${encodeURIComponent(profile.id)}`}
          onClick={onClose}
          data-testid="profile-full-link"
          className="inline-flex min-h-11 flex-1 items-center justify-center gap-2 rounded-xl bg-slate-100 px-4 text-sm whitespace-nowrap font-semibold text-ink-800 transition hover:bg-slate-200 dark:bg-ink-700 dark:text-slate-100 dark:hover:bg-ink-600"
        >
          <UserIcon size={18} />
          {MESSAGES.profile_view_full}
        </Link>
      </div>
      <section className="mt-6">
        {posts.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-200 p-5 text-center text-sm text-slate-500 dark:border-white/10 dark:text-slate-400">
            {MESSAGES.profile_no_posts}
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {posts.map((post) => {
              const thumbs = postThumbnails(post, MODAL_THUMBNAILS);
              return (
                <li key={post.id}>
                  <button
                    type="button"
                    data-testid="profile-modal-post"
                    data-post-id={post.id}
                    onClick={() => {
                      onClose();
                      void navigate('/', focusState(post.id));
                    }}
                    className="w-full rounded-2xl p-3 text-left ring-1 ring-slate-200 transition hover:bg-slate-50 dark:ring-white/10 dark:hover:bg-white/5"
                  >
                    <MoodBadge mood={post.category} />
                    {!post.isVoiceOnly && post.content ? (
                      <p className="mt-2 text-sm break-words text-slate-700 dark:text-slate-300">
                        {truncate(post.content, 160)}
                      </p>
                    ) : null}
                    {thumbs.length > 0 ? (
                      <div className="mt-2 flex gap-2">
                        {thumbs.map((url) => (
                          <img
                            key={url}
                            src={url}
                            alt=""
                            loading="lazy"
                            data-testid="profile-modal-thumb"
                            className="size-16 rounded-xl object-cover"
                          />
                        ))}
                      </div>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
