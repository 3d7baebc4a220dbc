import { type ReactNode, useEffect, useRef, useState } from 'react';
import { MESSAGES, type UpdateProfileInput } from '@moodmap/core';
import { Button, Spinner } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { patchProfile, useProfileWrite } from './profile-api.ts';

/**
 * A profile field edited in place (nickname, bio): closed, or open on a draft with the error of
 * its last check; `send` saves a checked draft, then says `savedMessage` and closes.
 */
export function useProfileFieldEdit(saved: string, savedMessage: string) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const update = useProfileWrite(patchProfile);
  const close = () => {
    setEditing(false);
    setError(null);
  };
  return {
    editing,
    value,
    setValue,
    error,
    setError,
    saving: update.isPending,
    /** Opens on `current`, the text saved now, without an old error. */
    open: (current: string) => {
      setValue(current);
      setError(null);
      setEditing(true);
    },
    close,
    send: (patch: UpdateProfileInput, onError: (error: Error) => void) => {
      setError(null);
      update.mutate(patch, {
        onSuccess: () => {
          toast.success(savedMessage);
          close();
        },
        onError,
      });
    },
  };
}

/**
 * The open editor: the field's label, the field and what goes under it, then the save and cancel
 * pair. `name` makes the test ids `{name}-form` and `{name}-save`, and the label names the field
 * among `children` with the id `{name}-input`. The form replaces the button that opened it, so
 * the focus moves on to that field rather than falling back to the page.
 */
export function InlineEditForm({
  name,
  label,
  className,
  saving,
  onSave,
  onCancel,
  children,
}: {
  name: string;
  label: string;
  className: string;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>(`#${name}-input`)?.focus();
  }, [name]);
  return (
    <form
      ref={form}
      className={className}
      data-testid={`${name}-form`}
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <label className="mb-1 block text-xs font-semibold text-slate-500 dark:text-slate-400" htmlFor={`${name}-input`}>
        {label}
      </label>
      {children}
      <div className="mt-2 flex gap-2">
        <Button type="submit" className="min-h-9 px-4" disabled={saving} data-testid={`${name}-save`}>
          {saving ? <Spinner /> : null}
          {MESSAGES.comment_save}
        </Button>
        <Button variant="secondary" className="min-h-9 px-4" disabled={saving} onClick={onCancel}>
          {MESSAGES.cancel}
        </Button>
      </div>
    </form>
  );
}
