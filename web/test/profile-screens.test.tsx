// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { frDate, type PostDto } from '@moodmap/core';
import { openProfileModal, useUiStore } from '../src/lib/ui-store.ts';
import { ProfileModal } from '../src/features/profile/ProfileModal.tsx';
import { ProfileScreen, photoProblem } from '../src/features/profile/ProfileScreen.tsx';
import { UserProfileScreen } from '../src/features/profile/UserProfileScreen.tsx';
import { applySession, loadSessionSchemas } from '../src/lib/auth-tokens.ts';
import { TierBadge, tierOf } from '../src/ui/TierBadge.tsx';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { apiUser, fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { makeAuthor, makePost } from './support/posts.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

const OTHER = 'b2c3d4e5-0000-4000-8000-000000000002';
const DAY = 24 * 60 * 60 * 1000;

function post(id: string, overrides: Partial<PostDto> = {}) {
  return makePost({
    id,
    userId: OTHER,
    category: 'party',
    content: `Texte de ${id}`,
    latitude: -21.06,
    longitude: 55.21,
    nickname: 'Noa',
    createdAt: new Date(Date.now() - 2.5 * 60 * 60 * 1000).toISOString(),
    author: makeAuthor('Noa'),
    ...overrides,
  });
}

function publicProfile(id: string, posts: unknown[] = [], flags: Record<string, boolean> = {}) {
  return {
    profile: {
      id,
      username: id === OTHER ? 'Noa' : 'Camille',
      bio: 'Surfeuse à Saint-Leu',
      profilePhotoUrl: null,
      avatarUrl: null,
      createdAt: '2025-03-04T10:00:00.000Z',
      isPremium: false,
      isPro: false,
      isPlus: false,
      isMulti: false,
      ...flags,
    },
    posts,
  };
}

function Map() {
  const location = useLocation();
  return <p data-testid="map-state">{JSON.stringify(location.state)}</p>;
}

function Messages() {
  const location = useLocation();
  return <p data-testid="messages-page">{location.search}</p>;
}

function renderAt(path: string) {
  return renderRoutes(
    [
      {
        path: '/',
        element: <ProfileModal />,
        children: [],
      },
      { path: '/map', element: <Map /> },
      { path: '/profile', element: <ProfileScreen /> },
      { path: '/user/:userId', element: <UserProfileScreen /> },
      { path: '/messages', element: <Messages /> },
      { path: '/create', element: <p>publier</p> },
    ],
    path,
  ).router;
}

const toasts = () => useToastStore.getState().toasts.map((t) => t.message);

// A session reaches applySession through parseSession, which has fetched the session schemas.
beforeAll(async () => {
  await loadSessionSchemas();
});

freshSessionEachTest();
beforeEach(() => {
  useUiStore.setState({ profileModalUserId: null, authMode: null });
  useToastStore.setState({ toasts: [] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('tier badge precedence', () => {
  it('puts multi first in the modal and plus first on the profile page', () => {
    const both = { isMulti: true, isPlus: true, isPro: true, isPremium: true };
    expect(tierOf(both, 'modal')).toBe('Multi');
    expect(tierOf(both, 'page')).toBe('Plus');
    expect(tierOf({ isPro: true, isPremium: true }, 'modal')).toBe('Pro');
    expect(tierOf({ isPro: true, isPremium: true }, 'page')).toBe('Pro');
    expect(tierOf({ isPremium: true }, 'page')).toBe('Premium');
    expect(tierOf({}, 'modal')).toBeNull();
    render(<TierBadge flags={{ isMulti: true, isPlus: true }} place="modal" />);
    expect(screen.getByTestId('tier-badge').textContent).toBe('Multi');
    cleanup();
    render(<TierBadge flags={{ isMulti: true, isPlus: true }} place="page" />);
    expect(screen.getByTestId('tier-badge').textContent).toBe('Plus');
    cleanup();
    // No tier: 'Gratuit'.
    render(<TierBadge flags={{}} place="page" />);
    expect(screen.getByTestId('tier-badge').textContent).toBe('Gratuit');
    cleanup();
    render(<TierBadge flags={{}} place="modal" showFree={false} />);
    expect(screen.queryByTestId('tier-badge')).toBeNull();
  });

  it('shows each precedence where it belongs: modal Multi, page Plus for the same user', async () => {
    fakeApi({
      [`GET /api/profiles/${OTHER}`]: () => json(200, publicProfile(OTHER, [], { isMulti: true, isPlus: true })),
    });
    renderAt(`/user/${OTHER}`);
    const page = await screen.findByTestId('public-profile');
    expect(within(page).getByTestId('tier-badge').textContent).toBe('Plus');
    cleanup();
    renderAt('/');
    openProfileModal(OTHER);
    const modal = await screen.findByTestId('profile-modal-body');
    expect(within(modal).getByTestId('tier-badge').textContent).toBe('Multi');
  });
});

describe('/profile', () => {
  it('shows the nickname as blocked with the next allowed date after a change this month', async () => {
    const last = new Date(Date.now() - 10 * DAY);
    fakeApi({ 'GET /api/profiles/u-1': () => json(200, publicProfile('u-1')) });
    applySession(sessionBody(1, apiUser({}, { lastUsernameChange: last.toISOString() })));
    renderAt('/profile');
    const blocked = screen.getByTestId('nickname-blocked');
    expect(blocked.textContent).toContain('Vous avez déjà modifié votre pseudo ce mois-ci.');
    expect(screen.getByTestId('nickname-next-date').textContent).toBe(
      `Prochain changement possible le ${frDate(new Date(last.getTime() + 30 * DAY))}`,
    );
    expect(screen.queryByTestId('nickname-edit')).toBeNull();
  });

  it('validates the nickname with the core rules, then saves it', async () => {
    const server = fakeApi({
      'GET /api/profiles/u-1': () => json(200, publicProfile('u-1')),
      'PATCH /api/profiles/me': () =>
        json(200, { user: apiUser({}, { username: 'Camille_974', lastUsernameChange: new Date().toISOString() }) }),
    });
    applySession(sessionBody(1));
    renderAt('/profile');
    fireEvent.click(screen.getByTestId('nickname-edit'));
    // The button it replaces is gone: the focus is in the field.
    expect(document.activeElement).toBe(screen.getByTestId('nickname-input'));
    fireEvent.change(screen.getByTestId('nickname-input'), { target: { value: '2024' } });
    fireEvent.click(screen.getByTestId('nickname-save'));
    expect(screen.getByTestId('nickname-error').textContent).toBe(
      'Le pseudo ne peut pas être composé uniquement de chiffres',
    );
    fireEvent.change(screen.getByTestId('nickname-input'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('nickname-save'));
    expect(screen.getByTestId('nickname-error').textContent).toBe('Le pseudo doit contenir entre 2 et 50 caractères');
    expect(server.callsTo('PATCH /api/profiles/me')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('nickname-input'), { target: { value: '  Camille_974 ' } });
    fireEvent.click(screen.getByTestId('nickname-save'));
    await waitFor(() => expect(screen.getByTestId('profile-nickname').textContent).toBe('Camille_974'));
    expect(server.callsTo('PATCH /api/profiles/me')[0]!.body).toEqual({ nickname: 'Camille_974' });
    expect(toasts()).toContain('Pseudo modifié avec succès !');
    expect(screen.getByTestId('nickname-blocked')).toBeTruthy();
  });

  it('turns the bio counter red above 450 characters and saves an empty bio as removed', async () => {
    const server = fakeApi({
      'GET /api/profiles/u-1': () => json(200, publicProfile('u-1')),
      'PATCH /api/profiles/me': () => json(200, { user: apiUser({}, { bio: null }) }),
    });
    applySession(sessionBody(1, apiUser({}, { bio: 'Ancienne bio' })));
    renderAt('/profile');
    expect(screen.getByTestId('bio-edit').textContent).toBe('Modifier la bio');
    fireEvent.click(screen.getByTestId('bio-edit'));
    const input = screen.getByTestId('bio-input');
    expect(document.activeElement).toBe(input);
    const counter = () => screen.getByTestId('bio-counter');
    fireEvent.change(input, { target: { value: 'a'.repeat(450) } });
    expect(counter().textContent).toBe('450/500');
    expect(counter().className).not.toContain('text-red');
    fireEvent.change(input, { target: { value: 'a'.repeat(451) } });
    expect(counter().textContent).toBe('451/500');
    expect(counter().className).toContain('text-red-600');
    fireEvent.change(input, { target: { value: 'a'.repeat(501) } });
    fireEvent.click(screen.getByTestId('bio-save'));
    expect(screen.getByTestId('bio-error').textContent).toBe('La bio ne peut pas dépasser 500 caractères');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('bio-save'));
    await waitFor(() => expect(toasts()).toContain('Bio mise à jour avec succès !'));
    expect(server.callsTo('PATCH /api/profiles/me')[0]!.body).toEqual({ bio: null });
    expect(screen.getByTestId('bio-edit').textContent).toBe('Ajouter une bio');
  });

  it('pre-checks the photo type and size with their French texts', () => {
    expect(photoProblem({ type: 'image/svg+xml', size: 10 })).toBe(
      'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.',
    );
    expect(photoProblem({ type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe(
      "La taille de l'image ne doit pas dépasser 5MB",
    );
    expect(photoProblem({ type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull();
  });

  it("lists my live posts with countdown, pulse badge and 'Voir sur carte'", async () => {
    fakeApi({
      'GET /api/profiles/u-1': () =>
        json(
          200,
          publicProfile('u-1', [
            post('p1', { userId: 'u-1', hasPulseEffect: true, imageUrl: '/media/p1.jpg' }),
            post('p2', { userId: 'u-1', isVoiceOnly: true, content: 'Message vocal' }),
          ]),
        ),
    });
    applySession(sessionBody(1));
    const router = renderAt('/profile');
    expect((await screen.findByTestId('my-posts-title')).textContent).toBe('Publications (2)');
    const [first, second] = screen.getAllByTestId('my-post');
    expect(within(first!).getByTestId('pulse-badge')).toBeTruthy();
    expect(within(first!).getByText('Texte de p1')).toBeTruthy();
    expect(within(first!).getByTestId('my-post-expires').textContent).toBe('Expire dans 21h');
    expect(within(second!).queryByText('Message vocal')).toBeNull();
    fireEvent.click(within(first!).getByTestId('my-post-see-on-map'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.state).toEqual({ focusPostId: 'p1' });
  });
});

describe('profile modal', () => {
  it('hides "Envoyer un message" from a visitor and from oneself, and shows 6 posts with 3 thumbnails', async () => {
    const posts = Array.from({ length: 8 }, (_, i) =>
      post(`p${i}`, { mediaUrls: ['/a.jpg', '/b.jpg', '/c.jpg', '/d.jpg'] }),
    );
    fakeApi({
      [`GET /api/profiles/${OTHER}`]: () => json(200, publicProfile(OTHER, posts)),
      'GET /api/profiles/u-1': () => json(200, publicProfile('u-1')),
    });
    renderAt('/');
    openProfileModal(OTHER);
    const modal = await screen.findByTestId('profile-modal');
    await within(modal).findByTestId('profile-modal-body');
    expect(within(modal).getByText('Profil utilisateur')).toBeTruthy();
    expect(within(modal).getByText('Surfeuse à Saint-Leu')).toBeTruthy();
    expect(within(modal).getByTestId('profile-member-since').textContent).toBe(
      `Membre depuis ${frDate('2025-03-04T10:00:00.000Z')}`,
    );
    expect(within(modal).queryByTestId('profile-send-message')).toBeNull();
    const items = within(modal).getAllByTestId('profile-modal-post');
    expect(items).toHaveLength(6);
    expect(within(items[0]!).getAllByTestId('profile-modal-thumb')).toHaveLength(3);
    expect(within(modal).getByTestId('profile-full-link').getAttribute('href')).toBe(`/user/${OTHER}`);

    // Signed in as the profile's owner: still hidden.
    applySession(sessionBody(1));
    useUiStore.getState().openProfileModal('u-1');
    await waitFor(() => expect(screen.getByTestId('profile-modal-body').getAttribute('data-user-id')).toBe('u-1'));
    expect(screen.getByText('Aucune publication pour le moment')).toBeTruthy();
    expect(screen.queryByTestId('profile-send-message')).toBeNull();
  });

  it('shows "Envoyer un message" to another signed-in user, which opens the conversation', async () => {
    const server = fakeApi({
      [`GET /api/profiles/${OTHER}`]: () => json(200, publicProfile(OTHER)),
      'POST /api/conversations': () =>
        json(201, {
          conversation: {
            id: 'c-9',
            participant1Id: 'u-a',
            participant2Id: 'u-b',
            createdAt: '2026-11-24T10:00:00.000Z',
            updatedAt: '2026-11-24T10:00:00.000Z',
          },
        }),
    });
    applySession(sessionBody(1));
    const router = renderAt('/');
    openProfileModal(OTHER);
    fireEvent.click(await screen.findByTestId('profile-send-message'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/messages'));
    expect(router.state.location.search).toBe('?conversation=c-9');
    expect(server.callsTo('POST /api/conversations')[0]!.body).toEqual({ userId: OTHER });
    expect(useUiStore.getState().profileModalUserId).toBeNull();
  });

  it("says 'Erreur lors de la création de la conversation' when the endpoint is missing, and 'Profil introuvable' for nobody", async () => {
    fakeApi({ [`GET /api/profiles/${OTHER}`]: () => json(200, publicProfile(OTHER)) });
    applySession(sessionBody(1));
    renderAt('/');
    openProfileModal(OTHER);
    fireEvent.click(await screen.findByTestId('profile-send-message'));
    await waitFor(() => expect(toasts()).toContain('Erreur lors de la création de la conversation'));
    openProfileModal('b2c3d4e5-0000-4000-8000-00000000dead');
    expect((await screen.findByTestId('profile-not-found')).textContent).toContain('Profil introuvable');
  });
});

describe('/user/:userId', () => {
  it('shows the header, À propos and a grid whose items go back to the map centred on the post', async () => {
    fakeApi({
      [`GET /api/profiles/${OTHER}`]: () =>
        json(200, publicProfile(OTHER, [post('p1'), post('p2', { thumbnailUrl: '/t.jpg' })])),
    });
    applySession(sessionBody(1));
    const router = renderAt(`/user/${OTHER}`);
    const page = await screen.findByTestId('public-profile');
    expect(within(page).getByTestId('profile-username').textContent).toBe('Noa');
    expect(within(page).getByTestId('profile-about').textContent).toContain('À propos');
    expect(within(page).getByTestId('profile-about-text').textContent).toBe(publicProfile(OTHER).profile.bio);
    expect(within(page).getByTestId('profile-send-message')).toBeTruthy();
    expect(within(page).getByTestId('profile-posts-title').textContent).toBe('Publications (2)');
    fireEvent.click(within(page).getAllByTestId('profile-grid-post')[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.state).toEqual({ focusPostId: 'p2' });
  });

  it("hides the send button on one's own page and shows 'Profil introuvable' with 'Retour' for nobody", async () => {
    const mine = publicProfile('u-1');
    fakeApi({ 'GET /api/profiles/u-1': () => json(200, { ...mine, profile: { ...mine.profile, bio: null } }) });
    applySession(sessionBody(1));
    renderAt('/user/u-1');
    await screen.findByTestId('public-profile');
    expect(screen.queryByTestId('profile-send-message')).toBeNull();
    // Without a bio, the card says so rather than disappearing.
    expect(screen.getByTestId('profile-about-empty').textContent).toBe('Pas encore de bio.');
    expect(screen.getByText('Aucune publication pour le moment')).toBeTruthy();
    cleanup();
    renderAt('/user/nobody');
    expect((await screen.findByTestId('profile-not-found')).textContent).toContain('Profil introuvable');
    expect(screen.getByRole('button', { name: 'Retour' })).toBeTruthy();
  });
});
