// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { termsAt } from '@moodmap/core';
import { resetSessionForTests, useSessionStore } from '../src/features/auth/session-store.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { AuthModal } from '../src/features/auth/AuthModal.tsx';
import { apiUser, fakeApi, json, sessionBody } from './support/auth-fixtures.ts';

const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

function openModal(mode: 'login' | 'register' | 'forgot') {
  useUiStore.getState().openAuth(mode);
  render(<AuthModal />);
  return within(screen.getByTestId('auth-modal'));
}

const submitRegister = (modal: ReturnType<typeof within>) =>
  fireEvent.click(modal.getByRole('button', { name: 'Créer un compte' }));
/** Ticks « J'accepte les conditions d'utilisation ». */
const acceptTerms = (modal: ReturnType<typeof within>) => fireEvent.click(modal.getByTestId('terms-checkbox'));
const alertText = (modal: ReturnType<typeof within>) => modal.getByRole('alert').textContent;

function fill(
  modal: ReturnType<typeof within>,
  values: Partial<Record<'Prénom' | 'Nom' | 'Email' | 'Mot de passe' | 'Confirmer le mot de passe', string>>,
) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(modal.getByLabelText(label, { exact: true }), { target: { value } });
  }
}

const VALID = {
  Prénom: 'Camille',
  Nom: 'Martin',
  Email: 'camille@exemple.fr',
  'Mot de passe': 'Secret123',
  'Confirmer le mot de passe': 'Secret123',
};

