/**
 * The 'Statistiques' tab of the admin panel, for admin and super_admin: the seven analytics
 * events per day over 7/30/90 days, unique visitors, revenue in EUR, messages per day
 * and the posts live now, as charts with the numbers beside them and a CSV export; then today's
 * cost counters with the estimated daily cost, and the super_admin's emergency switch.
 */
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ANALYTICS_EVENTS,
  ANALYTICS_LABELS,
  COST_LABELS,
  EMERGENCY_CHANGED_EVENT,
  STATS_TEXTS,
  statsText,
  t,
  type AnalyticsEventName,
  type CostsResponse,
  type StatsResponse,
} from '@moodmap/core';
import { Button, Spinner } from '../../ui/Button.tsx';
import { useThemeStore } from '../theme/theme-store.ts';
import { emergencyKey } from '../emergency/EmergencyBanner.tsx';
import { subscribeRealtime } from '../../lib/realtime.ts';
import { LineChart, type Series } from './LineChart.tsx';
import { downloadCsv, statsCsv } from './stats-csv.ts';
import { fetchCosts, fetchStats, setEmergency, type StatsRange } from './stats-api.ts';

const COLOURS: Record<AnalyticsEventName, string> = {
  signup: '#22c55e',
  login: '#0ea5e9',
  post_created: '#8b5cf6',
  message_sent: '#f97316',
  premium_conversion: '#eab308',
  search: '#ec4899',
  map_interaction: '#64748b',
};
const eur = (value: number) =>
  value.toLocaleString('fr-FR', { style: 'currency', currency: 'EUR', maximumFractionDigits: 2 });
const fr = (value: number) => value.toLocaleString('fr-FR');
const card = 'rounded-2xl p-4 ring-1 ring-slate-200 dark:ring-white/10';

