/**
 * 'Utilisateurs': nickname + the id's first 8 characters and '...', the e-mail as
 * 'Confidentiel', the sign-up date in fr-FR; a nickname search; role changes for super_admin.
 */
import { useState } from 'react';
import { ADMIN_ID_PREFIX, MESSAGES, ROLE_CHANGE_ROLES, STAFF_ROLES, roleLabel, t, type StaffRole } from '@moodmap/core';
import { errorText } from '../../lib/api.ts';
import { useAdminUsers, useSetRole } from './admin-api.ts';
import { Table, cell } from './Table.tsx';

const FR_DATE = new Intl.DateTimeFormat('fr-FR');

export function UsersTab({ staffRole }: { staffRole: string }) {
  const [q, setQ] = useState('');
  const users = useAdminUsers(q.trim());
  const setRole = useSetRole();
  const canChange = (ROLE_CHANGE_ROLES as readonly string[]).includes(staffRole);
  const rows = users.data?.pages.flatMap((p) => p.users) ?? [];
  return (
    <div className="space-y-3">
      <input
        type="search"
        className="w-full rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm dark:border-white/10 dark:bg-ink-900"
        placeholder={MESSAGES.admin_search_nickname}
        aria-label={MESSAGES.admin_search_nickname}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        data-testid="admin-user-search"
      />
      {users.isError ? (
        <p role="alert" className="text-sm text-rose-600">
          {t('admin_load_error', {
            message: errorText(users.error),
          })}
        </p>
      ) : null}
      <Table
        testId="admin-users-table"
        columns={[
          MESSAGES.admin_col_user,
          MESSAGES.auth_email_label,
          MESSAGES.admin_col_signup_date,
          MESSAGES.admin_col_role,
        ]}
        more={{
          has: Boolean(users.hasNextPage),
          loading: users.isFetchingNextPage,
          load: () => void users.fetchNextPage(),
        }}
        rows={rows.map((u) => (
          <tr key={u.id} data-testid="admin-user-row">
            <td className={cell}>
              <span className="font-medium">{u.username}</span>
              <span className="ml-2 font-mono text-xs text-slate-500 dark:text-slate-400">{`${u.id.slice(0, ADMIN_ID_PREFIX)}...`}</span>
            </td>
            <td className={`${cell} text-slate-500 italic dark:text-slate-400`}>{MESSAGES.admin_email_hidden}</td>
            <td className={cell}>{FR_DATE.format(new Date(u.createdAt))}</td>
            <td className={cell}>
              {canChange ? (
                <select
                  aria-label={MESSAGES.admin_role_change}
                  className="rounded-lg border border-slate-200 bg-white px-2 py-1 text-sm dark:border-white/10 dark:bg-ink-900"
                  value={u.role}
                  onChange={(e) => setRole.mutate({ userId: u.id, role: e.target.value })}
                >
                  {STAFF_ROLES.map((r: StaffRole) => (
                    <option key={r} value={r}>
                      {roleLabel(r)}
                    </option>
                  ))}
                </select>
              ) : (
                roleLabel(u.role)
              )}
            </td>
          </tr>
        ))}
      />
    </div>
  );
}

export function usersCount(data: ReturnType<typeof useAdminUsers>['data']): number {
  return data?.pages[0]?.total ?? 0;
}
