// @vitest-environment jsdom
/**
 * A decision takes its post out of the queue, and its form with it: the moderator is still told
 * it was recorded (or refused), even when the queue has been reloaded before the answer came.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ModerationAppeal, ReportGroup } from '@moodmap/core';
import { AdminScreen } from '../src/features/admin/AdminScreen.tsx';
import { applySession } from '../src/lib/auth-tokens.ts';
import { Toaster } from '../src/ui/toasts/Toaster.tsx';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { WAIT, deferred, fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

freshSessionEachTest();
beforeEach(() => useToastStore.setState({ toasts: [] }));

const SNAPSHOT = {
  content: 'Publication à modérer',
  category: 'angry',
  nickname: 'Noa',
  createdAt: '2026-03-05T10:00:00.000Z',
  imageUrl: null,
  audioUrl: null,
};
const GROUP: ReportGroup = {
  postId: 'p1',
  postState: 'live',
  count: 3,
  reasons: [{ key: 'harassment', label: 'Harcèlement ou intimidation', count: 3 }],
  details: [],
  snapshot: SNAPSHOT,
  author: { id: 'u-noa', nickname: 'Noa' },
  reporters: [{ id: 'u-lea', nickname: 'Léa' }],
  dsaNotices: [],
  firstReportedAt: '2026-03-05T11:00:00.000Z',
};
const APPEAL: ModerationAppeal = {
  id: 'a1',
  statement: "C'était une citation",
  createdAt: '2026-03-05T12:00:00.000Z',
  status: 'open',
  decision: {
    id: 'd1',
    postId: 'p2',
    authorId: 'u-noa',
    moderatorId: 'u-other',
    action: 'remove',
    suspendDays: null,
    reason: 'harassment',
    note: null,
    createdAt: '2026-03-05T11:30:00.000Z',
    appealUntil: '2026-09-05T11:30:00.000Z',
    reversed: false,
    snapshot: SNAPSHOT,
  },
  author: { id: 'u-noa', nickname: 'Noa' },
  decidedByYou: false,
};

/** The moderator's panel on 'Signalements'; the queue answers `queue()` each time it is asked. */
async function openReports(
  queue: () => { reports: ReportGroup[]; appeals: ModerationAppeal[] },
  answer: Promise<Response>,
  route: string,
) {
  fakeApi({
    'GET /api/auth/role': () => json(200, { role: 'moderator' }),
    'POST /api/admin/visit': () => json(200, { role: 'moderator' }),
    'GET /api/admin/users': () => json(200, { users: [], nextCursor: null, total: 0 }),
    'GET /api/admin/security-logs': () => json(200, { logs: [], nextCursor: null, total: 0 }),
    'GET /api/moderation/queue': () => json(200, queue()),
    [route]: () => answer,
  });
  applySession(sessionBody(1));
  renderRoutes(
    [
      {
        path: '/admin',
        element: (
          <>
            <AdminScreen />
            <Toaster />
          </>
        ),
      },
    ],
    '/admin',
  );
  const panel = await screen.findByTestId('admin-panel', undefined, WAIT);
  fireEvent.click(await within(panel).findByRole('tab', { name: /^Signalements/ }, WAIT));
  return panel;
}

describe('a staff decision whose form is gone before the answer', () => {
  it("still says 'Décision enregistrée'", async () => {
    let decided = false;
    const answer = deferred<Response>();
    const panel = await openReports(
      () => ({ reports: decided ? [] : [GROUP], appeals: [] }),
      answer.promise,
      'POST /api/moderation/posts/p1/decision',
    );
    const group = await within(panel).findByTestId('report-group', undefined, WAIT);
    fireEvent.change(within(group).getByTestId('decision-reason'), { target: { value: 'harassment' } });
    fireEvent.click(within(group).getByTestId('decision-submit'));
    // The server has decided; the moderator reloads the queue before its answer arrives.
    decided = true;
    fireEvent.click(within(panel).getByRole('button', { name: 'Actualiser' }));
    await within(panel).findByText('Aucun signalement en attente', undefined, WAIT);
    answer.resolve(json(200, { decision: {} }));
    expect((await screen.findByTestId('toast-success', undefined, WAIT)).textContent).toContain('Décision enregistrée');
  });

  it("still says 'Recours traité', or why it was refused", async () => {
    let decided = false;
    const answer = deferred<Response>();
    const panel = await openReports(
      () => ({ reports: [], appeals: decided ? [] : [APPEAL] }),
      answer.promise,
      'POST /api/moderation/appeals/a1/decision',
    );
    const appeal = await within(panel).findByTestId('appeal-item', undefined, WAIT);
    fireEvent.click(within(appeal).getByTestId('appeal-reverse'));
    decided = true;
    fireEvent.click(within(panel).getByRole('button', { name: 'Actualiser' }));
    await waitFor(() => expect(within(panel).queryByTestId('appeal-item')).toBeNull(), WAIT);
    answer.resolve(json(409, { error: { code: 'conflict', message: 'Ce recours a déjà été traité' } }));
    expect((await screen.findByTestId('toast-error', undefined, WAIT)).textContent).toContain(
      'Ce recours a déjà été traité',
    );
  });
});
