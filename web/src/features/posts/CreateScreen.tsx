import { useState } from 'react';
import { MESSAGES, MOODS, MOOD_INFO, type Mood } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { ClockIcon, PlusIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';

/** /create (spec §2 "Create publication"). */
export function CreateScreen() {
  const signedIn = useSessionStore((s) => s.user !== null);
  const [mood, setMood] = useState<Mood | null>(null);
  return (
    <ModalPanel title={MESSAGES.profile_create_post}>
      {signedIn ? (
        <div className="space-y-6 px-5 py-6 md:px-7">
          <fieldset>
            <legend className="mb-3 text-sm font-semibold text-slate-700 dark:text-slate-300">{MESSAGES.create_mood_label}</legend>
            <div className="grid grid-cols-5 gap-2">
              {MOODS.map((m) => (
                <label
                  key={m}
                  className="flex cursor-pointer flex-col items-center gap-1 rounded-2xl border-2 px-1 py-3 text-xs font-semibold transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
                  style={{ borderColor: mood === m ? MOOD_INFO[m].color : 'transparent', backgroundColor: `${MOOD_INFO[m].color}26` }}
                >
                  <input type="radio" name="mood" className="sr-only" checked={mood === m} onChange={() => setMood(m)} />
                  <span className="emoji text-2xl" aria-hidden="true">
                    {MOOD_INFO[m].emoji}
                  </span>
                  <span className="text-ink-800 dark:text-slate-200">{MOOD_INFO[m].label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap items-center gap-4 rounded-2xl bg-slate-50 px-4 py-3 text-sm text-slate-600 dark:bg-ink-800 dark:text-slate-300">
            <span className="inline-flex items-center gap-1.5">
              <ClockIcon size={16} /> {MESSAGES.create_duration}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <PlusIcon size={16} /> {MESSAGES.create_limit}
            </span>
          </div>
        </div>
      ) : (
        <SignedOutNotice message={MESSAGES.create_signed_out} icon={<PlusIcon size={28} />} />
      )}
    </ModalPanel>
  );
}