describe('register mode: the fields, the human check and the trap fields', () => {
  let challenges: number;
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
    useUiStore.setState({ authMode: null, authEmail: '' });
    challenges = 0;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function serverWith(signup: () => Response) {
    return fakeApi({
      'GET /api/auth/challenge': () => {
        challenges += 1;
        return json(200, {
          token: `T${challenges}`,
          question: challenges === 1 ? 'Combien font 3 + 4 ?' : 'Combien font 6 × 7 ?',
        });
      },
      'POST /api/auth/signup': signup,
    });
  }

  /** Sends the register form filled in with VALID, the terms accepted, and `answer` to the first question. */
  async function registerAnswering(answer: string) {
    const modal = openModal('register');
    await modal.findByText('Combien font 3 + 4 ?');
    fill(modal, VALID);
    acceptTerms(modal);
    fireEvent.change(modal.getByLabelText('Combien font 3 + 4 ?'), { target: { value: answer } });
    submitRegister(modal);
    return modal;
  }

  it('shows the question, checks the fields in the form’s order, then sends the answer and the honeypots', async () => {
    const server = serverWith(() => json(201, { status: 'confirmation_sent', email: 'camille@exemple.fr' }));
    const modal = openModal('register');
    expect(screen.getByRole('heading', { name: 'Créer un compte' })).toBeTruthy();
    expect((await modal.findByTestId('challenge-question')).textContent).toBe('Combien font 3 + 4 ?');
    const answer = modal.getByLabelText('Combien font 3 + 4 ?');
    expect(answer.getAttribute('placeholder')).toBe('Votre réponse');

    const steps: Array<[Partial<Record<keyof typeof VALID, string>>, string]> = [
      [{}, 'Veuillez remplir tous les champs'],
      [{ ...VALID, Nom: '' }, 'Veuillez remplir tous les champs'],
      [{ ...VALID, Email: 'camille.exemple.fr' }, 'Veuillez entrer une adresse email valide'],
      [
        { ...VALID, 'Mot de passe': 'Sec1', 'Confirmer le mot de passe': 'Sec1' },
        'Le mot de passe doit contenir au moins 8 caractères',
      ],
      [
        { ...VALID, 'Mot de passe': 'secret123', 'Confirmer le mot de passe': 'secret123' },
        'Le mot de passe doit contenir au moins une majuscule, une minuscule et un chiffre',
      ],
      [{ ...VALID, 'Confirmer le mot de passe': 'Secret124' }, 'Les mots de passe ne correspondent pas'],
      [{ ...VALID, Prénom: 'C' }, 'Le prénom doit contenir entre 2 et 50 caractères'],
      [{ ...VALID, Nom: 'Martin-de-la-Fontaine' }, 'Le nom doit contenir entre 2 et 18 caractères'],
      [{ ...VALID, Email: '<script>x</script>@a.fr' }, "Format d'email invalide détecté"],
      [VALID, 'Veuillez compléter la vérification anti-robot'],
    ];
    for (const [values, message] of steps) {
      fill(modal, { Prénom: '', Nom: '', Email: '', 'Mot de passe': '', 'Confirmer le mot de passe': '', ...values });
      submitRegister(modal);
      expect(alertText(modal)).toBe(message);
    }
    expect(server.callsTo('POST /api/auth/signup')).toHaveLength(0);

    // Honeypots: present, hidden from people and assistive technology, out of the tab order.
    for (const name of ['website', 'fax']) {
      const trap = document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
      expect(trap.tabIndex).toBe(-1);
      expect(trap.getAttribute('autocomplete')).toBe('off');
      expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    }

    fireEvent.change(answer, { target: { value: ' 7 ' } });
    // Everything right but the terms: refused, nothing sent.
    submitRegister(modal);
    expect(alertText(modal)).toBe("Vous devez accepter les conditions d'utilisation");
    expect(server.callsTo('POST /api/auth/signup')).toHaveLength(0);
    acceptTerms(modal);
    submitRegister(modal);
    expect(modal.getByRole('button', { name: 'Création en cours...' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Vérifiez votre email' })).toBeTruthy());
    expect(server.callsTo('POST /api/auth/signup')[0]!.body).toEqual({
      email: 'camille@exemple.fr',
      password: 'Secret123',
      firstName: 'Camille',
      lastName: 'Martin',
      challengeToken: 'T1',
      challengeAnswer: '7',
      website: '',
      fax: '',
      termsVersion: termsAt(new Date()).current.version,
    });
    const confirmation = screen.getByTestId('auth-modal');
    expect(confirmation.textContent).toContain('camille@exemple.fr');
    expect(confirmation.textContent).toContain("jusqu'à 5 minutes");
  });

  it('brings a new question after a wrong answer, and keeps it after a too-fast one', async () => {
    let answers = 0;
    const server = serverWith(() => {
      answers += 1;
      if (answers === 1)
        return error(400, 'human_check_failed', 'Réponse incorrecte à la vérification anti-robot. Veuillez réessayer.');
      return error(400, 'human_check_too_fast', 'Réponse trop rapide, prenez votre temps (1/2)');
    });
    const modal = await registerAnswering('8');
    await waitFor(() =>
      expect(alertText(modal)).toBe('Réponse incorrecte à la vérification anti-robot. Veuillez réessayer.'),
    );
    const next = await modal.findByLabelText('Combien font 6 × 7 ?');
    expect((next as HTMLInputElement).value).toBe('');
    expect(server.callsTo('GET /api/auth/challenge')).toHaveLength(2);

    fireEvent.change(next, { target: { value: '42' } });
    submitRegister(modal);
    await waitFor(() => expect(alertText(modal)).toBe('Réponse trop rapide, prenez votre temps (1/2)'));
    expect(server.callsTo('GET /api/auth/challenge')).toHaveLength(2);
    expect((modal.getByLabelText('Combien font 6 × 7 ?') as HTMLInputElement).value).toBe('42');
    expect((server.callsTo('POST /api/auth/signup')[1]!.body as { challengeToken: string }).challengeToken).toBe('T2');
  });

  it("shows the server's own text for other refusals", async () => {
    serverWith(() => error(409, 'email_taken', 'Cette adresse email est déjà utilisée'));
    const modal = await registerAnswering('7');
    await waitFor(() => expect(alertText(modal)).toBe('Cette adresse email est déjà utilisée'));
  });
});

describe('login and forgot-password modes', () => {
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
    useSessionStore.setState({ status: 'ready' });
    useUiStore.setState({ authMode: null, authEmail: '' });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('signs in and closes', async () => {
    fakeApi({ 'POST /api/auth/login': () => json(200, sessionBody(1, apiUser())) });
    const modal = openModal('login');
    fireEvent.change(modal.getByLabelText('Email'), { target: { value: 'camille@exemple.fr' } });
    fireEvent.change(modal.getByLabelText('Mot de passe'), { target: { value: 'Secret123' } });
    fireEvent.click(modal.getByRole('button', { name: 'Se connecter' }));
    await waitFor(() => expect(useUiStore.getState().authMode).toBeNull());
    expect(useSessionStore.getState().user?.nickname).toBe('Camille');
    // The refresh token is the server's HttpOnly cookie: only the sign-in marker is stored.
    expect(localStorage.getItem('moodmap.session')).not.toBeNull();
    expect(localStorage.getItem('moodmap.refreshToken')).toBeNull();
  });

  it('sends a reset request and shows the e-mail-sent view; a rate limit shows its text', async () => {
    let calls = 0;
    const server = fakeApi({
      'POST /api/auth/recover': () =>
        ++calls === 1
          ? json(200, { status: 'sent' })
          : error(429, 'reset_rate_limited', 'Trop de demandes. Veuillez patienter avant de réessayer.'),
    });
    const modal = openModal('login');
    fireEvent.change(modal.getByLabelText('Email'), { target: { value: 'camille@exemple.fr' } });
    fireEvent.click(modal.getByRole('button', { name: 'Mot de passe oublié ?' }));
    expect(screen.getByRole('heading', { name: 'Mot de passe oublié' })).toBeTruthy();
    // The address typed at login comes along.
    expect((modal.getByLabelText('Email') as HTMLInputElement).value).toBe('camille@exemple.fr');
    fireEvent.change(modal.getByLabelText('Email'), { target: { value: '' } });
    fireEvent.click(modal.getByRole('button', { name: 'Envoyer le lien' }));
    expect(alertText(modal)).toBe('Veuillez entrer votre adresse email');
    fireEvent.change(modal.getByLabelText('Email'), { target: { value: 'camille@exemple.fr' } });
    fireEvent.click(modal.getByRole('button', { name: 'Envoyer le lien' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Email envoyé' })).toBeTruthy());
    expect(server.callsTo('POST /api/auth/recover')[0]!.body).toEqual({ email: 'camille@exemple.fr' });

    act(() => useUiStore.getState().openAuth('forgot'));
    fireEvent.click(modal.getByRole('button', { name: 'Envoyer le lien' }));
    await waitFor(() => expect(alertText(modal)).toBe('Trop de demandes. Veuillez patienter avant de réessayer.'));
  });
});
