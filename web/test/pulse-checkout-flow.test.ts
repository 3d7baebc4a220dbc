/**
 * The Pulse purchase flow's timing and texts (docs/product.md, Pulse): popup 800×600 polled
 * every 1 s up to 300 s, 2 s after it closes the balance is read; mobile leaves in the same
 * window; the product's French error texts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FlowDeps, PENDING_KEY, runPurchase } from '../src/features/pulse/checkout-flow.ts';
import { fakeApi, json } from './support/auth-fixtures.ts';

function fakeDeps(popup: { closed: boolean; close: () => void; location: { href: string } } | null, mobile = false) {
  let clock = 0;
  const sleeps: number[] = [];
  const stored = new Map<string, string>();
  const deps: FlowDeps = {
    mobile,
    returnTo: '/create',
    openWindow: vi.fn(() => popup as unknown as Window),
    assign: vi.fn(),
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    storage: { setItem: (k, v) => void stored.set(k, v) },
  };
  return { deps, sleeps, stored };
}

const checkoutOk = () => json(200, { url: '/dev/checkout/cs_dev_abcdefghijkl', sessionId: 'cs_dev_abcdefghijkl' });
const purchases = (credits: number) => () => json(200, { credits, purchases: [] });

describe('Pulse purchase flow', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('desktop: polls the popup every second, waits 2 s after it closes, then reads a higher balance', async () => {
    fakeApi({ 'POST /api/pulse/checkout': checkoutOk, 'GET /api/pulse/purchases': purchases(5) });
    const popup = { closed: false, close: vi.fn(), location: { href: '' } };
    const { deps, sleeps } = fakeDeps(popup);
    let polls = 0;
    deps.sleep = async (ms) => {
      sleeps.push(ms);
      polls += 1;
      if (polls === 3) popup.closed = true;
    };
    const outcome = await runPurchase(5, 0, deps);
    expect(deps.openWindow).toHaveBeenCalledWith('', 'moodmap-pulse-checkout', 'width=800,height=600');
    expect(popup.location.href).toBe('/dev/checkout/cs_dev_abcdefghijkl');
    expect(sleeps).toEqual([1000, 1000, 1000, 2000]);
    expect(outcome).toEqual({ kind: 'credited', credits: 5, added: 5 });
  });

  it('desktop: closes the popup after 300 s and reports an unchanged balance', async () => {
    fakeApi({ 'POST /api/pulse/checkout': checkoutOk, 'GET /api/pulse/purchases': purchases(0) });
    const popup = { closed: false, close: vi.fn(() => void (popup.closed = true)), location: { href: '' } };
    const { deps, sleeps } = fakeDeps(popup);
    const outcome = await runPurchase(1, 0, deps);
    expect(popup.close).toHaveBeenCalledTimes(1);
    expect(sleeps.filter((ms) => ms === 1000)).toHaveLength(300);
    expect(sleeps.at(-1)).toBe(2000);
    expect(outcome).toEqual({ kind: 'unchanged', credits: 0 });
  });

  it('mobile: remembers the balance and goes to the checkout in the same window, asking to come back', async () => {
    const api = fakeApi({ 'POST /api/pulse/checkout': checkoutOk });
    const { deps, stored } = fakeDeps(null, true);
    expect(await runPurchase(5, 2, deps)).toEqual({ kind: 'redirecting' });
    expect(deps.openWindow).not.toHaveBeenCalled();
    expect(deps.assign).toHaveBeenCalledWith('/dev/checkout/cs_dev_abcdefghijkl');
    expect(api.callsTo('POST /api/pulse/checkout')[0]!.body).toEqual({ quantity: 5, returnTo: '/create' });
    expect(JSON.parse(stored.get(PENDING_KEY) ?? '')).toEqual({ before: 2, quantity: 5 });
  });

  it('answers with the product’s French texts: session missing, the server’s error or the generic one, missing URL', async () => {
    const cases: Array<[() => Response, string]> = [
      [
        () => json(401, { error: { code: 'not_authenticated', message: 'User not authenticated' } }),
        'Session non trouvée. Veuillez vous reconnecter.',
      ],
      [
        () =>
          json(503, {
            error: { code: 'payment_unavailable', message: 'Le paiement par carte n’est pas configuré sur ce serveur' },
          }),
        'Le paiement par carte n’est pas configuré sur ce serveur',
      ],
      [() => new Response('oops', { status: 500 }), 'Erreur lors de la création de la session de paiement'],
      [() => json(200, { url: '', sessionId: 'x' }), 'URL de redirection manquante'],
    ];
    for (const [answer, message] of cases) {
      fakeApi({ 'POST /api/pulse/checkout': answer });
      const popup = { closed: false, close: vi.fn(), location: { href: '' } };
      const { deps } = fakeDeps(popup);
      expect(await runPurchase(1, 0, deps)).toEqual({ kind: 'error', message });
      expect(popup.close).toHaveBeenCalled();
    }
  });
});
