/** GET /api/terms and POST /api/terms/accept (core's schemas/terms.ts). */
import type { TermsStatus } from '@moodmap/core';
import { api } from '../../lib/api.ts';

export const termsKey = (userId: string | null) => ['terms', userId] as const;

export const fetchTerms = (signal?: AbortSignal) => api<TermsStatus>('/api/terms', { signal });

export const acceptTerms = (version: string) =>
  api<{ version: string; acceptedAt: string }>('/api/terms/accept', { method: 'POST', body: { version } });
