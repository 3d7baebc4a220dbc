/**
 * 'Logs de sécurité': the event type with its first underscore replaced by a space,
 * uppercased, plus the description; the severity badge in its colour (SEVERITY_BADGE); the fr-FR
 * date and time; repeats from one source share a row with their count. Filters by severity and event type.
 */
import { useState } from 'react';
import { MESSAGES, SECURITY_SEVERITIES, eventTypeLabel, t, type MessageKey } from '@moodmap/core';
import { useSecurityLogs } from './admin-api.ts';
import { Table, cell } from './Table.tsx';

const FR_DATE_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'medium' });

/** Severity colours: critical red, high orange, medium yellow, low blue, other grey. */
const SEVERITY_BADGE: Record<string, string> = {
  critical: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
  high: 'bg-orange-100 text-orange-700 dark:bg-orange-500/15 dark:text-orange-300',
  medium: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-500/15 dark:text-yellow-300',
  low: 'bg-blue-100 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300',
};
const severityLabel = (s: string) =>
  (SECURITY_SEVERITIES as readonly string[]).includes(s) ? MESSAGES[`admin_severity_${s}` as MessageKey] : s;

export function LogsTab() {
  const [severity, setSeverity] = useState('');
  const [eventType, setEventType] = useState('');
  const logs = useSecurityLogs(severity, eventType.trim());
  const rows = logs.data?.pages.flatMap((p) => p.logs) ?? [];
  const input = 'rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm dark:border-white/10 dark:bg-ink-900';
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <select
          aria-label={MESSAGES.admin_filter_severity}
          className={input}
          value={severity}
          onChange={(e) => setSeverity(e.target.value)}
          data-testid="admin-log-severity"
        >
          <option value="">{`${MESSAGES.admin_filter_severity} : ${MESSAGES.admin_filter_all}`}</option>
          {SECURITY_SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {severityLabel(s)}
            </option>
          ))}
        </select>
        <input
          className={input}
          placeholder={MESSAGES.admin_filter_event}
          aria-label={MESSAGES.admin_filter_event}
          value={eventType}
          onChange={(e) => setEventType(e.target.value)}
        />
      </div>
      <Table
        testId="admin-logs-table"
        columns={[MESSAGES.admin_col_event, MESSAGES.admin_col_severity, MESSAGES.admin_col_date]}
        more={{
          has: Boolean(logs.hasNextPage),
          loading: logs.isFetchingNextPage,
          load: () => void logs.fetchNextPage(),
        }}
        rows={rows.map((l) => (
          <tr key={l.id} data-testid="admin-log-row">
            <td className={cell}>
              <span className="font-semibold">{eventTypeLabel(l.eventType)}</span>
              <span className="ml-2 text-slate-600 dark:text-slate-300">{l.eventDescription}</span>
              {l.occurrences > 1 ? (
                <span
                  className="ml-2 text-xs font-semibold text-slate-500 dark:text-slate-400"
                  data-testid="admin-log-repeats"
                >
                  {t('admin_log_repeats', {
                    count: l.occurrences,
                    time: FR_DATE_TIME.format(new Date(l.lastAt ?? l.createdAt)),
                  })}
                </span>
              ) : null}
            </td>
            <td className={cell}>
              <span
                className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${SEVERITY_BADGE[l.severity] ?? 'bg-slate-100 text-slate-700 dark:bg-slate-500/15 dark:text-slate-300'}`}
              >
                {severityLabel(l.severity)}
              </span>
            </td>
            <td className={`${cell} whitespace-nowrap`}>{FR_DATE_TIME.format(new Date(l.createdAt))}</td>
          </tr>
        ))}
      />
    </div>
  );
}

export function logsCount(data: ReturnType<typeof useSecurityLogs>['data']): number {
  return data?.pages[0]?.total ?? 0;
}
