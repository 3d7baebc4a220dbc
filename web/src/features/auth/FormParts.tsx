/** What the auth forms share: the submit button with its busy state, the line that switches mode, typing that clears the error. */
import type { ChangeEvent, ReactNode } from 'react';
import { Button, Spinner } from '../../ui/Button.tsx';
import { LinkButton } from './LinkButton.tsx';

/** A field's onChange that stores the text and clears the form's error, which no longer applies. */
export function typing(set: (value: string) => void, clearError: (error: null) => void) {
  return (event: ChangeEvent<HTMLInputElement>) => {
    set(event.target.value);
    clearError(null);
  };
}

export function SubmitButton({
  busy,
  label,
  busyLabel,
  icon = null,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  icon?: ReactNode;
}) {
  return (
    <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
      {busy ? <Spinner /> : icon}
      {busy ? busyLabel : label}
    </Button>
  );
}

/** 'Pas encore de compte ? S'inscrire' and the like, under the submit button. */
export function SwitchMode({ question, label, onClick }: { question?: string; label: string; onClick: () => void }) {
  return (
    <p className="text-center text-sm text-slate-600 dark:text-slate-400">
      {question ? <>{question} </> : null}
      <LinkButton onClick={onClick}>{label}</LinkButton>
    </p>
  );
}
