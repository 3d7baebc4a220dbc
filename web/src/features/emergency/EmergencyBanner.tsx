/**
 * The emergency-mode banner (docs/product.md, Roles and staff): the server decides
 * (cost monitor or a super_admin's switch); every tab asks it now and then and on focus.
 */
import { useQuery } from '@tanstack/react-query';
import type { EmergencyStatus } from '@moodmap/core';
import { MESSAGES } from '@moodmap/core';
import { request } from '../../lib/http.ts';

export const emergencyKey = ['emergency'] as const;

export function EmergencyBanner() {
  const status = useQuery({
    queryKey: emergencyKey,
    queryFn: ({ signal }) => request<EmergencyStatus>('/api/emergency', { signal }),
    refetchInterval: 30_000,
    staleTime: 15_000,
  });
  if (!status.data?.active) return null;
  return (
    <div
      role="alert"
      data-testid="emergency-banner"
      className="fixed inset-x-0 top-0 z-[55] bg-amber-500 px-4 py-2 text-center text-sm font-semibold text-ink-900 shadow-md"
    >
      {MESSAGES.emergency_banner}
    </div>
  );
}
