import { useEffect, useId, useRef, useState } from 'react';
import { SHELL_MESSAGES, MOODS, MOOD_INFO, type Mood } from '@moodmap/core';
import { CheckIcon, ChevronDownIcon } from '../../ui/icons.tsx';
import { useMoodFilterStore } from './mood-filter-store.ts';

/** Mood filter dropdown of the top bar. */
export function MoodFilter() {
  const selected = useMoodFilterStore((s) => s.selected);
  const toggle = useMoodFilterStore((s) => s.toggle);
  const selectAll = useMoodFilterStore((s) => s.selectAll);
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const hintId = useId();
  const all = selected.length === MOODS.length;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  return (
    <div ref={rootRef} className="relative" data-testid="mood-filter">
      <button
        ref={buttonRef}
        type="button"
        aria-label={SHELL_MESSAGES.mood_filter}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className={`flex h-11 items-center gap-1.5 rounded-xl px-2 transition md:gap-2 md:px-3 ${open ? 'bg-brand-500/10 ring-2 ring-brand-500/40' : 'hover:bg-black/5 dark:hover:bg-white/5'}`}
      >
        <span className="flex -space-x-2 md:-space-x-1.5" aria-hidden="true">
          {selected.slice(0, 3).map((m) => (
            <span
              key={m}
              className="emoji flex size-6 items-center justify-center rounded-full text-xs ring-2 ring-white md:size-7 md:text-sm dark:ring-ink-800"
              style={{ backgroundColor: `${MOOD_INFO[m].color}55` }}
            >
              {MOOD_INFO[m].emoji}
            </span>
          ))}
        </span>
        <span className="hidden text-sm font-semibold text-ink-800 lg:inline dark:text-slate-100">
          {SHELL_MESSAGES.mood_filter}
        </span>
        {!all ? (
          <span
            className="rounded-full bg-brand-500 px-1.5 text-[11px] leading-5 font-bold text-white"
            aria-hidden="true"
          >
            {selected.length}/{MOODS.length}
          </span>
        ) : null}
        <ChevronDownIcon
          size={16}
          className={`hidden text-slate-500 transition md:block ${open ? 'rotate-180' : ''}`}
        />
      </button>

      {open ? (
        <fieldset
          id={panelId}
          aria-label={SHELL_MESSAGES.mood_filter}
          aria-describedby={hintId}
          className="absolute top-[calc(100%+0.6rem)] right-0 z-30 w-64 min-w-0 animate-pop-in rounded-2xl bg-white p-2 shadow-2xl ring-1 ring-black/5 dark:bg-ink-800 dark:ring-white/10"
        >
          <p className="px-2.5 pt-1.5 pb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
            {SHELL_MESSAGES.mood_filter}
          </p>
          <ul className="space-y-0.5">
            {MOODS.map((mood) => (
              <li key={mood}>
                <MoodOption mood={mood} checked={selected.includes(mood)} onToggle={() => toggle(mood)} />
              </li>
            ))}
          </ul>
          <div className="mt-1.5 border-t border-slate-100 px-2.5 pt-2 pb-1 dark:border-white/5">
            <button
              type="button"
              onClick={selectAll}
              disabled={all}
              className="rounded-md text-sm font-semibold text-brand-600 hover:underline disabled:text-slate-400 disabled:no-underline dark:text-brand-300 dark:disabled:text-slate-500"
            >
              {SHELL_MESSAGES.mood_filter_all}
            </button>
            <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {SHELL_MESSAGES.mood_filter_last_hint}
            </p>
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}

/** One mood's checkbox: its emoji on its colour, its name, and a tick when shown. */
function MoodOption({ mood, checked, onToggle }: { mood: Mood; checked: boolean; onToggle: () => void }) {
  const info = MOOD_INFO[mood];
  return (
    <label
      className="flex cursor-pointer items-center gap-3 rounded-xl px-2.5 py-2 transition hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 dark:hover:bg-white/5"
      data-testid={`mood-option-${mood}`}
    >
      <input
        type="checkbox"
        className="sr-only"
        checked={checked}
        onChange={onToggle}
        aria-label={`${info.emoji} ${info.label}`}
      />
      <span
        className="emoji flex size-9 items-center justify-center rounded-xl text-lg"
        style={{ backgroundColor: `${info.color}40`, boxShadow: `inset 0 0 0 2px ${info.color}` }}
        aria-hidden="true"
      >
        {info.emoji}
      </span>
      <span
        className={`flex-1 text-sm font-medium ${checked ? 'text-ink-900 dark:text-white' : 'text-slate-500 dark:text-slate-400'}`}
      >
        {info.label}
      </span>
      <span
        className={`flex size-5 items-center justify-center rounded-md border-2 transition ${checked ? 'border-transparent text-ink-900' : 'border-slate-300 dark:border-slate-600'}`}
        style={checked ? { backgroundColor: info.color } : undefined}
        aria-hidden="true"
      >
        {checked ? <CheckIcon size={14} strokeWidth={3} /> : null}
      </span>
    </label>
  );
}
