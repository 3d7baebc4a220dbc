import { useLocation, useNavigate, useParams } from 'react-router';
import { MESSAGES, t, truncate } from '@moodmap/core';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { ArrowLeftIcon, ChatIcon, MicIcon, UserIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { MoodBadge, ProfileIdentity, focusState, postThumbnails } from './ProfileBits.tsx';
import { usePublicProfile, useSendMessage } from './profile-api.ts';
import { BlockButton } from '../moderation/BlockButton.tsx';

/** /user/:userId — another user's public profile. */
export function UserProfileScreen() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const signedIn = useSessionStore((s) => s.user !== null);
  const openAuth = useUiStore((s) => s.openAuth);
  const query = usePublicProfile(userId);
  const message = useSendMessage(userId, query.data?.username);
  const back = () => (location.key !== 'default' ? navigate(-1) : navigate('/'));
  const profile = query.data;

  return (
    <ModalPanel title={MESSAGES.profile_title}>
      {query.isPending ? (
        <div
          className="flex min-h-72 items-center justify-center text-brand-500"
          role="status"
          aria-label={MESSAGES.loading}
        >
          <Spinner className="size-8 border-[3px]" />
        </div>
      ) : !profile ? (
        <div
          className="flex min-h-72 flex-col items-center justify-center px-6 py-12 text-center"
          data-testid="profile-not-found"
        >
          <div className="mb-5 flex size-16 items-center justify-center rounded-2xl bg-slate-100 text-slate-400 dark:bg-ink-800 dark:text-slate-500">
            <UserIcon size={30} />
          </div>
          <p className="mb-6 text-lg font-semibold text-ink-900 dark:text-white">{MESSAGES.profile_not_found}</p>
          <Button variant="secondary" onClick={back}>
            <ArrowLeftIcon size={18} />
            {MESSAGES.profile_back}
          </Button>
        </div>
      ) : (
        <div className="px-5 py-6 md:px-7" data-testid="public-profile" data-user-id={profile.id}>
          <div className="flex items-start gap-4">
            <button
              type="button"
              onClick={back}
              aria-label={MESSAGES.profile_back}
              data-testid="profile-back"
              className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-800 dark:text-slate-100"
            >
              <ArrowLeftIcon size={18} />
            </button>
            <ProfileIdentity profile={profile} place="page" />
          </div>
          <section className="mt-6 rounded-2xl bg-slate-50 p-4 dark:bg-ink-800" data-testid="profile-about">
            <h3 className="mb-1 text-sm font-semibold text-slate-500 dark:text-slate-400">{MESSAGES.profile_about}</h3>
            {profile.bio ? (
              <p
                className="text-[15px] break-words whitespace-pre-line text-slate-700 dark:text-slate-200"
                data-testid="profile-about-text"
              >
                {profile.bio}
              </p>
            ) : (
              <p className="text-sm text-slate-500 italic dark:text-slate-400" data-testid="profile-about-empty">
                {MESSAGES.profile_about_empty}
              </p>
            )}
          </section>
          {message.visible ? (
            <Button
              className="mt-5 w-full"
              onClick={message.send}
              disabled={message.busy}
              data-testid="profile-send-message"
            >
              {message.busy ? <Spinner /> : <ChatIcon size={18} />}
              {MESSAGES.profile_send_message}
            </Button>
          ) : !signedIn ? (
            <Button
              className="mt-5 w-full"
              data-testid="profile-send-message"
              onClick={() => {
                // A visitor cannot contact anyone: the login message and the login modal.
                toast.info(MESSAGES.contact_signed_out);
                openAuth('login');
              }}
            >
              <ChatIcon size={18} />
              {MESSAGES.profile_send_message}
            </Button>
          ) : null}
          <BlockButton userId={profile.id} />
          <section className="mt-7">
            <h3 className="mb-3 font-bold text-ink-900 dark:text-white" data-testid="profile-posts-title">
              {t('profile_posts_count', { count: profile.posts.length })}
            </h3>
            {profile.posts.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-slate-200 p-6 text-center text-sm text-slate-500 dark:border-white/10 dark:text-slate-400">
                {MESSAGES.profile_no_posts}
              </p>
            ) : (
              <ul className="grid grid-cols-2 gap-3 md:grid-cols-3">
                {profile.posts.map((post) => {
                  const [thumb] = postThumbnails(post, 1);
                  return (
                    <li key={post.id}>
                      <button
                        type="button"
                        data-testid="profile-grid-post"
                        data-post-id={post.id}
                        onClick={() => navigate('/', focusState(post.id))}
                        className="flex h-full w-full flex-col overflow-hidden rounded-2xl text-left ring-1 ring-slate-200 transition hover:ring-brand-400 dark:ring-white/10"
                      >
                        {thumb ? (
                          <img src={thumb} alt="" loading="lazy" className="aspect-[4/3] w-full object-cover" />
                        ) : null}
                        <span className="flex flex-col items-start gap-2 p-3">
                          <MoodBadge mood={post.category} />
                          {post.isVoiceOnly ? (
                            <MicIcon size={18} className="text-slate-500" />
                          ) : (
                            <span className="text-sm break-words text-slate-700 dark:text-slate-300">
                              {truncate(post.content, 80)}
                            </span>
                          )}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
      )}
    </ModalPanel>
  );
}
