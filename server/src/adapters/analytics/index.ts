/** The analytics engine behind one variable: Plausible when configured, else events stay first-party only. */
import type { Config } from '../../config.ts';
import { createPlausibleForwarder, type AnalyticsForwarder } from './plausible.ts';

export type { AnalyticsForwarder, ForwardedEvent } from './plausible.ts';

export function createAnalyticsForwarder(
  config: Config,
  onError?: (error: unknown) => void,
): AnalyticsForwarder | null {
  return config.plausible ? createPlausibleForwarder({ ...config.plausible, onError }) : null;
}
