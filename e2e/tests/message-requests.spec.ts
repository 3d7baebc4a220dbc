/**
 * Message requests: Zoé, a stranger, writes to Léa. Léa's 'Demandes' tab counts it as it comes,
 * with no toast and no badge; she opens it, accepts, and answers; Zoé, whose chat is open, sees
 * the answer arrive live, and Zoé's next message reaches Léa's open chat the same way.
 */
import type { APIRequestContext } from '@playwright/test';
import { PASSWORD, createConfirmedAccount, expectSignedIn, signInThroughModal, uniqueEmail } from '../support/auth.ts';
import { openMapAt } from '../support/map.ts';
import { shotBothThemes } from '../support/screens.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const clientAddress = clientAddresses('203.0.123');
const FIRST = 'Salut ! Je t’ai vue sur la carte, on se croise au marché ?';
const ANSWER = 'Bonjour Zoé, oui, vers 10 h devant les épices.';
const NEXT = 'Parfait, à tout à l’heure !';
const SPOT = { latitude: -20.8789, longitude: 55.4481, zoom: 13 };

async function apiLogin(request: APIRequestContext, email: string): Promise<{ token: string; id: string }> {
  const response = await request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
    headers: clientAddress(),
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { accessToken: string; user: { id: string } };
  return { token: body.accessToken, id: body.user.id };
}

test('a request is accepted, then answered in real time', async ({ browser, request }) => {
  const leaEmail = uniqueEmail('lea-request');
  const zoeEmail = uniqueEmail('zoe-request');
  await createConfirmedAccount(request, { email: leaEmail, firstName: 'Léa', lastName: 'Hoarau' });
  await createConfirmedAccount(request, { email: zoeEmail, firstName: 'Zoé', lastName: 'Grondin' });
  const lea = await apiLogin(request, leaEmail);
  const zoe = await apiLogin(request, zoeEmail);
  const opened = await request.post('/api/conversations', {
    data: { userId: lea.id },
    headers: { Authorization: `Bearer ${zoe.token}`, ...clientAddress() },
  });
  expect(opened.status(), await opened.text()).toBe(201);
  const conversationId = ((await opened.json()) as { conversation: { id: string } }).conversation.id;

  const options = { viewport: { width: 1280, height: 860 }, locale: 'fr-FR', timezoneId: 'Indian/Reunion' };
  const leaCtx = await browser.newContext({ ...options, extraHTTPHeaders: clientAddress() });
  const zoeCtx = await browser.newContext({ ...options, extraHTTPHeaders: clientAddress() });
  const leaPage = await leaCtx.newPage();
  const zoePage = await zoeCtx.newPage();
  for (const [page, email] of [
    [leaPage, leaEmail],
    [zoePage, zoeEmail],
  ] as const) {
    await openMapAt(page, SPOT);
    await signInThroughModal(page, email, PASSWORD);
    await expectSignedIn(page, true);
  }
  await leaPage.goto('/messages');
  await expect(leaPage.getByTestId('box-requests')).toHaveText('Demandes');
  await zoePage.goto(`/messages?conversation=${conversationId}`);

  // Zoé writes first: sent on her side; on Léa's, only the count of 'Demandes' moves.
  await zoePage.getByTestId('message-input').fill(FIRST);
  await zoePage.getByTestId('message-send').click();
  await expect(zoePage.getByTestId('message-bubble')).toHaveCount(1);
  await expect(leaPage.getByTestId('box-requests')).toHaveText('Demandes (1)');
  await expect(leaPage.getByTestId('message-toast')).toHaveCount(0);
  await expect(leaPage.getByTestId('nav-messages').getByTestId('unread-badge')).toHaveCount(0);
  await expect(
    leaPage.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`),
  ).toHaveCount(0);

  // Léa opens the request: its message, and the three choices instead of the composer.
  await leaPage.getByTestId('box-requests').click();
  await leaPage.locator(`[data-testid="request-list"] [data-conversation-id="${conversationId}"]`).click();
  await expect(leaPage.getByTestId('message-bubble')).toHaveCount(1);
  await expect(leaPage.getByTestId('message-bubble')).toContainText(FIRST);
  const actions = leaPage.getByTestId('request-actions');
  await expect(actions).toContainText('Zoé souhaite vous écrire');
  await expect(actions.getByTestId('request-delete')).toHaveText('Supprimer');
  await expect(actions.getByTestId('request-block')).toHaveText('Bloquer et signaler');
  await expect(leaPage.getByTestId('message-input')).toHaveCount(0);
  await shotBothThemes(leaPage, 'message-request');
  await actions.getByTestId('request-accept').click();

  // Accepted: the composer is back, the request gone from 'Demandes', the conversation in the list.
  await expect(leaPage.getByTestId('request-actions')).toHaveCount(0);
  await expect(leaPage.getByTestId('box-requests')).toHaveText('Demandes');
  await leaPage.getByTestId('message-input').fill(ANSWER);
  await leaPage.getByTestId('message-send').click();
  await expect(leaPage.getByTestId('message-bubble')).toHaveCount(2);

  // Zoé's open chat gets the answer live, and her next message reaches Léa's open chat.
  await expect(zoePage.getByTestId('message-bubble')).toHaveCount(2);
  await expect(zoePage.getByTestId('message-bubble').last()).toContainText(ANSWER);
  await zoePage.getByTestId('message-input').fill(NEXT);
  await zoePage.getByTestId('message-send').click();
  await expect(leaPage.getByTestId('message-bubble')).toHaveCount(3);
  await expect(leaPage.getByTestId('message-bubble').last()).toContainText(NEXT);
  await leaPage.getByTestId('box-conversations').click();
  const item = leaPage.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`);
  await expect(item).toBeVisible();

  // Zoé deletes her account: Léa keeps what she received, from 'Compte supprimé', and cannot answer.
  const deleted = await request.post('/api/account/delete', {
    data: { password: PASSWORD },
    headers: { Authorization: `Bearer ${zoe.token}`, ...clientAddress() },
  });
  expect(deleted.status(), await deleted.text()).toBe(204);
  await expect(item).toContainText('Compte supprimé');
  await item.click();
  await expect(leaPage.getByTestId('chat-deleted-account')).toContainText('Compte supprimé');
  await expect(leaPage.getByTestId('message-bubble')).toHaveCount(3);
  await expect(leaPage.getByTestId('message-bubble').first()).toContainText(FIRST);
  await expect(leaPage.getByTestId('composer-closed')).toHaveText('Ce compte a été supprimé.');
  await expect(leaPage.getByTestId('message-input')).toHaveCount(0);
  await shotBothThemes(leaPage, 'message-deleted-account');

  await leaCtx.close();
  await zoeCtx.close();
});
