// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REPORT_REASONS } from '@moodmap/core';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { makePost, renderPopup } from './support/interactions.tsx';
import { popupViewerEachTest } from './support/popup-viewer.ts';

const toasts = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);
const submit = () => screen.getByTestId('report-submit') as HTMLButtonElement;
const details = () => screen.getByTestId('report-details') as HTMLTextAreaElement;
const choose = (label: string) =>
  fireEvent.click(within(screen.getByTestId('report-dialog')).getByRole('radio', { name: label }));

/** The dialog is a chunk of its own, fetched when the flag is pressed. */
function openDialog() {
  renderPopup(makePost());
  fireEvent.click(screen.getByTestId('post-report'));
  return screen.findByTestId('report-dialog');
}

popupViewerEachTest({ id: 'me', email: 'me@x.fr', nickname: 'Moi' });

describe('report dialog', () => {
  it('shows the flag only to a signed-in viewer who is not the author', () => {
    renderPopup(makePost());
    expect(screen.getByTestId('post-report').getAttribute('aria-label')).toBe('Signaler la publication');
    cleanup();
    useSessionStore.setState({ user: null });
    renderPopup(makePost());
    expect(screen.queryByTestId('post-report')).toBeNull();
    cleanup();
    useSessionStore.setState({ user: { id: 'author-1', email: 'lea@x.fr', nickname: 'Léa' } });
    renderPopup(makePost());
    expect(screen.queryByTestId('post-report')).toBeNull();
  });

  it("offers the six reasons with their labels; 'Autre motif' needs details; the counter stops at 500; submit waits until valid", async () => {
    const dialog = await openDialog();
    expect(within(dialog).getByRole('heading').textContent).toBe('Signaler la publication');
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(REPORT_REASONS.map((r) => r.label));
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['spam', 'inappropriate', 'harassment', 'fake', 'illegal', 'other']);
    expect(submit().disabled).toBe(true);
    expect(screen.getByTestId('report-counter').textContent).toBe('0/500');

    choose('Autre motif');
    expect(submit().disabled).toBe(true);
    expect(screen.getByTestId('report-details-required')).toBeTruthy();
    fireEvent.change(details(), { target: { value: '    ' } });
    expect(submit().disabled).toBe(true);
    fireEvent.change(details(), { target: { value: 'Numéro de téléphone affiché' } });
    expect(screen.getByTestId('report-counter').textContent).toBe('27/500');
    expect(submit().disabled).toBe(false);
    fireEvent.change(details(), { target: { value: 'a'.repeat(501) } });
    expect(screen.getByTestId('report-counter').textContent).toBe('501/500');
    expect(details().getAttribute('aria-invalid')).toBe('true');
    expect(submit().disabled).toBe(true);
    fireEvent.change(details(), { target: { value: 'a'.repeat(500) } });
    expect(submit().disabled).toBe(false);

    // Any other reason goes without details.
    fireEvent.change(details(), { target: { value: '' } });
    choose('Spam ou publicité');
    expect(screen.queryByTestId('report-details-required')).toBeNull();
    expect(submit().disabled).toBe(false);
  });

  it('sends the reason and details, thanks the reporter and closes', async () => {
    const api = fakeApi({ 'POST /api/posts/p-1/report': () => json(201, { status: 'reported' }) });
    await openDialog();
    choose('Autre motif');
    fireEvent.change(details(), { target: { value: 'Photo volée à un ami' } });
    fireEvent.click(submit());
    await waitFor(() => expect(screen.queryByTestId('report-dialog')).toBeNull());
    expect(api.callsTo('POST /api/posts/p-1/report')[0]!.body).toEqual({
      reason: 'other',
      details: 'Photo volée à un ami',
    });
    expect(toasts()).toContainEqual([
      'success',
      'Publication signalée avec succès. Merci de nous aider à maintenir une communauté saine.',
    ]);
  });

  it("shows the server's message on a refusal, and 'Erreur lors du signalement' otherwise", async () => {
    fakeApi({
      'POST /api/posts/p-1/report': () =>
        json(409, { error: { code: 'report_duplicate', message: 'Vous avez déjà signalé cette publication' } }),
    });
    await openDialog();
    choose('Harcèlement');
    fireEvent.click(submit());
    await waitFor(() => expect(toasts()).toContainEqual(['error', 'Vous avez déjà signalé cette publication']));

    cleanup();
    useToastStore.setState({ toasts: [] });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await openDialog();
    choose('Contenu illégal');
    fireEvent.click(submit());
    await waitFor(() => expect(toasts()).toContainEqual(['error', 'Erreur lors du signalement']));
    // Nothing was lost: the person can try again.
    expect(screen.getByTestId('report-dialog')).toBeTruthy();
    expect(submit().disabled).toBe(false);
  });
});
