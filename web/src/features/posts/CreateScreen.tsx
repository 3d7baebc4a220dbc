import { type FormEvent, Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { LAND_CHECK_CACHE_MS, MAP, MESSAGES, MOOD_INFO, type Mood } from '@moodmap/core';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { type SessionUser, useSessionStore } from '../auth/session-store.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { FormError } from '../../ui/Field.tsx';
import { CheckCircleIcon, ClockIcon, PinIcon, PlusIcon, XCircleIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import { ActivePostNotice } from './ActivePostNotice.tsx';
import { ImageField } from './create/ImageField.tsx';
import type { PickedLocation } from './create/LocationPicker.tsx';
import { MessageField } from './create/MessageField.tsx';
import { MoodPicker } from './create/MoodPicker.tsx';
import { pulseCreditedIn } from '../pulse/PulseReturnPage.tsx';
import { PulseOption } from './create/PulseOption.tsx';
import { ApproximateOption } from './create/ApproximateOption.tsx';
import { useApproximatePreference } from './create/approximate-preference.ts';
import { type SubmitInput, type UploadMemo, submitPost } from './create/submit.ts';
import { useVoiceRecorder } from './create/use-voice-recorder.ts';
import { validateCreateForm } from './create/validation.ts';
import { VoiceRecorder } from './create/VoiceRecorder.tsx';
import { checkLand, fetchMyActivePost } from './posts-api.ts';
import { MY_ACTIVE_POST_KEY, addPostToCache } from './posts-query.ts';

const LocationPicker = lazy(() => import('./create/LocationPicker.tsx'));

/** Navigation state that asks the map to centre on a post and open it. */
export interface FocusPostState {
  focusPostId: string;
}

/** /create: a new post. */
export function CreateScreen() {
  const user = useSessionStore((s) => s.user);
  return (
    <ModalPanel title={MESSAGES.profile_create_post}>
      {user ? (
        <CreateGate user={user} />
      ) : (
        <SignedOutNotice message={MESSAGES.create_signed_out} icon={<PlusIcon size={28} />} />
      )}
    </ModalPanel>
  );
}

/** The active-post check on load (docs/product.md, Posts): one live post at a time. */
function CreateGate({ user }: { user: SessionUser }) {
  const active = useQuery({
    queryKey: MY_ACTIVE_POST_KEY,
    queryFn: ({ signal }) => fetchMyActivePost(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    retry: 1,
  });
  if (active.isPending) {
    return (
      <div
        className="flex min-h-72 items-center justify-center text-brand-500"
        role="status"
        aria-label={MESSAGES.loading}
      >
        <Spinner className="size-8 border-[3px]" />
      </div>
    );
  }
  // When the check itself fails, the form shows: the server refuses a second post anyway.
  if (active.data) return <ActivePostNotice post={active.data} />;
  return <CreateForm user={user} />;
}

type LandState = 'checking' | 'land' | 'sea' | 'unknown';

function useLandCheck(location: PickedLocation | null): LandState {
  const lat = location ? location.latitude.toFixed(4) : null;
  const lon = location ? location.longitude.toFixed(4) : null;
  const query = useQuery({
    queryKey: ['geo', 'land', lat, lon],
    queryFn: ({ signal }) => checkLand(Number(lat), Number(lon), signal),
    enabled: lat !== null && lon !== null,
    staleTime: LAND_CHECK_CACHE_MS,
    gcTime: LAND_CHECK_CACHE_MS,
    retry: 1,
  });
  if (!location) return 'unknown';
  if (query.isPending && query.fetchStatus !== 'idle') return 'checking';
  if (query.isSuccess) return query.data ? 'land' : 'sea';
  return 'unknown';
}

function CreateForm({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [mood, setMood] = useState<Mood | null>(null);
  const [content, setContent] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [location, setLocation] = useState<PickedLocation | null>({ ...MAP.pickerInitial });
  const routeState: unknown = useLocation().state;
  // Back from a same-window (mobile) Pulse checkout that credited: the toggle starts on.
  const [usePulse, setUsePulse] = useState(() => pulseCreditedIn(routeState));
  const [error, setError] = useState<string | null>(null);
  const [approximate, setApproximate] = useApproximatePreference();
  const recorder = useVoiceRecorder();
  const uploads = useRef<UploadMemo>({});
  const errorRef = useRef<HTMLDivElement>(null);
  const land = useLandCheck(location);
  const credits = user.pulseCredits ?? 0;
  const recordingBusy = recorder.status === 'recording' || recorder.status === 'requesting';

  const showError = (message: string) => {
    setError(message);
    requestAnimationFrame(() => errorRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };

  const create = useMutation({
    mutationFn: (input: SubmitInput) => submitPost(input, uploads.current),
    onSuccess: (result) => {
      if (!result.ok) {
        showError(result.message);
        // Another tab published meanwhile: the page switches to the active-post notice.
        if (result.code === 'post_active_exists') void queryClient.invalidateQueries({ queryKey: MY_ACTIVE_POST_KEY });
        return;
      }
      addPostToCache(queryClient, result.post);
      void navigate('/', { state: { focusPostId: result.post.id } satisfies FocusPostState });
      void queryClient.invalidateQueries({ queryKey: MY_ACTIVE_POST_KEY });
    },
  });
  const submitting = create.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting || recordingBusy) return;
    const voice = recorder.status === 'recorded' ? recorder.recording : null;
    const problem = validateCreateForm({
      category: mood,
      content,
      hasImage: image !== null,
      hasVoice: voice !== null,
      location,
      onLand: land === 'sea' ? false : null,
    });
    if (problem || !mood || !location) {
      showError(problem ?? MESSAGES.category_invalid);
      return;
    }
    setError(null);
    create.mutate({
      category: mood,
      content,
      image,
      voice: voice?.blob ?? null,
      location,
      usePulseEffect: usePulse && credits >= 1,
      approximate,
    });
  };

  // An error is about what was sent: any change to the form clears it.
  useEffect(() => {
    setError(null);
  }, [mood, content, image, location, recorder.recording]);

  const ringColor = mood ? MOOD_INFO[mood].color : MAP.clusterColor;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6 px-5 pt-6 md:px-7" data-testid="create-form">
      <MoodPicker value={mood} onChange={setMood} />
      <MessageField value={content} onChange={setContent} />
      <div className="grid gap-5 md:grid-cols-2">
        <ImageField file={image} onChange={setImage} />
        <VoiceRecorder recorder={recorder} />
      </div>

      <section className="space-y-2">
        <div className="flex items-baseline justify-between gap-2">
          <h2 className="text-sm font-semibold text-slate-700 dark:text-slate-300">{MESSAGES.create_location_label}</h2>
          <span className="text-xs text-slate-500 dark:text-slate-400">{MESSAGES.create_location_hint}</span>
        </div>
        <Suspense
          fallback={
            <div className="flex h-64 items-center justify-center rounded-2xl bg-slate-100 text-brand-500 md:h-72 dark:bg-ink-800">
              <Spinner className="size-6" />
            </div>
          }
        >
          <LocationPicker value={location} onChange={setLocation} ringColor={ringColor} />
        </Suspense>
        <LandStatus state={land} location={location} />
      </section>

      <ApproximateOption enabled={approximate} onToggle={setApproximate} />

      <PulseOption signedIn credits={credits} enabled={usePulse} onToggle={setUsePulse} />

      <div
        className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 rounded-2xl bg-slate-50 px-4 py-3 text-sm font-medium text-slate-600 dark:bg-ink-800 dark:text-slate-300"
        data-testid="create-info"
      >
        <span className="inline-flex items-center gap-1.5">
          <ClockIcon size={16} className="text-brand-600 dark:text-brand-300" /> {MESSAGES.create_duration}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <PinIcon size={16} className="text-brand-600 dark:text-brand-300" /> {MESSAGES.create_limit}
        </span>
      </div>

      <div className="sticky bottom-0 z-10 -mx-5 space-y-3 bg-gradient-to-t from-white via-white to-white/0 px-5 pt-3 pb-5 md:-mx-7 md:px-7 dark:from-ink-900 dark:via-ink-900 dark:to-ink-900/0">
        <div ref={errorRef} data-testid="create-error">
          <FormError>{error}</FormError>
        </div>
        <Button
          type="submit"
          className="w-full text-base"
          disabled={submitting || recordingBusy}
          aria-busy={submitting}
          data-testid="create-submit"
        >
          {submitting ? (
            <>
              <Spinner /> {MESSAGES.create_submitting}
            </>
          ) : (
            MESSAGES.nav_create
          )}
        </Button>
      </div>
    </form>
  );
}

function LandStatus({ state, location }: { state: LandState; location: PickedLocation | null }) {
  if (!location) return null;
  const coords = `${location.latitude.toFixed(4)}, ${location.longitude.toFixed(4)}`;
  return (
    <p
      className="flex min-h-5 items-center gap-1.5 text-xs font-medium"
      data-testid="land-status"
      data-state={state}
      aria-live="polite"
    >
      {state === 'checking' ? (
        <>
          <Spinner className="size-3.5 text-brand-500" />
          <span className="text-slate-500 dark:text-slate-400">{MESSAGES.land_checking}</span>
        </>
      ) : state === 'sea' ? (
        <>
          <XCircleIcon size={16} className="shrink-0 text-rose-500" />
          <span className="text-rose-600 dark:text-rose-300">{MESSAGES.not_on_land}</span>
        </>
      ) : (
        <>
          {state === 'land' ? (
            <CheckCircleIcon size={16} className="shrink-0 text-emerald-500" />
          ) : (
            <PinIcon size={16} className="shrink-0 text-slate-400" />
          )}
          <span className="text-slate-600 dark:text-slate-300">
            {state === 'land' ? `${MESSAGES.land_ok} · ` : ''}
            <span className="tabular-nums">{coords}</span>
          </span>
        </>
      )}
    </p>
  );
}
