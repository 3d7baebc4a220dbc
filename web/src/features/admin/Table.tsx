/** The panel's tables: headers, rows, an empty line, and 'Afficher plus' for the next keyset page. */
import type { ReactNode } from 'react';
import { MESSAGES } from '@moodmap/core';
import { Button, Spinner } from '../../ui/Button.tsx';

export function Table({
  columns,
  rows,
  testId,
  more,
}: {
  columns: string[];
  rows: ReactNode[];
  testId: string;
  more?: { has: boolean; loading: boolean; load: () => void };
}) {
  return (
    <div className="space-y-3">
      <div className="overflow-x-auto rounded-2xl ring-1 ring-slate-200 dark:ring-white/10">
        <table className="w-full text-left text-sm" data-testid={testId}>
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:bg-ink-800 dark:text-slate-400">
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className="px-4 py-3 whitespace-nowrap">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-white/5">
            {rows.length > 0 ? (
              rows
            ) : (
              <tr>
                <td colSpan={columns.length} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">
                  {MESSAGES.admin_table_empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {more?.has ? (
        <Button variant="secondary" onClick={more.load} disabled={more.loading}>
          {more.loading ? <Spinner /> : null}
          {MESSAGES.admin_load_more}
        </Button>
      ) : null}
    </div>
  );
}

export const cell = 'px-4 py-3 align-top';
