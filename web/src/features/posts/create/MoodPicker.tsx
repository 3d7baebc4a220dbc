import { MESSAGES, MOODS, MOOD_INFO, type Mood } from '@moodmap/core';

/** The five moods, as big radio tiles in the mood colours. */
export function MoodPicker({ value, onChange }: { value: Mood | null; onChange: (mood: Mood) => void }) {
  return (
    <fieldset data-testid="create-moods">
      <legend className="mb-3 text-sm font-semibold text-slate-700 dark:text-slate-300">
        {MESSAGES.create_mood_label}
      </legend>
      <div className="grid grid-cols-5 gap-1 min-[400px]:gap-1.5 md:gap-2.5">
        {MOODS.map((m) => {
          const info = MOOD_INFO[m];
          const checked = value === m;
          return (
            <label
              key={m}
              data-testid={`create-mood-${m}`}
              className={`flex min-w-0 cursor-pointer flex-col items-center gap-1 rounded-2xl border-2 px-0.5 py-2.5 text-center text-[10.5px] leading-tight font-semibold tracking-tight min-[400px]:text-[11px] md:tracking-normal transition select-none has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 md:py-3 md:text-xs ${checked ? 'scale-[1.03] shadow-md' : 'hover:scale-[1.02]'}`}
              style={{
                borderColor: checked ? info.color : 'transparent',
                backgroundColor: checked ? `${info.color}40` : `${info.color}1f`,
              }}
            >
              <input
                type="radio"
                name="mood"
                value={m}
                className="sr-only"
                checked={checked}
                onChange={() => onChange(m)}
              />
              <span className="emoji text-2xl md:text-3xl" aria-hidden="true">
                {info.emoji}
              </span>
              <span className="max-w-full text-ink-800 [overflow-wrap:anywhere] dark:text-slate-100">{info.label}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
