/** The statistics as CSV (one row per day), for the tab's export; semicolons and decimal commas as French spreadsheets expect. */
import { ANALYTICS_EVENTS, ANALYTICS_LABELS, type StatsDay } from '@moodmap/core';

const cell = (value: string | number) => {
  const text = typeof value === 'number' ? String(value).replace('.', ',') : value;
  return /[;"\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function statsCsv(days: StatsDay[]): string {
  const header = [
    'Jour',
    ...ANALYTICS_EVENTS.map((e) => ANALYTICS_LABELS[e]),
    'Visiteurs uniques',
    'Revenus (EUR)',
    'Messages',
  ];
  const rows = days.map((d) => [
    d.day,
    ...ANALYTICS_EVENTS.map((e) => d.events[e]),
    d.visitors,
    d.revenueCents / 100,
    d.messages,
  ]);
  return `${[header, ...rows].map((row) => row.map(cell).join(';')).join('\r\n')}\r\n`;
}

export function downloadCsv(name: string, text: string): void {
  // The BOM makes spreadsheet programs read the accents as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
