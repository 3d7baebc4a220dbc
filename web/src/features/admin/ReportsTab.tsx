/**
 * 'Signalements' (docs/product.md, Reports and moderation): open reports grouped by post, with the
 * post as reported, its author and reporters; a decision needs a reason from the list and may
 * carry a note. Appeals wait below, for a moderator other than the one who decided.
 */
import { useState } from 'react';
import {
  MESSAGES,
  MODERATION_ACTIONS,
  MODERATION_REASON_KEYS,
  SUSPENSION_DAYS,
  moderationActionLabel,
  moderationReasonLabel,
  t,
  type ModerationAction,
  type ModerationAppeal,
  type ModerationReasonKey,
  type ReportGroup,
} from '@moodmap/core';
import { Button, Spinner } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useDecide, useDecideAppeal, useModerationQueue } from './admin-api.ts';

const field =
  'w-full rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm dark:border-white/10 dark:bg-ink-900';

function DecisionForm({ group }: { group: ReportGroup }) {
  const [action, setAction] = useState<ModerationAction>('remove');
  const [reason, setReason] = useState<ModerationReasonKey | ''>('');
  const [days, setDays] = useState<number>(1);
  const [note, setNote] = useState('');
  const decide = useDecide();
  return (
    <form
      className="mt-3 grid gap-2 md:grid-cols-2"
      data-testid="decision-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason) return void toast.error(MESSAGES.mod_reason_required);
        decide.mutate({
          postId: group.postId,
          input: { action, reason, note, ...(action === 'suspend' ? { days: days as 1 | 7 | 30 } : {}) },
        });
      }}
    >
      <label className="text-sm">
        <span className="mb-1 block font-medium">{MESSAGES.mod_decision_label}</span>
        <select
          className={field}
          value={action}
          onChange={(e) => setAction(e.target.value as ModerationAction)}
          data-testid="decision-action"
        >
          {MODERATION_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {moderationActionLabel(a)}
            </option>
          ))}
        </select>
      </label>
      {action === 'suspend' ? (
        <label className="text-sm">
          <span className="mb-1 block font-medium">{MESSAGES.mod_action_suspend}</span>
          <select
            className={field}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            data-testid="decision-days"
          >
            {SUSPENSION_DAYS.map((d) => (
              <option key={d} value={d}>
                {t('mod_suspend_days', { days: d })}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="text-sm">
        <span className="mb-1 block font-medium">{MESSAGES.mod_reason_label}</span>
        <select
          className={field}
          value={reason}
          onChange={(e) => setReason(e.target.value as ModerationReasonKey)}
          data-testid="decision-reason"
          required
        >
          <option value="">—</option>
          {MODERATION_REASON_KEYS.map((r) => (
            <option key={r} value={r}>
              {moderationReasonLabel(r)}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm md:col-span-2">
        <span className="mb-1 block font-medium">{MESSAGES.mod_note_label}</span>
        <textarea
          className={field}
          rows={2}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          data-testid="decision-note"
        />
      </label>
      <div className="md:col-span-2">
        <Button type="submit" disabled={decide.isPending} data-testid="decision-submit">
          {decide.isPending ? <Spinner /> : null}
          {MESSAGES.mod_submit_decision}
        </Button>
      </div>
    </form>
  );
}

function Group({ group }: { group: ReportGroup }) {
  const state =
    group.postState === 'pending'
      ? MESSAGES.mod_post_hidden
      : group.postState === 'gone'
        ? MESSAGES.mod_post_gone
        : null;
  return (
    <li
      className="rounded-2xl p-4 ring-1 ring-slate-200 dark:ring-white/10"
      data-testid="report-group"
      data-post-id={group.postId}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">{t('mod_reports_count', { count: group.count })}</p>
        {state ? (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
            {state}
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {group.reasons.map((r) => `${r.label} (${r.count})`).join(', ')}
      </p>
      {group.details.map((d) => (
        <p key={d} className="mt-1 text-sm text-slate-500 italic">
          « {d} »
        </p>
      ))}
      <blockquote className="mt-3 rounded-xl bg-slate-50 p-3 text-sm dark:bg-ink-800">
        <p className="mb-1 text-xs font-semibold text-slate-500 uppercase">{MESSAGES.mod_snapshot}</p>
        <p className="break-words whitespace-pre-line" data-testid="report-snapshot">
          {group.snapshot.content}
        </p>
      </blockquote>
      <p className="mt-2 text-sm">
        <span className="font-medium">{MESSAGES.mod_author} :</span> {group.author?.nickname ?? '—'}
      </p>
      <p className="text-sm">
        <span className="font-medium">{MESSAGES.mod_reporters} :</span>{' '}
        {group.reporters.map((r) => r.nickname).join(', ')}
      </p>
      {group.dsaNotices.map((n) => (
        <div
          key={`${n.name}-${n.explanation}`}
          className="mt-3 rounded-xl bg-rose-50 p-3 text-sm dark:bg-rose-500/10"
          data-testid="report-dsa-notice"
        >
          <p className="text-xs font-semibold text-rose-700 uppercase dark:text-rose-300">{MESSAGES.dsa_badge}</p>
          <p className="mt-1 font-medium">{t('dsa_notifier', { name: n.name })}</p>
          <p className="break-words whitespace-pre-line">« {n.explanation} »</p>
          <p className="break-all text-xs text-slate-500">{n.location}</p>
        </div>
      ))}
      <DecisionForm group={group} />
    </li>
  );
}

function Appeal({ appeal }: { appeal: ModerationAppeal }) {
  const [note, setNote] = useState('');
  const decide = useDecideAppeal();
  const send = (outcome: 'uphold' | 'reverse') => decide.mutate({ appealId: appeal.id, outcome, note });
  const d = appeal.decision;
  return (
    <li className="rounded-2xl p-4 ring-1 ring-slate-200 dark:ring-white/10" data-testid="appeal-item">
      <p className="font-semibold">{`${moderationActionLabel(d.action)} — ${moderationReasonLabel(d.reason)}`}</p>
      <p className="mt-1 text-sm">
        {appeal.author?.nickname ?? '—'} : « {appeal.statement} »
      </p>
      <blockquote className="mt-2 rounded-xl bg-slate-50 p-3 text-sm dark:bg-ink-800">{d.snapshot.content}</blockquote>
      {appeal.decidedByYou ? (
        <p className="mt-2 text-sm text-amber-700 dark:text-amber-300">{MESSAGES.mod_decided_by_you}</p>
      ) : (
        <div className="mt-3 space-y-2">
          <textarea
            className={field}
            rows={2}
            maxLength={1000}
            placeholder={MESSAGES.mod_note_label}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              onClick={() => send('uphold')}
              disabled={decide.isPending}
              data-testid="appeal-uphold"
            >
              {MESSAGES.mod_appeal_uphold}
            </Button>
            <Button onClick={() => send('reverse')} disabled={decide.isPending} data-testid="appeal-reverse">
              {MESSAGES.mod_appeal_reverse}
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}

export function ReportsTab() {
  const queue = useModerationQueue();
  const reports = queue.data?.reports ?? [];
  const appeals = queue.data?.appeals ?? [];
  return (
    <div className="space-y-6">
      {reports.length === 0 ? (
        <p className="text-sm text-slate-500">{MESSAGES.mod_queue_empty}</p>
      ) : (
        <ul className="space-y-4">
          {reports.map((g) => (
            <Group key={g.postId} group={g} />
          ))}
        </ul>
      )}
      <section>
        <h3 className="mb-3 font-bold">{MESSAGES.mod_appeals_title}</h3>
        {appeals.length === 0 ? (
          <p className="text-sm text-slate-500">{MESSAGES.mod_appeals_empty}</p>
        ) : (
          <ul className="space-y-4">
            {appeals.map((a) => (
              <Appeal key={a.id} appeal={a} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
