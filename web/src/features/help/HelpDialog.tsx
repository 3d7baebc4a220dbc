import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { type MessageKey, MESSAGES, TIMING, t } from '@moodmap/core';
import { useUiStore } from '../../lib/ui-store.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field, FormError, TextField, inputClass } from '../../ui/Field.tsx';
import {
  BugIcon,
  ChatIcon,
  CheckCircleIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  MapIcon,
  MailIcon,
  PlusIcon,
  SparkIcon,
  UserIcon,
} from '../../ui/icons.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { CONTACT_LIMITS, type ContactForm, type ContactType, contactError, contactMailto } from './contact.ts';
import { TermsLink } from '../terms/TermsLink.tsx';

type Tab = 'tutorial' | 'contact';

/** Help and contact dialog: Tutoriel (4 steps) and Contact (mailto). */
export function HelpDialog() {
  const open = useUiStore((s) => s.helpOpen);
  const setHelpOpen = useUiStore((s) => s.setHelpOpen);
  const [tab, setTab] = useState<Tab>('tutorial');
  const baseId = useId();
  if (!open) return null;
  const close = () => setHelpOpen(false);

  const tabButton = (value: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      id={`${baseId}-${value}-tab`}
      aria-selected={tab === value}
      aria-controls={`${baseId}-${value}`}
      onClick={() => setTab(value)}
      className={`flex-1 rounded-lg py-2 text-sm font-semibold transition ${tab === value ? 'bg-white text-ink-900 shadow-sm dark:bg-ink-600 dark:text-white' : 'text-slate-500 hover:text-ink-900 dark:text-slate-400 dark:hover:text-white'}`}
    >
      {label}
    </button>
  );

  return (
    <Dialog title={MESSAGES.help_title} onClose={close} testId="help-dialog" width="max-w-lg">
      <div
        role="tablist"
        aria-label={MESSAGES.help_title}
        className="mb-5 flex gap-1 rounded-xl bg-slate-100 p-1 dark:bg-ink-800"
      >
        {tabButton('tutorial', MESSAGES.help_tab_tutorial)}
        {tabButton('contact', MESSAGES.help_tab_contact)}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}`} aria-labelledby={`${baseId}-${tab}-tab`}>
        {tab === 'tutorial' ? <Tutorial /> : <Contact onDone={close} />}
      </div>
      <p className="mt-5 text-center text-xs text-slate-500 dark:text-slate-400">
        <TermsLink />
      </p>
    </Dialog>
  );
}

const STEPS: { title: MessageKey; text: MessageKey; icon: ReactNode; tint: string }[] = [
  {
    title: 'tutorial_welcome_title',
    text: 'tutorial_welcome_text',
    icon: <MapIcon size={34} />,
    tint: 'from-brand-500 to-violet-brand',
  },
  {
    title: 'tutorial_create_title',
    text: 'tutorial_create_text',
    icon: <PlusIcon size={34} />,
    tint: 'from-[#7ED957] to-brand-500',
  },
  {
    title: 'tutorial_chat_title',
    text: 'tutorial_chat_text',
    icon: <ChatIcon size={34} />,
    tint: 'from-[#F07167] to-[#ccaaff]',
  },
  {
    title: 'tutorial_profile_title',
    text: 'tutorial_profile_text',
    icon: <UserIcon size={34} />,
    tint: 'from-[#FFDE59] to-[#F07167]',
  },
];

function Tutorial() {
  const [step, setStep] = useState(0);
  const current = STEPS[step]!;
  const last = STEPS.length - 1;
  return (
    <div data-testid="tutorial">
      <div className="flex min-h-64 flex-col items-center px-2 text-center" aria-live="polite">
        <div
          className={`mb-5 flex size-20 items-center justify-center rounded-3xl bg-gradient-to-br ${current.tint} text-white shadow-lg`}
        >
          {current.icon}
        </div>
        <p className="mb-1 text-xs font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-300">
          {t('tutorial_step', { n: step + 1, total: STEPS.length })}
        </p>
        <h3 className="mb-2 text-lg font-bold text-ink-900 dark:text-white">{MESSAGES[current.title]}</h3>
        <p className="text-[15px] leading-relaxed text-slate-600 dark:text-slate-300">{MESSAGES[current.text]}</p>
      </div>
      <div className="mt-6 flex items-center justify-between">
        <button
          type="button"
          onClick={() => setStep((s) => Math.max(0, s - 1))}
          disabled={step === 0}
          aria-label={MESSAGES.tutorial_previous}
          className="flex size-11 items-center justify-center rounded-full bg-slate-100 text-ink-800 transition hover:bg-slate-200 disabled:opacity-40 dark:bg-ink-700 dark:text-slate-100 dark:hover:bg-ink-600"
        >
          <ChevronLeftIcon />
        </button>
        <div className="flex gap-2">
          {STEPS.map((s, i) => (
            <button
              key={s.title}
              type="button"
              onClick={() => setStep(i)}
              aria-label={t('tutorial_step', { n: i + 1, total: STEPS.length })}
              aria-current={i === step ? 'step' : undefined}
              className={`h-2.5 rounded-full transition-all ${i === step ? 'w-7 bg-brand-500' : 'w-2.5 bg-slate-300 hover:bg-slate-400 dark:bg-slate-600'}`}
            />
          ))}
        </div>
        <button
          type="button"
          onClick={() => setStep((s) => Math.min(last, s + 1))}
          disabled={step === last}
          aria-label={MESSAGES.tutorial_next}
          className="flex size-11 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md transition hover:brightness-110 disabled:from-slate-300 disabled:to-slate-300 disabled:shadow-none dark:disabled:from-ink-600 dark:disabled:to-ink-600"
        >
          <ChevronRightIcon />
        </button>
      </div>
    </div>
  );
}

function Contact({ onDone }: { onDone: () => void }) {
  const [form, setForm] = useState<ContactForm>({ type: 'bug', email: '', subject: '', message: '' });
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const messageId = useId();

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(onDone, TIMING.contactDialogCloseMs);
    return () => clearTimeout(timer);
  }, [sent, onDone]);

  if (sent) {
    return (
      <div className="flex min-h-64 flex-col items-center justify-center text-center" role="status">
        <div className="mb-4 flex size-16 items-center justify-center rounded-full bg-emerald-500/10 text-emerald-500">
          <CheckCircleIcon size={36} />
        </div>
        <p className="text-lg font-bold text-ink-900 dark:text-white">{MESSAGES.contact_sent}</p>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = contactError(form);
    setError(invalid);
    if (invalid) return;
    try {
      window.location.href = contactMailto(form);
      setSent(true);
    } catch {
      toast.error(MESSAGES.mail_client_error);
    }
  }

  const typeOption = (value: ContactType, label: string, icon: ReactNode) => (
    <label
      className={`flex flex-1 cursor-pointer items-center justify-center gap-1.5 rounded-xl border-2 px-2 py-2.5 text-[13px] font-semibold whitespace-nowrap md:gap-2 md:px-3 md:text-sm transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${form.type === value ? 'border-brand-500 bg-brand-500/10 text-brand-700 dark:text-brand-200' : 'border-slate-200 text-slate-600 hover:border-slate-300 dark:border-white/10 dark:text-slate-300'}`}
    >
      <input
        type="radio"
        name="contact-type"
        value={value}
        className="sr-only"
        checked={form.type === value}
        onChange={() => setForm((f) => ({ ...f, type: value }))}
      />
      {icon}
      {label}
    </label>
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="contact-form">
      <p className="text-sm text-slate-600 dark:text-slate-300">{MESSAGES.contact_intro}</p>
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-300">
          {MESSAGES.contact_type_label}
        </legend>
        <div className="flex gap-2">
          {typeOption('bug', MESSAGES.contact_type_bug, <BugIcon size={18} />)}
          {typeOption('feedback', MESSAGES.contact_type_feedback, <SparkIcon size={18} />)}
        </div>
      </fieldset>
      <TextField
        label={`${MESSAGES.contact_email_label} *`}
        type="email"
        autoComplete="email"
        maxLength={CONTACT_LIMITS.email}
        placeholder={MESSAGES.auth_email_placeholder}
        value={form.email}
        onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
      />
      <TextField
        label={MESSAGES.contact_subject_label}
        maxLength={CONTACT_LIMITS.subject}
        value={form.subject}
        onChange={(e) => setForm((f) => ({ ...f, subject: e.target.value }))}
      />
      <Field
        label={`${MESSAGES.contact_message_label} *`}
        htmlFor={messageId}
        hint={`${form.message.length}/${CONTACT_LIMITS.message}`}
      >
        <textarea
          id={messageId}
          rows={4}
          maxLength={CONTACT_LIMITS.message}
          placeholder={MESSAGES.contact_message_placeholder}
          value={form.message}
          onChange={(e) => setForm((f) => ({ ...f, message: e.target.value }))}
          className={`${inputClass} resize-none`}
        />
      </Field>
      <FormError>{error}</FormError>
      <Button type="submit" className="w-full">
        <MailIcon size={18} />
        {MESSAGES.contact_submit}
      </Button>
    </form>
  );
}
