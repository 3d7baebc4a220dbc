/**
 * Forwards analytics events to a Plausible server through its events API
 * (`POST /api/event`, https://plausible.io/docs/events-api) when PLAUSIBLE_URL and
 * PLAUSIBLE_DOMAIN are set. Plausible counts unique visitors from the User-Agent and
 * X-Forwarded-For headers with its own daily salt, so they are passed through; nothing else
 * about the person is sent. A failure never reaches the caller: analytics are best effort.
 */
export interface ForwardedEvent {
  name: string;
  path: string;
  revenueCents?: number;
  userAgent?: string;
  ip?: string;
}

export interface AnalyticsForwarder {
  forward(event: ForwardedEvent): Promise<void>;
}

const TIMEOUT_MS = 3_000;

export function createPlausibleForwarder(options: {
  url: string;
  domain: string;
  fetchImpl?: typeof fetch;
  onError?: (error: unknown) => void;
}): AnalyticsForwarder {
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    async forward(event) {
      const body: Record<string, unknown> = {
        name: event.name,
        domain: options.domain,
        url: `https://${options.domain}${event.path}`,
      };
      // Plausible's revenue goals take the amount as a decimal string with its currency.
      if (event.revenueCents) body.revenue = { currency: 'EUR', amount: (event.revenueCents / 100).toFixed(2) };
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': event.userAgent || 'MoodMap server',
      };
      if (event.ip) headers['x-forwarded-for'] = event.ip;
      try {
        const res = await fetchImpl(`${options.url}/api/event`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (!res.ok) options.onError?.(new Error(`plausible ${res.status}`));
        await res.body?.cancel();
      } catch (error) {
        options.onError?.(error);
      }
    },
  };
}
