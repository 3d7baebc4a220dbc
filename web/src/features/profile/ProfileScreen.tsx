import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import {
  BIO_COUNTER_WARNING,
  BIO_MAX,
  MESSAGES,
  MINUTE,
  POST_LIFETIME_MS,
  PROFILE_PHOTO_MAX_BYTES,
  bioSchema,
  expiresIn,
  frDate,
  nextNicknameChangeAt,
  nicknameSchema,
  t,
} from '@moodmap/core';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { useSessionStore, type SessionUser } from '../auth/session-store.ts';
import { ApiError } from '../../lib/api.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import {
  ClockIcon,
  ImageIcon,
  LogoutIcon,
  MapIcon,
  PlusIcon,
  ShieldIcon,
  TrashIcon,
  UserIcon,
} from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import { TierBadge } from '../../ui/TierBadge.tsx';
import { PulseWallet } from '../pulse/PulseWallet.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { DeletePostButton } from '../posts/DeletePostButton.tsx';
import { firstImage } from '../posts/post-types.ts';
import { Avatar } from './Avatar.tsx';
import { InlineEditForm, useProfileFieldEdit } from './InlineEditor.tsx';
import { MemberSince, MoodBadge, PulseBadge, focusState } from './ProfileBits.tsx';
import {
  deleteProfilePhoto,
  profileKey,
  uploadProfilePhoto,
  usePublicProfile,
  useProfileWrite,
} from './profile-api.ts';
import { BlockedList } from '../moderation/BlockedList.tsx';
import { NoticesPanel } from '../moderation/NoticesPanel.tsx';
import { PushDevices } from '../push/PushDevices.tsx';
import { DataExport } from './DataExport.tsx';
import { AccountDeletion } from './AccountDeletion.tsx';
import { TermsLink } from '../terms/TermsLink.tsx';

const ACTION =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-gradient-to-r from-brand-500 to-violet-brand px-5 text-sm font-semibold text-white shadow-md shadow-brand-500/25 transition hover:brightness-105 active:brightness-95';
const SMALL =
  'inline-flex min-h-9 items-center justify-center gap-1.5 rounded-xl px-3 text-xs font-semibold text-brand-700 transition hover:bg-brand-50 disabled:opacity-50 dark:text-brand-300 dark:hover:bg-white/5';
const INPUT =
  'w-full rounded-xl border border-slate-200 bg-white px-3.5 py-2.5 text-[15px] text-ink-900 outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 dark:border-white/10 dark:bg-ink-800 dark:text-white';

/** Profile photos: JPEG, PNG, GIF and WebP only. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** The profile is refetched 1 s after the upload. */
export const PHOTO_REFETCH_MS = 1_000;

/** The client's own check of a photo before sending it; the server checks again (magic number). */
export function photoProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return MESSAGES.image_type_invalid;
  if (file.size > PROFILE_PHOTO_MAX_BYTES) return MESSAGES.image_too_large_5mb;
  return null;
}

/** A failed photo upload's text: permissions, expired session, else the server's text or the generic one. */
function photoError(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === 0) return MESSAGES.profile_photo_failed;
  if (error.status === 401) return MESSAGES.session_expired;
  if (error.status === 403) return MESSAGES.profile_photo_permission;
  return error.message || MESSAGES.profile_photo_failed;
}

