import { type ReactNode, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_PANEL_ROLES, MESSAGES, roleLabel, t, type StaffRole } from '@moodmap/core';
import { adminKey, useAdminVisit } from './admin-api.ts';
import { ADMIN_TABS } from './admin-tabs.tsx';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { AlertIcon, RefreshIcon, ShieldIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import { fetchRole } from '../auth/auth-api.ts';

/** Role badge colours: super_admin red, admin purple, moderator blue, others grey. */
const ROLE_BADGE: Record<string, string> = {
  super_admin: 'bg-red-100 text-red-700 ring-red-600/20 dark:bg-red-500/15 dark:text-red-300',
  admin: 'bg-purple-100 text-purple-700 ring-purple-600/20 dark:bg-purple-500/15 dark:text-purple-300',
  moderator: 'bg-blue-100 text-blue-700 ring-blue-600/20 dark:bg-blue-500/15 dark:text-blue-300',
};
const OTHER_BADGE = 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-500/15 dark:text-slate-300';

export function RoleBadge({ role }: { role: string }) {
  return (
    <span
      data-testid="role-badge"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${ROLE_BADGE[role] ?? OTHER_BADGE}`}
    >
      {roleLabel(role)}
    </span>
  );
}

function Panel({ role, onRefresh, refreshing }: { role: string; onRefresh: () => void; refreshing: boolean }) {
  const tabs = ADMIN_TABS.filter((tab) => tab.roles.includes(role as StaffRole));
  const [active, setActive] = useState(tabs[0]?.id ?? '');
  const current = tabs.find((tab) => tab.id === active) ?? tabs[0];
  const tabClass = (on: boolean) =>
    `rounded-xl px-3.5 py-2 text-sm font-semibold transition ${
      on
        ? 'bg-white text-ink-900 shadow-sm dark:bg-ink-700 dark:text-white'
        : 'text-slate-600 hover:text-ink-900 dark:text-slate-400 dark:hover:text-white'
    }`;
  return (
    <div className="space-y-5 px-5 py-6 md:px-7" data-testid="admin-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <RoleBadge role={role} />
        <Button variant="secondary" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? <Spinner /> : <RefreshIcon size={16} />}
          {MESSAGES.admin_refresh}
        </Button>
      </div>
      <div role="tablist" className="inline-flex flex-wrap gap-1 rounded-2xl bg-slate-100 p-1 dark:bg-ink-800">
        {tabs.map(({ id, Label, testId }) => (
          <button
            key={id}
            type="button"
            role="tab"
            data-testid={testId ?? `admin-tab-${id}`}
            aria-selected={current?.id === id}
            className={tabClass(current?.id === id)}
            onClick={() => setActive(id)}
          >
            <Label />
          </button>
        ))}
      </div>
      <div role="tabpanel">{current ? <current.Panel staffRole={role} /> : null}</div>
    </div>
  );
}

function Centered({ tone, title, children }: { tone: 'rose' | 'amber'; title?: string; children: ReactNode }) {
  const colours = tone === 'rose' ? 'bg-rose-500/10 text-rose-500' : 'bg-amber-500/10 text-amber-500';
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center px-6 py-12 text-center md:min-h-[22rem]">
      <div className={`mb-5 flex size-16 items-center justify-center rounded-2xl ${colours}`}>
        {tone === 'rose' ? <ShieldIcon size={30} /> : <AlertIcon size={30} />}
      </div>
      {title ? <h2 className="mb-2 text-xl font-bold text-ink-900 dark:text-white">{title}</h2> : null}
      {children}
    </div>
  );
}

/** /admin: the role decides (docs/product.md, Roles and staff). */
export function AdminScreen() {
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const role = useQuery({
    queryKey: ['auth', 'role', userId],
    queryFn: ({ signal }) => fetchRole(signal),
    enabled: userId !== null,
    staleTime: 0,
    retry: false,
  });
  // Each visit is logged, 'admin_access' for staff, 'permission_denied' for others.
  useAdminVisit(role.data !== undefined);
  const client = useQueryClient();
  const refresh = () => {
    void role.refetch();
    void client.invalidateQueries({ queryKey: adminKey, predicate: (q) => q.queryKey[1] !== 'visit' });
  };

  let body: ReactNode;
  if (!userId) {
    body = (
      <SignedOutNotice
        title={MESSAGES.admin_auth_required_title}
        message={MESSAGES.admin_auth_required}
        icon={<ShieldIcon size={28} />}
      />
    );
  } else if (role.isPending) {
    body = (
      <div
        className="flex min-h-[50vh] items-center justify-center md:min-h-[22rem]"
        role="status"
        aria-label={MESSAGES.loading}
      >
        <Spinner className="size-6 text-brand-500" />
      </div>
    );
  } else if (role.isError) {
    body = (
      <Centered tone="amber">
        <p role="alert" className="max-w-sm text-[15px] text-slate-600 dark:text-slate-300">
          {MESSAGES.admin_role_error}
        </p>
        <Button variant="secondary" className="mt-6" onClick={() => void role.refetch()}>
          <RefreshIcon size={16} />
          {MESSAGES.admin_refresh}
        </Button>
      </Centered>
    );
  } else if ((ADMIN_PANEL_ROLES as readonly string[]).includes(role.data)) {
    body = <Panel role={role.data} refreshing={role.isFetching} onRefresh={refresh} />;
  } else {
    body = (
      <Centered tone="rose" title={MESSAGES.admin_denied_title}>
        <p className="max-w-sm text-[15px] text-slate-600 dark:text-slate-300">{MESSAGES.admin_denied}</p>
        <p
          className="mt-3 rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-600 dark:bg-ink-800 dark:text-slate-300"
          data-testid="admin-current-role"
        >
          {t('admin_current_role', { role: roleLabel(role.data) })}
        </p>
      </Centered>
    );
  }

  return <ModalPanel title={MESSAGES.admin_title}>{body}</ModalPanel>;
}
