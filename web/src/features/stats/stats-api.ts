/** The statistics tab's calls: GET /api/stats, GET /api/costs, PUT /api/costs/emergency (core's schemas). */
import type { CostsResponse, EmergencyStatus, StatsResponse } from '@moodmap/core';
import { api } from '../../lib/api.ts';

export type StatsRange = 7 | 30 | 90;

export const fetchStats = (days: StatsRange, signal?: AbortSignal) =>
  api<StatsResponse>(`/api/stats?days=${days}`, { signal });
export const fetchCosts = (signal?: AbortSignal) => api<CostsResponse>('/api/costs', { signal });
export const setEmergency = (active: boolean) =>
  api<EmergencyStatus>('/api/costs/emergency', { method: 'PUT', body: { active } });
