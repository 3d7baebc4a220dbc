/**
 * The profile's 'Supprimer mon compte': a dialog saying what goes and what stays, the current
 * password, and the confirmation (POST /api/account/delete). On success the session ends here
 * too and the map opens again.
 */
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { api, ApiError } from '../../lib/api.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { FormError, PasswordField } from '../../ui/Field.tsx';
import { TrashIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useSessionStore } from '../auth/session-store.ts';

/** The server's French text for a refusal it explains (wrong password, too many tries), else the generic one. */
const errorText = (error: unknown) =>
  error instanceof ApiError && error.status > 0 && error.status < 500 && error.message
    ? error.message
    : MESSAGES.account_delete_failed;

function DeletionDialog({ onClose }: { onClose: () => void }) {
  const signOut = useSessionStore((s) => s.signOut);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(MESSAGES.auth_fields_required);
    setSending(true);
    setError(null);
    try {
      await api<void>('/api/account/delete', { method: 'POST', body: { password } });
    } catch (failure) {
      setSending(false);
      return setError(errorText(failure));
    }
    await signOut();
    toast.success(MESSAGES.account_deleted);
    void navigate('/');
  };

  return (
    <Dialog title={MESSAGES.account_delete_title} onClose={onClose} testId="account-delete-dialog">
      <form className="space-y-4" onSubmit={(e) => void submit(e)}>
        <p className="text-sm font-semibold text-rose-600 dark:text-rose-400">{MESSAGES.account_delete_intro}</p>
        <section>
          <h3 className="text-sm font-semibold text-ink-900 dark:text-white">{MESSAGES.account_delete_goes_title}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{MESSAGES.account_delete_goes}</p>
        </section>
        <section>
          <h3 className="text-sm font-semibold text-ink-900 dark:text-white">{MESSAGES.account_delete_stays_title}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{MESSAGES.account_delete_stays}</p>
        </section>
        <PasswordField
          label={MESSAGES.account_delete_password_label}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="account-delete-password"
        />
        <FormError>{error}</FormError>
        <Button
          type="submit"
          variant="danger"
          className="w-full"
          disabled={sending}
          data-testid="account-delete-confirm"
        >
          {sending ? <Spinner /> : <TrashIcon size={18} />}
          {MESSAGES.account_delete_confirm}
        </Button>
      </form>
    </Dialog>
  );
}

export function AccountDeletion() {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-6 mb-4 text-center">
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="inline-flex min-h-9 items-center justify-center gap-1.5 rounded-xl px-3 text-xs font-semibold text-rose-600 transition hover:bg-rose-50 dark:text-rose-400 dark:hover:bg-white/5"
        data-testid="account-delete"
      >
        <TrashIcon size={16} />
        {MESSAGES.account_delete_button}
      </button>
      {open ? <DeletionDialog onClose={() => setOpen(false)} /> : null}
    </div>
  );
}