/** /profile — own profile. */
export function ProfileScreen() {
  const user = useSessionStore((s) => s.user);
  const signOut = useSessionStore((s) => s.signOut);
  const navigate = useNavigate();

  if (!user) {
    return (
      <ModalPanel title={MESSAGES.nav_profile}>
        <SignedOutNotice message={MESSAGES.profile_signed_out} icon={<UserIcon size={28} />} />
      </ModalPanel>
    );
  }

  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');

  return (
    <ModalPanel title={MESSAGES.nav_profile}>
      <div className="px-5 py-6 md:px-7" data-testid="own-profile">
        <div className="flex items-start gap-4">
          <PhotoEditor user={user} />
          <div className="min-w-0 flex-1">
            <NicknameEditor user={user} />
            {fullName ? (
              <p className="truncate text-sm font-medium text-slate-700 dark:text-slate-300">{fullName}</p>
            ) : null}
            <p className="truncate text-sm text-slate-500 dark:text-slate-400" data-testid="profile-email">
              {user.email}
            </p>
            <MemberSince createdAt={user.createdAt} className="mt-0.5 text-xs text-slate-500 dark:text-slate-400" />
          </div>
        </div>
        <BioEditor user={user} />
        <div className="mt-5">
          <PulseWallet />
        </div>
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          {/* The admin account sees 'Admin' (to /admin) instead of 'Publier' (to /create). */}
          {user.isAdmin ? (
            <Link to="/admin" className={ACTION} data-testid="profile-admin">
              <ShieldIcon size={18} />
              {MESSAGES.profile_admin}
            </Link>
          ) : (
            <Link to="/create" className={ACTION} data-testid="profile-create">
              <PlusIcon size={18} />
              {MESSAGES.nav_create}
            </Link>
          )}
          <Button
            variant="secondary"
            data-testid="sign-out"
            onClick={() => {
              // The local sign-out is immediate; the server's revocation finishes in the background.
              void signOut();
              void navigate('/');
            }}
          >
            <LogoutIcon size={18} />
            {MESSAGES.profile_sign_out}
          </Button>
        </div>
        <MyPosts userId={user.id} />
        <NoticesPanel />
        <PushDevices />
        <BlockedList />
        <DataExport />
        <AccountDeletion />
        <p className="text-center text-xs text-slate-500 dark:text-slate-400">
          <TermsLink />
        </p>
      </div>
    </ModalPanel>
  );
}

type PhotoState = 'idle' | 'uploading' | 'done';

function PhotoEditor({ user }: { user: SessionUser }) {
  const reloadUser = useSessionStore((s) => s.reloadUser);
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<PhotoState>('idle');
  const photoUpload = useProfileWrite(uploadProfilePhoto);
  const photoRemove = useProfileWrite(deleteProfilePhoto);
  const removing = photoRemove.isPending;
  const photo = user.profilePhotoUrl ?? user.avatarUrl ?? null;

  useEffect(() => {
    if (state !== 'done') return;
    const timer = setTimeout(() => setState('idle'), 3_000);
    return () => clearTimeout(timer);
  }, [state]);

  const upload = (file: File) => {
    const problem = photoProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    setState('uploading');
    photoUpload.mutate(file, {
      onSuccess: () => {
        setState('done');
        toast.success(MESSAGES.profile_photo_success);
        setTimeout(() => void reloadUser(), PHOTO_REFETCH_MS);
      },
      onError: (error) => {
        setState('idle');
        toast.error(photoError(error));
      },
    });
  };

  const remove = () => {
    photoRemove.mutate(undefined, {
      onSuccess: () => {
        toast.success(MESSAGES.profile_photo_removed);
        void reloadUser();
      },
      onError: (error) => toast.error(photoError(error)),
    });
  };

  return (
    <div className="flex shrink-0 flex-col items-center gap-1.5" data-testid="profile-photo" data-state={state}>
      <div className="relative">
        <Avatar key={photo ?? 'none'} url={photo} name={user.nickname} size={84} />
        {state === 'uploading' ? (
          <span
            className="absolute inset-0 flex items-center justify-center rounded-full bg-ink-900/50 text-white"
            role="status"
            aria-label={MESSAGES.profile_photo_uploading}
          >
            <Spinner className="size-6" />
          </span>
        ) : null}
      </div>
      <input
        ref={input}
        type="file"
        accept={PHOTO_TYPES.join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="profile-photo-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) upload(file);
        }}
      />
      <button
        type="button"
        className={SMALL}
        disabled={state === 'uploading'}
        onClick={() => input.current?.click()}
        data-testid="profile-photo-change"
      >
        <ImageIcon size={15} />
        {state === 'uploading'
          ? MESSAGES.profile_photo_uploading
          : state === 'done'
            ? MESSAGES.profile_photo_done
            : MESSAGES.profile_photo_change}
      </button>
      {photo && state !== 'uploading' ? (
        <button
          type="button"
          className={`${SMALL} text-rose-600 hover:bg-rose-50 dark:text-rose-300`}
          disabled={removing}
          onClick={remove}
          data-testid="profile-photo-remove"
        >
          <TrashIcon size={14} />
          {MESSAGES.profile_photo_remove}
        </button>
      ) : null}
    </div>
  );
}

