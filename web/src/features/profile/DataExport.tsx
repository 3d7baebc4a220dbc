/**
 * The profile's 'Mes données' section: 'Télécharger mes données' asks for the archive, then its
 * state (en préparation, prête with 'Télécharger', expirée) until it is downloaded.
 */
import { useState } from 'react';
import { MESSAGES, frDateTime, t } from '@moodmap/core';
import { errorText } from '../../lib/api.ts';
import { Spinner } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { downloadDataExport, useDataExport, useRequestDataExport } from './data-export-api.ts';

const SMALL =
  'inline-flex min-h-9 items-center justify-center gap-1.5 rounded-xl px-3 text-xs font-semibold text-brand-700 transition hover:bg-brand-50 disabled:opacity-50 dark:text-brand-300 dark:hover:bg-white/5';

export function DataExport() {
  const state = useDataExport();
  const request = useRequestDataExport();
  const [downloading, setDownloading] = useState(false);
  const data = state.data;
  const status = data?.status ?? 'none';
  const waiting = data?.nextRequestAt ? new Date(data.nextRequestAt) > new Date() : false;
  const mayAsk = status !== 'pending' && status !== 'ready' && !waiting;

  const ask = () =>
    request.mutate(undefined, {
      onSuccess: () => toast.success(MESSAGES.export_requested),
      onError: (error) => toast.error(errorText(error)),
    });
  const save = async () => {
    setDownloading(true);
    try {
      await downloadDataExport();
    } catch (error) {
      toast.error(errorText(error));
      void state.refetch();
    } finally {
      setDownloading(false);
    }
  };

  const line = {
    none: null,
    pending: MESSAGES.export_status_pending,
    ready: data?.expiresAt ? t('export_status_ready', { date: frDateTime(data.expiresAt) }) : null,
    expired: MESSAGES.export_status_expired,
    failed: MESSAGES.export_status_failed,
  }[status];

  return (
    <section className="mt-8" data-testid="data-export" data-status={status} aria-labelledby="data-export-title">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h3 id="data-export-title" className="text-base font-bold text-ink-900 dark:text-white">
          {MESSAGES.export_title}
        </h3>
        {mayAsk ? (
          <button
            type="button"
            className={SMALL}
            onClick={ask}
            disabled={request.isPending}
            data-testid="data-export-request"
          >
            {request.isPending ? <Spinner /> : null}
            {MESSAGES.export_request}
          </button>
        ) : null}
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">{MESSAGES.export_intro}</p>
      {line ? (
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1" role="status">
          <p className="flex items-center gap-2 text-sm font-medium" data-testid="data-export-status">
            {status === 'pending' ? <Spinner /> : null}
            {line}
          </p>
          {status === 'ready' ? (
            <button
              type="button"
              className={SMALL}
              onClick={() => void save()}
              disabled={downloading}
              data-testid="data-export-download"
            >
              {downloading ? <Spinner /> : null}
              {MESSAGES.export_download}
            </button>
          ) : null}
        </div>
      ) : null}
      {waiting && status !== 'pending' && status !== 'ready' && data?.nextRequestAt ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          {t('export_next_request', { date: frDateTime(data.nextRequestAt) })}
        </p>
      ) : null}
    </section>
  );
}
