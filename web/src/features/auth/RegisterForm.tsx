import { type FormEvent, useState } from 'react';
import { MESSAGES, termsAt } from '@moodmap/core';
import { TermsLink } from '../terms/TermsLink.tsx';
import type { SignUpRequest } from './auth-api.ts';
import { useSessionStore } from './session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { FormError, PasswordField, TextField } from '../../ui/Field.tsx';
import { EmailField } from './EmailField.tsx';
import { Honeypots, HumanCheck, useChallenge } from './HumanCheck.tsx';
import { SubmitButton, SwitchMode } from './FormParts.tsx';
import { registerError, type RegisterFields } from './validation.ts';

/** Server answers after which the question on screen can no longer be used. */
const NEW_CHALLENGE_CODES = new Set(['human_check_failed', 'human_check_required']);

/** The hidden trap fields: a person leaves them empty. */
type Traps = { website: string; fax: string };

/** The sign-up request: the fields trimmed (the password as typed), the traps, today's terms. */
function signUpRequest(fields: RegisterFields, traps: Traps, challengeToken: string): SignUpRequest {
  return {
    email: fields.email.trim(),
    password: fields.password,
    firstName: fields.firstName.trim(),
    lastName: fields.lastName.trim(),
    challengeToken,
    challengeAnswer: fields.answer.trim(),
    website: traps.website,
    fax: traps.fax,
    termsVersion: termsAt(new Date()).current.version,
  };
}

/**
 * Register mode (docs/product.md, Accounts): the account fields,
 * the human-check question and the hidden trap fields. A wrong answer brings a new question;
 * 'Réponse trop rapide…' keeps it, so the person just submits again (the server counts).
 */
export function RegisterForm() {
  const signUp = useSessionStore((s) => s.signUp);
  const openAuth = useUiStore((s) => s.openAuth);
  const { state: challenge, reload } = useChallenge();
  const [fields, setFields] = useState<RegisterFields>(() => ({
    email: useUiStore.getState().authEmail,
    password: '',
    confirm: '',
    firstName: '',
    lastName: '',
    answer: '',
  }));
  const [traps, setTraps] = useState<Traps>({ website: '', fax: '' });
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Editing a field clears the last error: it may no longer hold. */
  const update = (key: keyof RegisterFields, value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setError(null);
  };
  /** The value and change handler of the text field holding `key`. */
  const bind = (key: keyof RegisterFields) => ({
    value: fields[key],
    onChange: (e: { target: { value: string } }) => update(key, e.target.value),
  });

  function newQuestion() {
    setFields((f) => ({ ...f, answer: '' }));
    reload();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    // The terms are checked last: the field errors above them come first.
    const invalid =
      registerError(fields, challenge.status === 'ready') ?? (termsAccepted ? null : MESSAGES.terms_required);
    setError(invalid);
    if (invalid || challenge.status !== 'ready') return;
    setBusy(true);
    const email = fields.email.trim();
    const result = await signUp(signUpRequest(fields, traps, challenge.challenge.token));
    setBusy(false);
    if (result.ok) {
      openAuth('register-sent', email);
      return;
    }
    setError(result.message);
    if (NEW_CHALLENGE_CODES.has(result.code)) newQuestion();
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="register-form">
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={MESSAGES.auth_first_name_label}
          name="firstName"
          autoComplete="given-name"
          {...bind('firstName')}
          data-autofocus
        />
        <TextField
          label={MESSAGES.auth_last_name_label}
          name="lastName"
          autoComplete="family-name"
          {...bind('lastName')}
        />
      </div>
      <EmailField {...bind('email')} />
      <div className="space-y-1.5">
        <PasswordField
          label={MESSAGES.auth_password_label}
          name="password"
          autoComplete="new-password"
          {...bind('password')}
        />
        <p className="text-xs text-slate-500 dark:text-slate-400">{MESSAGES.auth_password_hint}</p>
      </div>
      <PasswordField
        label={MESSAGES.reset_confirm_password}
        name="confirmPassword"
        autoComplete="new-password"
        {...bind('confirm')}
      />
      <Honeypots values={traps} onChange={(name, value) => setTraps((t) => ({ ...t, [name]: value }))} />
      <HumanCheck
        state={challenge}
        answer={fields.answer}
        onAnswer={(answer) => update('answer', answer)}
        onReload={newQuestion}
      />
      <TermsCheckbox
        checked={termsAccepted}
        onChange={(checked) => {
          setTermsAccepted(checked);
          setError(null);
        }}
      />
      <FormError>{error}</FormError>
      <SubmitButton busy={busy} label={MESSAGES.auth_register} busyLabel={MESSAGES.auth_signing_up} />
      <SwitchMode
        question={MESSAGES.auth_have_account}
        label={MESSAGES.nav_sign_in}
        onClick={() => openAuth('login', fields.email.trim())}
      />
    </form>
  );
}

/** The terms' acceptance box, with a link to read them. */
function TermsCheckbox({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="flex items-start gap-2.5 text-sm text-slate-600 dark:text-slate-300">
      <input
        type="checkbox"
        name="acceptTerms"
        data-testid="terms-checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-0.5 size-4 shrink-0 accent-brand-600"
      />
      <span>
        {MESSAGES.terms_accept_label} (<TermsLink />)
      </span>
    </label>
  );
}
