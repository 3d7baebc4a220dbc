/**
 * The profile's 'Notifications' section: the devices that receive pushes, each with
 * its preview switch and 'Retirer'; this browser can be enabled here too (the offer after a
 * first message is made only once).
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, frDate, t } from '@moodmap/core';
import { errorText } from '../../lib/api.ts';
import { Spinner } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import {
  PushSetupError,
  enablePush,
  forgetDevice,
  pushSupported,
  rememberOfferAnswer,
  thisDeviceId,
} from './browser-push.ts';
import { pushDevicesKey, useDevices, useSetPreview } from './devices-query.ts';

const SMALL =
  'inline-flex min-h-9 items-center justify-center gap-1.5 rounded-xl px-3 text-xs font-semibold text-brand-700 transition hover:bg-brand-50 disabled:opacity-50 dark:text-brand-300 dark:hover:bg-white/5';

/** A failed device step: the browser's own setup refusal, or the server's (lib/api.ts). */
const deviceErrorText = (error: unknown, fallback: string) =>
  error instanceof PushSetupError && error.message ? error.message : errorText(error, fallback);

export function PushDevices() {
  const client = useQueryClient();
  const devices = useDevices();
  const setPreview = useSetPreview();
  const [busy, setBusy] = useState<string | null>(null);
  const mine = thisDeviceId();
  const registered = devices.data?.some((d) => d.id === mine) ?? false;

  const refresh = () => client.invalidateQueries({ queryKey: pushDevicesKey });
  const enable = async () => {
    setBusy('enable');
    try {
      await enablePush();
      rememberOfferAnswer('enabled');
      toast.success(MESSAGES.push_enabled);
    } catch (error) {
      toast.error(deviceErrorText(error, MESSAGES.push_failed));
    } finally {
      setBusy(null);
      void refresh();
    }
  };
  const remove = async (id: string) => {
    setBusy(id);
    try {
      await forgetDevice(id);
      toast.success(MESSAGES.push_device_removed);
    } catch (error) {
      toast.error(deviceErrorText(error, MESSAGES.internal_error));
    } finally {
      setBusy(null);
      void refresh();
    }
  };

  return (
    <section className="mt-8" data-testid="push-devices" aria-labelledby="push-devices-title">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h3 id="push-devices-title" className="text-base font-bold text-ink-900 dark:text-white">
          {MESSAGES.push_devices_title}
        </h3>
        {pushSupported() && !registered ? (
          <button
            type="button"
            className={SMALL}
            onClick={() => void enable()}
            disabled={busy !== null}
            data-testid="push-enable"
          >
            {busy === 'enable' ? <Spinner /> : null}
            {MESSAGES.push_devices_enable}
          </button>
        ) : null}
      </div>
      {!devices.data?.length ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{MESSAGES.push_devices_empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-2xl ring-1 ring-slate-200 dark:divide-white/5 dark:ring-white/10">
          {devices.data.map((device) => {
            const previewId = `push-preview-${device.id}`;
            return (
              <li
                key={device.id}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5"
                data-testid="push-device"
                data-device-id={device.id}
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">
                    {device.label || MESSAGES.push_device_unknown}
                    {device.id === mine ? (
                      <span className="ml-2 text-xs font-semibold text-brand-700 dark:text-brand-300">
                        {MESSAGES.push_device_this}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {t('push_device_since', { date: frDate(device.createdAt) })}
                  </p>
                </div>
                <label htmlFor={previewId} className="flex items-center gap-2 text-sm">
                  <input
                    id={previewId}
                    type="checkbox"
                    role="switch"
                    aria-checked={device.preview}
                    className="size-4 accent-brand-700"
                    checked={device.preview}
                    disabled={setPreview.isPending}
                    data-testid="push-device-preview"
                    onChange={(event) =>
                      setPreview.mutate(
                        { id: device.id, preview: event.target.checked },
                        { onError: (error) => toast.error(deviceErrorText(error, MESSAGES.internal_error)) },
                      )
                    }
                  />
                  {MESSAGES.push_device_preview}
                </label>
                <button
                  type="button"
                  className={SMALL}
                  onClick={() => void remove(device.id)}
                  disabled={busy !== null}
                  data-testid="push-device-remove"
                >
                  {busy === device.id ? <Spinner /> : null}
                  {MESSAGES.push_device_remove}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
