/**
 * The report dialog (docs/product.md, Reports and moderation): a reason
 * among the six, details up to 500 characters with a counter (mandatory for 'Autre motif');
 * submit stays disabled until that holds. The server checks the same schema again.
 */
import { type FormEvent, useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  MESSAGES,
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  REPORT_REASON_OTHER,
  type ReportPostInput,
  type ReportReasonKey,
  reportPostSchema,
} from '@moodmap/core';
import { ApiError, api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';

export async function reportPost(postId: string, reason: ReportReasonKey, details: string): Promise<void> {
  const body: ReportPostInput = { reason, details };
  await parseAnswerLazy(
    (s) => s.reportResponseSchema,
    await api<unknown>(`/api/posts/${encodeURIComponent(postId)}/report`, { method: 'POST', body }),
  );
}

/** Whether the form may be sent (the same rules as the server's). */
export function isReportValid(reason: ReportReasonKey | null, details: string): boolean {
  return (
    reason !== null && details.length <= REPORT_DETAILS_MAX && reportPostSchema.safeParse({ reason, details }).success
  );
}

/** The server's error message, or 'Erreur lors du signalement'. */
function failureText(error: unknown): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401
    ? error.message
    : MESSAGES.report_failed;
}

export function ReportDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const [reason, setReason] = useState<ReportReasonKey | null>(null);
  const [details, setDetails] = useState('');
  const report = useMutation({
    mutationFn: (chosen: ReportReasonKey) => reportPost(postId, chosen, details),
    onSuccess: () => {
      toast.success(MESSAGES.report_success);
      onClose();
    },
    onError: (error) => {
      toast.error(failureText(error));
      // Already reported, own post, or a post that is gone: trying again cannot succeed.
      if (error instanceof ApiError && [403, 404, 409].includes(error.status)) onClose();
    },
  });
  const sending = report.isPending;
  const detailsId = useId();
  const counterId = useId();
  const other = reason === REPORT_REASON_OTHER;
  const over = details.length > REPORT_DETAILS_MAX;
  const valid = isReportValid(reason, details);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || !reason || sending) return;
    report.mutate(reason);
  };

  return (
    <Dialog title={MESSAGES.report_title} onClose={onClose} testId="report-dialog">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-300">{MESSAGES.report_intro}</p>
        <fieldset className="space-y-1.5">
          <legend className="sr-only">{MESSAGES.report_reason_legend}</legend>
          {REPORT_REASONS.map((r) => {
            const checked = reason === r.key;
            return (
              <label
                key={r.key}
                data-testid={`report-reason-${r.key}`}
                className={`flex cursor-pointer items-center gap-3 rounded-xl px-3.5 py-2.5 text-[15px] ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${
                  checked
                    ? 'bg-rose-50 font-semibold text-rose-700 ring-rose-300 dark:bg-rose-500/10 dark:text-rose-200 dark:ring-rose-500/40'
                    : 'text-ink-800 ring-slate-200 hover:bg-slate-50 dark:text-slate-200 dark:ring-white/10 dark:hover:bg-white/5'
                }`}
              >
                <input
                  type="radio"
                  name="report-reason"
                  value={r.key}
                  checked={checked}
                  onChange={() => setReason(r.key)}
                  className="size-4 shrink-0 accent-rose-500"
                  data-autofocus={r.key === REPORT_REASONS[0].key ? true : undefined}
                />
                {r.label}
              </label>
            );
          })}
        </fieldset>
        <div className="space-y-1.5">
          <div className="flex items-baseline justify-between gap-2">
            <label htmlFor={detailsId} className="text-sm font-medium text-slate-700 dark:text-slate-300">
              {other ? MESSAGES.report_details_label : MESSAGES.report_details_optional}
            </label>
            {other ? (
              <span
                className="text-xs font-medium text-rose-600 dark:text-rose-300"
                data-testid="report-details-required"
              >
                {MESSAGES.report_details_hint_other}
              </span>
            ) : null}
          </div>
          <textarea
            id={detailsId}
            value={details}
            onChange={(e) => setDetails(e.target.value)}
            rows={3}
            required={other}
            aria-required={other}
            aria-invalid={over || undefined}
            aria-describedby={counterId}
            placeholder={MESSAGES.report_details_placeholder}
            data-testid="report-details"
            className={`block w-full resize-none rounded-xl border bg-white px-3.5 py-2.5 text-[15px] text-ink-900 shadow-sm outline-none transition placeholder:text-slate-400 focus:ring-4 dark:bg-ink-800 dark:text-slate-100 dark:placeholder:text-slate-500 ${
              over
                ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-500/15'
                : 'border-slate-200 focus:border-brand-500 focus:ring-brand-500/15 dark:border-white/10'
            }`}
          />
          <p
            id={counterId}
            data-testid="report-counter"
            className={`text-right text-xs tabular-nums ${over ? 'font-semibold text-rose-600 dark:text-rose-300' : 'text-slate-500 dark:text-slate-400'}`}
          >
            {details.length}/{REPORT_DETAILS_MAX}
          </p>
        </div>
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            {MESSAGES.cancel}
          </Button>
          <Button
            type="submit"
            variant="danger"
            disabled={!valid || sending}
            aria-busy={sending}
            data-testid="report-submit"
          >
            {sending ? (
              <>
                <Spinner /> {MESSAGES.auth_sending}
              </>
            ) : (
              MESSAGES.report_submit
            )}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