function NicknameEditor({ user }: { user: SessionUser }) {
  const reloadUser = useSessionStore((s) => s.reloadUser);
  const { editing, value, setValue, error, setError, saving, open, close, send } = useProfileFieldEdit(
    user.nickname,
    MESSAGES.nickname_success,
  );
  const nextAllowed = nextNicknameChangeAt(user.lastUsernameChange);

  const save = () => {
    const parsed = nicknameSchema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.nickname_failed);
      return;
    }
    if (parsed.data === user.nickname) {
      setError(MESSAGES.nickname_unchanged);
      return;
    }
    send({ nickname: parsed.data }, (err) => {
      if (err instanceof ApiError && err.code === 'nickname_blocked') {
        // Changed elsewhere meanwhile: the fresh user carries the date of that change.
        void reloadUser();
        close();
      }
      toast.error(
        err instanceof ApiError && err.status !== 0 && err.status < 500 ? err.message : MESSAGES.nickname_failed,
      );
    });
  };

  if (editing) {
    return (
      <InlineEditForm
        name="nickname"
        label={MESSAGES.nickname_label}
        className="mb-1"
        saving={saving}
        onSave={save}
        onCancel={close}
      >
        <input
          id="nickname-input"
          className={INPUT}
          value={value}
          maxLength={80}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setValue(event.target.value)}
          data-testid="nickname-input"
        />
        {error ? (
          <p
            role="alert"
            className="mt-1 text-xs font-medium text-rose-600 dark:text-rose-300"
            data-testid="nickname-error"
          >
            {error}
          </p>
        ) : null}
      </InlineEditForm>
    );
  }

  return (
    <div className="mb-0.5">
      <div className="flex flex-wrap items-center gap-2">
        <p className="truncate text-xl font-bold text-ink-900 dark:text-white" data-testid="profile-nickname">
          {user.nickname}
        </p>
        <TierBadge flags={user} place="page" />
        {nextAllowed ? null : (
          <button type="button" className={SMALL} onClick={() => open(user.nickname)} data-testid="nickname-edit">
            {MESSAGES.nickname_edit}
          </button>
        )}
      </div>
      {nextAllowed ? (
        <div
          className="mt-1 rounded-xl bg-amber-50 px-3 py-2 text-xs text-amber-800 dark:bg-amber-500/10 dark:text-amber-200"
          data-testid="nickname-blocked"
        >
          <p className="font-semibold">{MESSAGES.nickname_blocked}</p>
          <p data-testid="nickname-next-date">{t('nickname_next_change', { date: frDate(nextAllowed) })}</p>
        </div>
      ) : null}
    </div>
  );
}

function BioEditor({ user }: { user: SessionUser }) {
  const { editing, value, setValue, error, setError, saving, open, close, send } = useProfileFieldEdit(
    user.bio ?? '',
    MESSAGES.bio_success,
  );
  const length = Array.from(value).length;

  const save = () => {
    const parsed = bioSchema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.bio_failed);
      return;
    }
    // Empty is stored as null: the bio is removed.
    send({ bio: parsed.data }, (err) =>
      toast.error(err instanceof ApiError && err.status === 400 ? err.message : MESSAGES.bio_failed),
    );
  };

  if (editing) {
    return (
      <InlineEditForm
        name="bio"
        label={MESSAGES.bio_label}
        className="mt-5"
        saving={saving}
        onSave={save}
        onCancel={close}
      >
        <textarea
          id="bio-input"
          className={`${INPUT} min-h-28 resize-y`}
          value={value}
          placeholder={MESSAGES.bio_placeholder}
          onChange={(event) => setValue(event.target.value)}
          data-testid="bio-input"
        />
        <div className="mt-1 flex items-start justify-between gap-3">
          {error ? (
            <p role="alert" className="text-xs font-medium text-rose-600 dark:text-rose-300" data-testid="bio-error">
              {error}
            </p>
          ) : (
            <span />
          )}
          <span
            data-testid="bio-counter"
            data-warning={length > BIO_COUNTER_WARNING ? 'true' : undefined}
            className={`shrink-0 text-xs tabular-nums ${length > BIO_COUNTER_WARNING ? 'font-semibold text-red-600 dark:text-red-400' : 'text-slate-500 dark:text-slate-400'}`}
          >
            {length}/{BIO_MAX}
          </span>
        </div>
      </InlineEditForm>
    );
  }

  return (
    <section className="mt-5 rounded-2xl bg-slate-50 p-4 dark:bg-ink-800">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-500 dark:text-slate-400">{MESSAGES.profile_about}</h3>
        <button type="button" className={SMALL} onClick={() => open(user.bio ?? '')} data-testid="bio-edit">
          {user.bio ? MESSAGES.bio_edit : MESSAGES.bio_add}
        </button>
      </div>
      {user.bio ? (
        <p
          className="mt-1 text-[15px] break-words whitespace-pre-line text-slate-700 dark:text-slate-300"
          data-testid="profile-bio"
        >
          {user.bio}
        </p>
      ) : null}
    </section>
  );
}

