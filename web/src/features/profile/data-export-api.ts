/** 'Télécharger mes données' (server/src/modules/account/export-routes.ts) and its query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataExportStatus } from '@moodmap/core';
import { MINUTE, SHELL_MESSAGES } from '@moodmap/core';
import { api, ApiError } from '../../lib/api.ts';
import { getAccessToken } from '../../lib/auth-tokens.ts';
import { useSessionStore } from '../auth/session-store.ts';

export const dataExportKey = ['account', 'export'] as const;
const PATH = '/api/account/export';
/** While the archive is being prepared, its state is asked for this often. */
const PENDING_POLL_MS = 3_000;

export function useDataExport() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return useQuery({
    queryKey: dataExportKey,
    enabled: signedIn,
    queryFn: ({ signal }) => api<DataExportStatus>(PATH, { signal }),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });
}

export function useRequestDataExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<DataExportStatus>(PATH, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: dataExportKey }),
  });
}

/**
 * Saves the archive: it needs the access token, which a plain link cannot send, so the ZIP is
 * fetched and handed to the browser as a file. The state read first renews an expired token.
 */
export async function downloadDataExport(): Promise<void> {
  await api<DataExportStatus>(PATH);
  const token = getAccessToken();
  let response: Response;
  try {
    response = await fetch(`${PATH}/download`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', SHELL_MESSAGES.internal_error);
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const error = body && typeof body === 'object' && 'error' in body ? body.error : null;
    const message =
      error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
        ? error.message
        : SHELL_MESSAGES.internal_error;
    throw new ApiError(response.status, 'download_failed', message);
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'moodmap-donnees.zip';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file; the blob may go once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), MINUTE);
}
