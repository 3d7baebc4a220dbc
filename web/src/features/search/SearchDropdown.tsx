/** What the top bar's results and the picker's place list share: the panel, its headings, its status line. */
import type { KeyboardEvent, ReactNode, Ref } from 'react';
import { SHELL_MESSAGES } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';

export function SearchDropdown({
  ref,
  testId,
  state,
  className = '',
  children,
}: {
  ref?: Ref<HTMLDivElement>;
  testId: string;
  state: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      ref={ref}
      className={`absolute inset-x-0 top-[calc(100%+0.5rem)] z-30 animate-pop-in overflow-y-auto overscroll-contain rounded-2xl bg-white p-1.5 shadow-2xl ring-1 ring-black/5 dark:bg-ink-800 dark:ring-white/10 ${className}`}
      data-testid={testId}
      data-state={state}
    >
      {children}
    </div>
  );
}

/** A section title inside a results dropdown ('Lieux', 'Publications'). */
export function ResultsHeading({ id, children }: { id: string; children: string }) {
  return (
    <p
      id={id}
      className="px-2.5 pt-2 pb-1 text-[11px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400"
    >
      {children}
    </p>
  );
}

/** The line shown instead of options: searching, failed, or nothing found. */
export function SearchStatus({
  state,
  text,
  testIdPrefix,
}: {
  state: 'loading' | 'error' | 'empty' | null;
  text: string;
  testIdPrefix: string;
}) {
  if (state === 'loading') {
    return (
      <p className="flex items-center gap-2 px-3 py-3 text-sm text-slate-500 dark:text-slate-400" role="status">
        <Spinner className="size-4 text-brand-500" /> {SHELL_MESSAGES.search_searching}
      </p>
    );
  }
  if (state === 'error') {
    return (
      <p
        className="px-3 py-3 text-sm text-rose-600 dark:text-rose-300"
        role="alert"
        data-testid={`${testIdPrefix}-error`}
      >
        {text}
      </p>
    );
  }
  if (state === 'empty') {
    return (
      <p
        className="px-3 py-3 text-sm break-words text-slate-600 dark:text-slate-300"
        role="status"
        data-testid={`${testIdPrefix}-empty`}
      >
        {text}
      </p>
    );
  }
  return null;
}

/**
 * One option of a results list: hovering highlights it, a press picks it without taking the
 * focus from the box (so the keyboard keeps working). The box's arrows and Enter drive the list;
 * an option focused by assistive technology picks itself with Enter or Space.
 */
export function SearchOption({
  id,
  active,
  dimmed,
  testId,
  data,
  onHover,
  onPick,
  children,
}: {
  id: string;
  active: boolean;
  dimmed: boolean;
  testId: string;
  /** `data-*` attributes that name what the option stands for (a post's or a place's id). */
  data: Record<`data-${string}`, string>;
  onHover: () => void;
  onPick: () => void;
  children: ReactNode;
}) {
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      data-testid={testId}
      {...data}
      onMouseDown={(e) => e.preventDefault()}
      onMouseEnter={onHover}
      onClick={onPick}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        onPick();
      }}
      className={`flex cursor-pointer items-center gap-3 rounded-xl px-2.5 py-2 transition ${active ? 'bg-brand-50 dark:bg-white/10' : 'hover:bg-slate-50 dark:hover:bg-white/5'} ${dimmed ? 'opacity-60' : ''}`}
    >
      {children}
    </div>
  );
}

/** The text box of a search whose results list opens under it (ARIA 1.2 combobox). */
export function ComboboxInput({
  ref,
  id,
  expanded,
  controls,
  activeDescendant,
  value,
  maxLength,
  placeholder,
  testId,
  className,
  onValue,
  onOpen,
  onKeyDown,
}: {
  ref: Ref<HTMLInputElement>;
  id: string;
  expanded: boolean;
  controls: string;
  activeDescendant: string | undefined;
  value: string;
  maxLength: number;
  placeholder: string;
  testId: string;
  className: string;
  onValue: (value: string) => void;
  onOpen: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <input
      ref={ref}
      id={id}
      type="search"
      role="combobox"
      aria-expanded={expanded}
      aria-controls={controls}
      aria-autocomplete="list"
      aria-activedescendant={activeDescendant}
      value={value}
      maxLength={maxLength}
      onChange={(e) => {
        onValue(e.target.value);
        onOpen();
      }}
      onFocus={onOpen}
      onKeyDown={onKeyDown}
      placeholder={placeholder}
      autoComplete="off"
      enterKeyHint="search"
      data-testid={testId}
      className={className}
    />
  );
}
