/**
 * My moderation notices (DSA Art. 16/17/20): a report's outcome, a statement of
 * reasons with 'Faire appel' while the author may appeal, an appeal's outcome; and the
 * suspension's end while it lasts.
 */
import { useState } from 'react';
import { MESSAGES, t, type ModerationNotice } from '@moodmap/core';
import { Button, Spinner } from '../../ui/Button.tsx';
import { useAppeal, useNotices } from './moderation-api.ts';

const FR_DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short' });

/** The appeal's text and its button; `appeal` files it (from a notice, or from a mailed link). */
export function AppealForm({
  id,
  appeal,
}: {
  id: string;
  appeal: { mutate: (statement: string) => void; isPending: boolean };
}) {
  const [text, setText] = useState('');
  return (
    <form
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        appeal.mutate(text);
      }}
    >
      <label className="block text-sm font-medium" htmlFor={`appeal-${id}`}>
        {MESSAGES.appeal_label}
      </label>
      <textarea
        id={`appeal-${id}`}
        data-testid="appeal-text"
        className="w-full rounded-xl border border-slate-200 bg-white p-2 text-sm dark:border-white/10 dark:bg-ink-900"
        rows={3}
        maxLength={2000}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" disabled={appeal.isPending || !text.trim()} data-testid="appeal-submit">
        {appeal.isPending ? <Spinner /> : null}
        {MESSAGES.appeal_submit}
      </Button>
    </form>
  );
}

/** A notice's French text as the server wrote it: its title, then its lines. */
export function NoticeText({ title, lines }: { title: string; lines: readonly string[] }) {
  return (
    <>
      <p className="font-semibold text-ink-900 dark:text-white">{title}</p>
      {lines.map((line) => (
        <p key={line} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {line}
        </p>
      ))}
    </>
  );
}

function NoticeAppeal({ decisionId, onDone }: { decisionId: string; onDone: () => void }) {
  return <AppealForm id={decisionId} appeal={useAppeal(decisionId, onDone)} />;
}

function Notice({ notice }: { notice: ModerationNotice }) {
  const [appealing, setAppealing] = useState(false);
  return (
    <li className="rounded-2xl bg-slate-50 p-4 dark:bg-ink-800" data-testid="moderation-notice" data-kind={notice.kind}>
      <NoticeText title={notice.title} lines={notice.lines} />
      {notice.canAppeal && !appealing ? (
        <Button variant="secondary" className="mt-3" onClick={() => setAppealing(true)} data-testid="appeal-open">
          {MESSAGES.appeal_button}
        </Button>
      ) : null}
      {appealing ? <NoticeAppeal decisionId={notice.decisionId} onDone={() => setAppealing(false)} /> : null}
    </li>
  );
}

export function NoticesPanel() {
  const notices = useNotices();
  const data = notices.data;
  if (!data || (data.notices.length === 0 && !data.suspendedUntil)) return null;
  return (
    <section className="mt-8" data-testid="moderation-notices">
      <h3 className="mb-3 text-base font-bold text-ink-900 dark:text-white">{MESSAGES.notices_title}</h3>
      {data.suspendedUntil ? (
        <p
          role="alert"
          className="mb-3 rounded-xl bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800 dark:bg-amber-500/10 dark:text-amber-300"
          data-testid="suspension-notice"
        >
          {t('account_suspended_notice', { date: FR_DATE.format(new Date(data.suspendedUntil)) })}
        </p>
      ) : null}
      <ul className="space-y-3">
        {data.notices.map((n) => (
          <Notice key={n.id} notice={n} />
        ))}
      </ul>
    </section>
  );
}
