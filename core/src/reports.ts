/** Post report reasons: the key the API takes and the label stored and shown. */
export const REPORT_REASONS = [
  { key: 'spam', label: 'Spam ou publicité' },
  { key: 'inappropriate', label: 'Contenu inapproprié' },
  { key: 'harassment', label: 'Harcèlement' },
  { key: 'fake', label: 'Fausse information' },
  { key: 'illegal', label: 'Contenu illégal' },
  { key: 'other', label: 'Autre motif' },
] as const;

export type ReportReasonKey = (typeof REPORT_REASONS)[number]['key'];

const [firstReason, ...otherReasons] = REPORT_REASONS;
/** Non-empty, as z.enum wants it. */
export const REPORT_REASON_KEYS: readonly [ReportReasonKey, ...ReportReasonKey[]] = [
  firstReason.key,
  ...otherReasons.map((r) => r.key),
];

/** The reason whose details are mandatory. */
export const REPORT_REASON_OTHER: ReportReasonKey = 'other';

export function reportReasonLabel(key: ReportReasonKey): string {
  return REPORT_REASONS.find((r) => r.key === key)!.label;
}