function MyPosts({ userId }: { userId: string }) {
  // Always fresh: one's own posts change from this very app (create, delete, expiry).
  const query = usePublicProfile(userId, 0);
  const client = useQueryClient();
  const navigate = useNavigate();
  const posts = query.data?.posts ?? [];
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE);
    return () => clearInterval(timer);
  }, []);

  return (
    <section className="mt-8" data-testid="my-posts">
      {query.isPending ? null : (
        <h3 className="mb-3 font-bold text-ink-900 dark:text-white" data-testid="my-posts-title">
          {t('profile_posts_count', { count: posts.length })}
        </h3>
      )}
      {query.isPending ? (
        <div className="flex justify-center py-6 text-brand-500" role="status" aria-label={MESSAGES.loading}>
          <Spinner className="size-6" />
        </div>
      ) : posts.length === 0 ? (
        <div
          className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-200 p-6 text-center dark:border-white/10"
          data-testid="my-posts-empty"
        >
          <p className="text-sm text-slate-500 dark:text-slate-400">{MESSAGES.profile_no_posts}</p>
          <Link to="/create" className={ACTION}>
            <PlusIcon size={18} />
            {MESSAGES.profile_create_post}
          </Link>
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {posts.map((post) => {
            const image = firstImage(post);
            return (
              <li
                key={post.id}
                className="rounded-2xl p-3 ring-1 ring-slate-200 dark:ring-white/10"
                data-testid="my-post"
                data-post-id={post.id}
              >
                <div className="flex flex-wrap items-center gap-2">
                  <MoodBadge mood={post.category} />
                  {post.hasPulseEffect ? <PulseBadge /> : null}
                  <span className="ml-auto">
                    <DeletePostButton
                      postId={post.id}
                      compact
                      onDeleted={() =>
                        client.setQueryData(profileKey(userId), (old: typeof query.data) =>
                          old ? { ...old, posts: old.posts.filter((p) => p.id !== post.id) } : old,
                        )
                      }
                    />
                  </span>
                </div>
                {image ? (
                  <img src={image} alt="" loading="lazy" className="mt-3 max-h-56 w-full rounded-xl object-cover" />
                ) : null}
                {!post.isVoiceOnly && post.content ? (
                  <p className="mt-2 text-[15px] break-words whitespace-pre-line text-slate-700 dark:text-slate-300">
                    {post.content}
                  </p>
                ) : null}
                <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-slate-500 dark:text-slate-400">
                  <span data-testid="my-post-date">{frDate(post.createdAt)}</span>
                  <span className="inline-flex items-center gap-1" data-testid="my-post-expires">
                    <ClockIcon size={14} />
                    {expiresIn(post.createdAt, POST_LIFETIME_MS, now)}
                  </span>
                  <button
                    type="button"
                    className={`${SMALL} ml-auto`}
                    onClick={() => navigate('/', focusState(post.id))}
                    data-testid="my-post-see-on-map"
                  >
                    <MapIcon size={15} />
                    {MESSAGES.see_on_map}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
