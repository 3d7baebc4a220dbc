/**
 * `/signalement-illicite?post=<id>`: anyone, signed in or not, notifies a post as illegal (DSA
 * Art. 16) with why, where, their name and e-mail, and a statement of good faith. A visitor
 * then confirms by the mailed link; the server enforces every rule.
 */
import { type FormEvent, useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { DSA_EXPLANATION_MAX, DSA_NAME_MAX, MESSAGES } from '@moodmap/core';
import { errorText } from '../../lib/api.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { Field, inputClass } from '../../ui/Field.tsx';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { sendDsaNotice } from './dsa-api.ts';

function DsaNoticeForm({ postId }: { postId: string }) {
  const user = useSessionStore((s) => s.user);
  const [explanation, setExplanation] = useState('');
  const [location, setLocation] = useState(postId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState(user?.email ?? '');
  const [goodFaith, setGoodFaith] = useState(false);
  const ids = { explanation: useId(), location: useId(), name: useId(), email: useId(), goodFaith: useId() };
  const send = useMutation({ mutationFn: () => sendDsaNotice({ explanation, location, name, email, goodFaith }) });

  if (send.isSuccess) {
    return (
      <p role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-300" data-testid="dsa-sent">
        {send.data === 'confirm' ? MESSAGES.dsa_sent_confirm : MESSAGES.dsa_sent_member}
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!send.isPending) send.mutate();
  };
  const error = send.isError ? errorText(send.error) : null;
  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="dsa-form">
      <p className="text-sm text-slate-600 dark:text-slate-300">{MESSAGES.dsa_intro}</p>
      <Field
        label={MESSAGES.dsa_explanation_label}
        htmlFor={ids.explanation}
        hint={`${explanation.length}/${DSA_EXPLANATION_MAX}`}
      >
        <textarea
          id={ids.explanation}
          className={inputClass}
          rows={5}
          maxLength={DSA_EXPLANATION_MAX}
          required
          placeholder={MESSAGES.dsa_explanation_placeholder}
          value={explanation}
          onChange={(e) => setExplanation(e.target.value)}
          data-testid="dsa-explanation"
        />
      </Field>
      <Field label={MESSAGES.dsa_location_label} htmlFor={ids.location}>
        <input
          id={ids.location}
          className={inputClass}
          required
          value={location}
          onChange={(e) => setLocation(e.target.value)}
          data-testid="dsa-location"
        />
      </Field>
      <Field label={MESSAGES.dsa_name_label} htmlFor={ids.name}>
        <input
          id={ids.name}
          className={inputClass}
          required
          maxLength={DSA_NAME_MAX}
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-testid="dsa-name"
        />
      </Field>
      <Field label={MESSAGES.dsa_email_label} htmlFor={ids.email}>
        <input
          id={ids.email}
          type="email"
          className={inputClass}
          required
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          data-testid="dsa-email"
        />
      </Field>
      <label htmlFor={ids.goodFaith} className="flex items-start gap-2 text-sm">
        <input
          id={ids.goodFaith}
          type="checkbox"
          className="mt-1"
          checked={goodFaith}
          onChange={(e) => setGoodFaith(e.target.checked)}
          data-testid="dsa-good-faith"
        />
        <span>{MESSAGES.dsa_good_faith_label}</span>
      </label>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400" data-testid="dsa-error">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={send.isPending} data-testid="dsa-submit">
        {send.isPending ? <Spinner /> : null}
        {MESSAGES.dsa_submit}
      </Button>
    </form>
  );
}

export function DsaNoticeScreen() {
  const [params] = useSearchParams();
  return (
    <ModalPanel title={MESSAGES.dsa_title}>
      <div className="px-5 py-5 md:px-7">
        <DsaNoticeForm postId={params.get('post') ?? ''} />
      </div>
    </ModalPanel>
  );
}
