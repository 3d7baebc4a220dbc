/**
 * A daily line chart drawn by uPlot, fetched only when the statistics tab opens (never on the
 * map's first load). The numbers are always in the table beside it, so the chart may be absent
 * while it loads.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { STATS_TEXTS } from '@moodmap/core';

export interface Series {
  label: string;
  colour: string;
  values: number[];
}

export function LineChart({
  days,
  series,
  dark,
  testId,
}: {
  days: string[];
  series: Series[];
  dark: boolean;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const axis = {
        stroke: dark ? '#cbd5e1' : '#475569',
        grid: { stroke: dark ? 'rgba(255,255,255,0.08)' : 'rgba(15,23,42,0.08)' },
        ticks: { show: false },
      };
      const x = days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
      chart = new UPlot(
        {
          width: Math.max(280, el.clientWidth),
          height: 220,
          series: [
            { label: STATS_TEXTS.stats_day },
            ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2, points: { show: days.length <= 31 } })),
          ],
          axes: [axis, axis],
          scales: { x: { time: true } },
          legend: { show: true },
          fmtDate: () => (d: Date) => d.toLocaleDateString('fr-FR', { day: 'numeric', month: 'short' }),
        },
        [x, ...series.map((s) => s.values)],
        el,
      );
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [days, series, dark]);
  return (
    <div
      ref={box}
      data-testid={testId}
      className="min-h-[260px] w-full overflow-hidden text-xs text-slate-600 dark:text-slate-300"
    />
  );
}
