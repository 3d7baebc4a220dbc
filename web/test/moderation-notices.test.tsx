// @vitest-environment jsdom
/**
 * Moderation in the browser: the own profile's moderation notices (statement of reasons with
 * 'Faire appel', sent once), the suspension's end, the blocked list with 'Débloquer', and the
 * 'Bloquer' button on another person's profile.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetSessionForTests, useSessionStore } from '../src/features/auth/session-store.ts';
import { BlockedList } from '../src/features/moderation/BlockedList.tsx';
import { AppealLinkScreen } from '../src/features/moderation/AppealLinkScreen.tsx';
import { BlockButton } from '../src/features/moderation/BlockButton.tsx';
import { NoticesPanel } from '../src/features/moderation/NoticesPanel.tsx';
import { applySession } from '../src/lib/auth-tokens.ts';
import { fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

const STATEMENT = {
  id: 'n1',
  kind: 'statement',
  title: 'Exposé des motifs',
  createdAt: '2026-03-05T10:00:00.000Z',
  read: false,
  decisionId: 'd1',
  lines: ['Ce qui a été décidé : Retirer la publication.', 'Pourquoi : Spam ou publicité.'],
  canAppeal: true,
  appealStatus: null,
};
const OTHER = 'b0000000-0000-4000-8000-000000000000';

function render(element: React.ReactNode) {
  return renderRoutes([{ path: '/', element }], '/');
}

freshSessionEachTest();
beforeEach(() => applySession(sessionBody(1)));

describe('moderation in the own profile', () => {
  it('shows the statement of reasons and the suspension, and sends an appeal once', async () => {
    let appealed = false;
    const server = fakeApi({
      'GET /api/moderation/notices': () =>
        json(200, {
          notices: [
            appealed
              ? {
                  ...STATEMENT,
                  canAppeal: false,
                  appealStatus: 'open',
                  lines: [...STATEMENT.lines, "Recours en cours d'examen"],
                }
              : STATEMENT,
          ],
          unread: 1,
          suspendedUntil: '2026-12-24T14:00:00.000Z',
        }),
      'POST /api/moderation/decisions/d1/appeal': () => {
        appealed = true;
        return json(201, { appeal: {} });
      },
    });
    render(<NoticesPanel />);
    const notice = await screen.findByTestId('moderation-notice');
    expect(notice.textContent).toContain('Ce qui a été décidé : Retirer la publication.');
    expect(screen.getByTestId('suspension-notice').textContent).toMatch(/^Compte suspendu jusqu'au 24 décembre 2026/);
    fireEvent.click(within(notice).getByTestId('appeal-open'));
    fireEvent.change(within(notice).getByTestId('appeal-text'), { target: { value: "C'était une blague" } });
    fireEvent.click(within(notice).getByTestId('appeal-submit'));
    await waitFor(() => expect(server.callsTo('POST /api/moderation/decisions/d1/appeal')).toHaveLength(1));
    expect(server.callsTo('POST /api/moderation/decisions/d1/appeal')[0]!.body).toEqual({
      statement: "C'était une blague",
    });
    await waitFor(() =>
      expect(screen.getByTestId('moderation-notice').textContent).toContain("Recours en cours d'examen"),
    );
    expect(screen.queryByTestId('appeal-open')).toBeNull();
  });

  it('a banned author, signed out, reads the statement from the mailed link and appeals once', async () => {
    resetSessionForTests();
    useSessionStore.setState({ status: 'ready' });
    let appealed = false;
    const server = fakeApi({
      'GET /api/moderation/appeal-link': () =>
        json(200, {
          title: 'Exposé des motifs',
          lines: ["Ce qui a été décidé : Bannir l'auteur.", ...(appealed ? ["Recours en cours d'examen"] : [])],
          canAppeal: !appealed,
          appealStatus: appealed ? 'open' : null,
        }),
      'POST /api/moderation/appeal-link': () => {
        appealed = true;
        return json(201, { status: 'filed' });
      },
    });
    renderRoutes([{ path: '/appeal', element: <AppealLinkScreen /> }], '/appeal?token=d1.mac');
    const page = await screen.findByTestId('appeal-link');
    expect(screen.getByRole('dialog').textContent).toContain("Faire appel d'une décision de modération");
    expect(page.textContent).toContain("Ce qui a été décidé : Bannir l'auteur.");
    fireEvent.change(within(page).getByTestId('appeal-text'), { target: { value: "Je n'ai rien fait d'illégal" } });
    fireEvent.click(within(page).getByTestId('appeal-submit'));
    await waitFor(() => expect(server.callsTo('POST /api/moderation/appeal-link')).toHaveLength(1));
    expect(server.callsTo('POST /api/moderation/appeal-link')[0]!.body).toEqual({
      token: 'd1.mac',
      statement: "Je n'ai rien fait d'illégal",
    });
    await waitFor(() => expect(screen.getByTestId('appeal-link').textContent).toContain("Recours en cours d'examen"));
    expect(screen.queryByTestId('appeal-submit')).toBeNull();
  });

  it('says so when the appeal link is not valid', async () => {
    fakeApi({
      'GET /api/moderation/appeal-link': () =>
        json(404, { error: { code: 'appeal_link_invalid', message: "Ce lien de recours n'est pas valide" } }),
    });
    renderRoutes([{ path: '/appeal', element: <AppealLinkScreen /> }], '/appeal?token=faux');
    expect((await screen.findByTestId('appeal-link-error')).textContent).toBe("Ce lien de recours n'est pas valide");
  });

  it('lists the people I blocked and unblocks one', async () => {
    let blocked = [{ id: OTHER, nickname: 'Gênant', profilePhotoUrl: null, blockedAt: '2026-03-05T10:00:00.000Z' }];
    const server = fakeApi({
      'GET /api/blocks': () => json(200, { blocked }),
      [`DELETE /api/blocks/${OTHER}`]: () => {
        blocked = [];
        return json(200, { userId: OTHER, blocked: false });
      },
    });
    render(<BlockedList />);
    const list = await screen.findByTestId('blocked-list');
    await within(list).findByText('Gênant');
    fireEvent.click(within(list).getByRole('button', { name: 'Débloquer' }));
    await waitFor(() => expect(server.callsTo(`DELETE /api/blocks/${OTHER}`)).toHaveLength(1));
    expect(await within(list).findByText("Vous n'avez bloqué personne")).toBeTruthy();
  });

  it("blocks from another person's profile, and shows nothing on one's own", async () => {
    const server = fakeApi({
      'GET /api/blocks': () => json(200, { blocked: [] }),
      [`PUT /api/blocks/${OTHER}`]: () => json(200, { userId: OTHER, blocked: true }),
    });
    render(
      <>
        <BlockButton userId={OTHER} />
        <BlockButton userId={useSessionStore.getState().user!.id} />
      </>,
    );
    const buttons = await screen.findAllByTestId('block-user');
    expect(buttons).toHaveLength(1);
    await waitFor(() => expect((buttons[0] as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(buttons[0]!);
    await waitFor(() => expect(server.callsTo(`PUT /api/blocks/${OTHER}`)).toHaveLength(1));
  });
});
