// @vitest-environment jsdom
/**
 * The notice of the next terms version: a compact card a member can close, remembered for that
 * version only; its link opens the new text with its additions marked. Each version has its own
 * text, and the one in force is the one accepted.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LaunchLayer } from '../src/features/terms/LaunchLayer.tsx';
import { useTermsUi } from '../src/features/terms/terms-store.ts';
import { termsSections } from '../src/features/terms/terms-text.ts';
import { applySession } from '../src/lib/auth-tokens.ts';
import { fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

const CURRENT = { version: '2026-11-24', effectiveAt: '2026-11-24T00:00:00.000Z' };
const NEXT = { version: '2026-12-28', effectiveAt: '2026-12-28T00:00:00.000Z' };
const LATER = { version: '2027-03-01', effectiveAt: '2027-03-01T00:00:00.000Z' };

freshSessionEachTest();
beforeEach(() => useTermsUi.getState().hide());

/** Signs a member in and shows the layer while the server announces `upcoming`. */
function renderAnnouncing(upcoming: typeof NEXT) {
  fakeApi({
    'GET /api/terms': () =>
      json(200, { current: CURRENT, upcoming, acceptedVersion: CURRENT.version, mustAccept: false }),
    'GET /api/emergency': () => json(200, { active: false, until: null }),
  });
  applySession(sessionBody(1));
  const { client } = renderRoutes([{ path: '/', element: <LaunchLayer /> }]);
  return {
    answered: () =>
      client
        .getQueryCache()
        .findAll({ queryKey: ['terms'] })
        .some((q) => q.state.status === 'success'),
  };
}

const allText = (version: string) =>
  termsSections(version)
    .flatMap((s) => s.paragraphs.map((p) => p.text))
    .join('\n');

describe('the next version of the terms', () => {
  it('is announced with its date, and its link opens the new text with its additions marked', async () => {
    renderAnnouncing(NEXT);
    const notice = await screen.findByRole('status', { name: "Conditions d'utilisation" });
    expect(notice.textContent).toContain("Nos conditions d'utilisation changent le 28 décembre 2026.");

    fireEvent.click(within(notice).getByRole('button', { name: 'Voir les nouvelles conditions' }));
    const modal = await screen.findByTestId('terms-modal');
    expect(within(modal).getAllByTestId('terms-section')).toHaveLength(14);
    expect(within(modal).getByTestId('terms-version').textContent).toContain('applicable à partir du 28 décembre 2026');
    const added = within(modal)
      .getAllByTestId('terms-new-paragraph')
      .map((p) => p.textContent);
    expect(added.some((text) => text?.startsWith('Nouveau ') && text.includes('Télécharger mes données'))).toBe(true);
    expect(within(modal).queryByTestId('terms-accept')).toBeNull();

    // The version in force, one click away: without the additions.
    fireEvent.click(within(modal).getByRole('button', { name: 'Voir la version en vigueur' }));
    expect(within(modal).getByTestId('terms-version').textContent).toContain(
      'Version en vigueur depuis le 24 novembre 2026.',
    );
    expect(within(modal).queryAllByTestId('terms-new-paragraph')).toHaveLength(0);
    expect(modal.textContent).not.toContain('Télécharger mes données');
  });

  it('stays closed for that version once closed, and comes back for a later one', async () => {
    renderAnnouncing(NEXT);
    fireEvent.click(await screen.findByRole('button', { name: "Masquer l'annonce des nouvelles conditions" }));
    expect(screen.queryByTestId('terms-notice')).toBeNull();

    // Another visit, the same version announced: still closed.
    cleanup();
    const again = renderAnnouncing(NEXT);
    await waitFor(() => expect(again.answered()).toBe(true));
    expect(screen.queryByTestId('terms-notice')).toBeNull();

    cleanup();
    renderAnnouncing(LATER);
    expect((await screen.findByTestId('terms-notice')).textContent).toContain('changent le 1 mars 2027.');
  });

  it('cannot be closed when the version in force is still to accept', async () => {
    fakeApi({
      'GET /api/terms': () => json(200, { current: CURRENT, upcoming: null, acceptedVersion: null, mustAccept: true }),
      'GET /api/emergency': () => json(200, { active: false, until: null }),
    });
    applySession(sessionBody(1));
    renderRoutes([{ path: '/', element: <LaunchLayer /> }]);
    const notice = await screen.findByTestId('terms-notice');
    expect(notice.textContent).toContain('Acceptez-les pour continuer.');
    expect(within(notice).queryByRole('button', { name: "Masquer l'annonce des nouvelles conditions" })).toBeNull();
  });
});

describe('the text of each version', () => {
  it('keeps the first version as it was accepted, and gives the next one its own clauses', () => {
    const first = allText(CURRENT.version);
    const next = allText(NEXT.version);
    for (const clause of [
      'Compte supprimé',
      'Télécharger mes données',
      'Signaler un contenu illicite',
      '« Demandes »',
    ]) {
      expect(first).not.toContain(clause);
      expect(next).toContain(clause);
    }
    expect(first).toContain('Tout membre peut signaler une publication. Notre équipe');
    expect(next).not.toContain('Tout membre peut signaler une publication. Notre équipe');
    expect(
      termsSections(CURRENT.version)
        .flatMap((s) => s.paragraphs)
        .some((p) => p.isNew),
    ).toBe(false);
    expect(termsSections(NEXT.version)).toHaveLength(14);
  });
});