function Numbers({ rows }: { rows: Array<[string, string, string?]> }) {
  return (
    <table className="w-full text-sm">
      <tbody>
        {rows.map(([label, value, testId]) => (
          <tr key={label} className="border-b border-slate-100 last:border-0 dark:border-white/5">
            <th scope="row" className="py-1.5 pr-3 text-left font-medium text-slate-500 dark:text-slate-400">
              {label}
            </th>
            <td
              className="py-1.5 text-right font-semibold tabular-nums text-ink-900 dark:text-white"
              data-testid={testId}
            >
              {value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const shortTime = (iso: string) =>
  new Date(iso).toLocaleString('fr-FR', { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' });

/** Who or what switched emergency mode on, when, and why. */
function emergencyOrigin({ manual, startedAt, startedByName, reason }: CostsResponse['emergency']): string {
  const time = startedAt ? shortTime(startedAt) : '';
  if (manual) return statsText('stats_emergency_by_staff', { name: startedByName ?? '—', time });
  return statsText('stats_emergency_by_monitor', { time, reason: reason ?? '' });
}

function Costs({ costs, superAdmin }: { costs: CostsResponse; superAdmin: boolean }) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeRealtime(EMERGENCY_CHANGED_EVENT, () => {
        void queryClient.invalidateQueries({ queryKey: ['costs'] });
        void queryClient.invalidateQueries({ queryKey: emergencyKey });
      }),
    [queryClient],
  );
  const toggle = useMutation({
    mutationFn: (active: boolean) => setEmergency(active),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['costs'] }),
        queryClient.invalidateQueries({ queryKey: emergencyKey }),
      ]),
  });
  const level = STATS_TEXTS[`stats_level_${costs.level}`];
  return (
    <section className={card} data-testid="stats-costs">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-bold text-ink-900 dark:text-white">{STATS_TEXTS.stats_costs_title}</h3>
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-600 dark:bg-ink-800 dark:text-slate-300">
          {statsText('stats_cost_level', { level })}
        </span>
      </div>
      <table className="w-full text-sm">
        <tbody>
          {costs.counters.map((c) => (
            <tr key={c.metric} className="border-b border-slate-100 last:border-0 dark:border-white/5">
              <th scope="row" className="py-1.5 pr-3 text-left font-medium text-slate-500 dark:text-slate-400">
                {COST_LABELS[c.metric]}
              </th>
              <td
                className={`py-1.5 text-right tabular-nums ${c.ratio > 1 ? 'font-bold text-rose-600 dark:text-rose-400' : 'text-ink-900 dark:text-white'}`}
              >
                {fr(c.units)} / {fr(c.cap)} ({Math.round(c.ratio * 100)} %)
              </td>
              <td className="py-1.5 pl-3 text-right tabular-nums text-slate-600 dark:text-slate-300">
                {eur(c.costEur)}
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="pt-2 text-left font-bold text-ink-900 dark:text-white" colSpan={2}>
              {STATS_TEXTS.stats_estimated_cost}
            </th>
            <td
              className="pt-2 text-right font-bold tabular-nums text-ink-900 dark:text-white"
              data-testid="stats-estimated-cost"
            >
              {eur(costs.estimatedDailyCostEur)}
            </td>
          </tr>
        </tbody>
      </table>
      {costs.emergency.active && costs.emergency.until ? (
        <>
          <p className="mt-3 text-sm font-semibold text-amber-600 dark:text-amber-400">
            {statsText('stats_emergency_until', { time: shortTime(costs.emergency.until) })}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300" data-testid="emergency-origin">
            {emergencyOrigin(costs.emergency)}
          </p>
        </>
      ) : null}
      {superAdmin ? (
        <Button
          variant={costs.emergency.active ? 'secondary' : 'danger'}
          className="mt-3"
          data-testid="emergency-switch"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate(!costs.emergency.active)}
        >
          {toggle.isPending ? <Spinner /> : null}
          {costs.emergency.active ? STATS_TEXTS.stats_emergency_off : STATS_TEXTS.stats_emergency_on}
        </Button>
      ) : null}
    </section>
  );
}

/** A titled chart with its figures beside it on a wide screen, under it on a narrow one. */
function ChartSection({ title, chart, children }: { title: string; chart: ReactNode; children: ReactNode }) {
  return (
    <section className={`${card} grid gap-4 lg:grid-cols-[1fr_15rem]`}>
      <div>
        <h3 className="mb-2 font-bold text-ink-900 dark:text-white">{title}</h3>
        {chart}
      </div>
      <div>{children}</div>
    </section>
  );
}

function Charts({ stats, dark }: { stats: StatsResponse; dark: boolean }) {
  const days = useMemo(() => stats.days.map((d) => d.day), [stats]);
  const eventSeries = useMemo<Series[]>(
    () =>
      ANALYTICS_EVENTS.map((e) => ({
        label: ANALYTICS_LABELS[e],
        colour: COLOURS[e],
        values: stats.days.map((d) => d.events[e]),
      })),
    [stats],
  );
  const audienceSeries = useMemo<Series[]>(
    () => [
      { label: STATS_TEXTS.stats_visitors, colour: '#0ea5e9', values: stats.days.map((d) => d.visitors) },
      { label: STATS_TEXTS.stats_messages, colour: '#f97316', values: stats.days.map((d) => d.messages) },
      { label: STATS_TEXTS.stats_revenue, colour: '#eab308', values: stats.days.map((d) => d.revenueCents / 100) },
    ],
    [stats],
  );
  const today = stats.days.at(-1);
  const total = (pick: (d: StatsResponse['days'][number]) => number) => stats.days.reduce((sum, d) => sum + pick(d), 0);
  return (
    <>
      <ChartSection
        title={STATS_TEXTS.stats_events_chart}
        chart={<LineChart days={days} series={eventSeries} dark={dark} testId="stats-events-chart" />}
      >
        <p className="mb-1 text-xs font-semibold text-slate-500 uppercase dark:text-slate-400">{today?.day}</p>
        <Numbers
          rows={ANALYTICS_EVENTS.map((e) => [ANALYTICS_LABELS[e], fr(today?.events[e] ?? 0), `stats-today-${e}`])}
        />
      </ChartSection>
      <ChartSection
        title={STATS_TEXTS.stats_audience_chart}
        chart={<LineChart days={days} series={audienceSeries} dark={dark} testId="stats-audience-chart" />}
      >
        <Numbers
          rows={[
            [STATS_TEXTS.stats_posts_live, fr(stats.postsLive), 'stats-posts-live'],
            [STATS_TEXTS.stats_visitors, fr(today?.visitors ?? 0), 'stats-today-visitors'],
            [STATS_TEXTS.stats_messages, fr(today?.messages ?? 0), 'stats-today-messages'],
            [STATS_TEXTS.stats_revenue, eur((today?.revenueCents ?? 0) / 100), 'stats-today-revenue'],
            [`${STATS_TEXTS.stats_revenue} — ${STATS_TEXTS.stats_total}`, eur(total((d) => d.revenueCents) / 100)],
          ]}
        />
      </ChartSection>
    </>
  );
}

export function StatsTab({ staffRole }: { staffRole: string }) {
  const [range, setRange] = useState<StatsRange>(7);
  const dark = useThemeStore((s) => s.theme === 'dark');
  const stats = useQuery({
    queryKey: ['stats', range],
    queryFn: ({ signal }) => fetchStats(range, signal),
    staleTime: 30_000,
  });
  const costs = useQuery({ queryKey: ['costs'], queryFn: ({ signal }) => fetchCosts(signal), staleTime: 15_000 });
  const error = stats.error ?? costs.error;
  return (
    <div className="space-y-4" data-testid="stats-tab">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <fieldset className="inline-flex min-w-0 gap-1 rounded-xl bg-slate-100 p-1 dark:bg-ink-800">
          {([7, 30, 90] as const).map((days) => (
            <button
              key={days}
              type="button"
              aria-pressed={range === days}
              onClick={() => setRange(days)}
              className={`rounded-lg px-3 py-1.5 text-sm font-semibold ${range === days ? 'bg-white text-ink-900 shadow-sm dark:bg-ink-600 dark:text-white' : 'text-slate-500 dark:text-slate-400'}`}
            >
              {statsText('stats_range', { days })}
            </button>
          ))}
        </fieldset>
        <Button
          variant="secondary"
          disabled={!stats.data}
          data-testid="stats-export"
          onClick={() => stats.data && downloadCsv(`moodmap-statistiques-${range}j.csv`, statsCsv(stats.data.days))}
        >
          {STATS_TEXTS.stats_export_csv}
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {t('admin_load_error', { message: error.message })}
        </p>
      ) : null}
      {stats.data ? (
        <Charts stats={stats.data} dark={dark} />
      ) : stats.isPending ? (
        <Spinner className="size-6 text-brand-500" />
      ) : null}
      {costs.data ? <Costs costs={costs.data} superAdmin={staffRole === 'super_admin'} /> : null}
    </div>
  );
}
