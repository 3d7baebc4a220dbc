import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { CACHE_TTL_MS, MESSAGES, MOOD_INFO, frDate, t, truncate } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ApiError, api } from '../../lib/api.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { ArrowLeftIcon, ChatIcon, UserIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { Avatar } from './Avatar.tsx';
import { readPublicProfile } from './public-profile.ts';

/** /user/:userId — another user's public profile (spec §2 "Public profile page"). */
export function UserProfileScreen() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const signedIn = useSessionStore((s) => s.user !== null);
  const openAuth = useUiStore((s) => s.openAuth);
  const query = useQuery({
    queryKey: ['profiles', userId],
    queryFn: async ({ signal }) => readPublicProfile(await api<unknown>(`/api/profiles/${encodeURIComponent(userId)}`, { signal })),
    staleTime: CACHE_TTL_MS.profiles,
    // A 4xx (404 above all) is an answer, not a hiccup: only network errors and 5xx are retried.
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
  });
  const back = () => (location.key !== 'default' ? navigate(-1) : navigate('/'));
  const profile = query.data;

  return (
    <ModalPanel title={MESSAGES.profile_title}>
      {query.isPending ? (
        <div className="flex min-h-72 items-center justify-center text-brand-500" role="status" aria-label={MESSAGES.loading}>
          <Spinner className="size-8 border-[3px]" />
        </div>
      ) : !profile ? (
        <div className="flex min-h-72 flex-col items-center justify-center px-6 py-12 text-center">
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
        <div className="px-5 py-6 md:px-7">
          <div className="flex items-start gap-4">
            <button
              type="button"
              onClick={back}
              aria-label={MESSAGES.profile_back}
              className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-800 dark:text-slate-100"
            >
              <ArrowLeftIcon size={18} />
            </button>
            <Avatar url={profile.photoUrl} name={profile.username} size={76} />
            <div className="min-w-0 pt-1">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="truncate text-xl font-bold text-ink-900 dark:text-white">{profile.username}</h2>
                {profile.tier ? (
                  <span className="rounded-full bg-gradient-to-r from-brand-500 to-violet-brand px-2 py-0.5 text-[11px] font-bold text-white">
                    {profile.tier}
                  </span>
                ) : null}
              </div>
              {profile.createdAt ? (
                <p className="text-sm text-slate-500 dark:text-slate-400">
                  {MESSAGES.profile_member_since} {frDate(profile.createdAt)}
                </p>
              ) : null}
            </div>
          </div>
          {profile.bio ? (
            <section className="mt-6 rounded-2xl bg-slate-50 p-4 dark:bg-ink-800">
              <h3 className="mb-1 text-sm font-semibold text-slate-500 dark:text-slate-400">{MESSAGES.profile_about}</h3>
              <p className="text-[15px] whitespace-pre-line text-slate-700 dark:text-slate-200">{profile.bio}</p>
            </section>
          ) : null}
          <Button
            className="mt-5 w-full"
            onClick={() => {
              if (!signedIn) {
                toast.info(MESSAGES.contact_signed_out);
                openAuth('login');
              }
            }}
          >
            <ChatIcon size={18} />
            {MESSAGES.profile_send_message}
          </Button>
          <section className="mt-7">
            <h3 className="mb-3 font-bold text-ink-900 dark:text-white">{t('profile_posts_count', { count: profile.posts.length })}</h3>
            {profile.posts.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-slate-200 p-6 text-center text-sm text-slate-500 dark:border-white/10 dark:text-slate-400">
                {MESSAGES.profile_no_posts}
              </p>
            ) : (
              <ul className="grid grid-cols-2 gap-3 md:grid-cols-3">
                {profile.posts.map((post) => (
                  <li key={post.id} className="rounded-2xl p-3 ring-1 ring-slate-200 dark:ring-white/10">
                    <span
                      className="mb-2 inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold text-ink-900"
                      style={{ backgroundColor: MOOD_INFO[post.category].color }}
                    >
                      <span className="emoji">{MOOD_INFO[post.category].emoji}</span> {MOOD_INFO[post.category].label}
                    </span>
                    <p className="text-sm text-slate-700 dark:text-slate-300">{truncate(post.content, 80)}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </ModalPanel>
  );
}
