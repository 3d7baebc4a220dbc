/**
 * The panel's tabs, one line each: who sees it, its label (with its count) and its content.
 * Another tab (e.g. 'Statistiques') is one more entry here.
 */
import type { ReactNode } from 'react';
import {
  ADMIN_PANEL_ROLES,
  MESSAGES,
  MODERATION_ROLES,
  USERS_LIST_ROLES,
  adminCount,
  t,
  type StaffRole,
} from '@moodmap/core';
import { useModerationQueue, useSecurityLogs, useAdminUsers } from './admin-api.ts';
import { LogsTab, logsCount } from './LogsTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { UsersTab, usersCount } from './UsersTab.tsx';
import { StatsTab } from '../stats/StatsTab.tsx';

export interface AdminTab {
  id: string;
  roles: readonly StaffRole[];
  Label: () => ReactNode;
  /** `staffRole` is the viewer's staff role (not an ARIA role). */
  Panel: (props: { staffRole: string }) => ReactNode;
  /** The tab button's test id (default `admin-tab-<id>`). */
  testId?: string;
}

function UsersLabel() {
  return t('admin_users_tab', { count: adminCount(usersCount(useAdminUsers('').data)) });
}
function LogsLabel() {
  return t('admin_logs_tab', { count: adminCount(logsCount(useSecurityLogs('', '').data)) });
}
function ReportsLabel() {
  return t('admin_reports_tab', { count: useModerationQueue().data?.reports.length ?? 0 });
}

export const ADMIN_TABS: AdminTab[] = [
  { id: 'users', roles: ADMIN_PANEL_ROLES, Label: UsersLabel, Panel: UsersTab },
  { id: 'logs', roles: ADMIN_PANEL_ROLES, Label: LogsLabel, Panel: LogsTab },
  { id: 'reports', roles: MODERATION_ROLES, Label: ReportsLabel, Panel: ReportsTab },
  {
    id: 'stats',
    roles: USERS_LIST_ROLES,
    Label: () => MESSAGES.stats_tab,
    Panel: StatsTab,
    testId: 'stats-tab-button',
  },
];
