// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { MAP, type PostDto } from '@moodmap/core';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { makePost } from './support/posts.ts';

// WebGL does not exist in jsdom: the picker is a stand-in that moves the pin on demand.
vi.mock('../src/features/posts/create/LocationPicker.tsx', () => ({
  default: ({
    value,
    onChange,
  }: {
    value: { latitude: number; longitude: number } | null;
    onChange: (v: { latitude: number; longitude: number }) => void;
  }) => (
    <div data-testid="location-picker" data-latitude={value?.latitude} data-longitude={value?.longitude}>
      <button type="button" onClick={() => onChange({ latitude: -35, longitude: 70 })}>
        pick-sea
      </button>
    </div>
  ),
}));

const { CreateScreen } = await import('../src/features/posts/CreateScreen.tsx');
const { useSessionStore } = await import('../src/features/auth/session-store.ts');
const { submitPost } = await import('../src/features/posts/create/submit.ts');
const { textWarnings, validateCreateForm, imageFileError } = await import('../src/features/posts/create/validation.ts');
const { ApiError } = await import('../src/lib/api.ts');

function Home() {
  const location = useLocation();
  return <div data-testid="home">{JSON.stringify(location.state)}</div>;
}

function renderCreate() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Home /> },
      { path: '/create', element: <CreateScreen /> },
    ],
    { initialEntries: ['/create'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, client };
}

function signIn(pulseCredits = 0) {
  useSessionStore.setState({
    status: 'ready',
    user: { id: 'u-1', email: 'lea@exemple.fr', nickname: 'Léa', pulseCredits },
  });
}

function post(over: Partial<PostDto> = {}): PostDto {
  return makePost({
    id: 'p-new',
    userId: 'u-1',
    category: 'party',
    content: 'Bonjour',
    latitude: MAP.pickerInitial.latitude,
    longitude: MAP.pickerInitial.longitude,
    createdAt: new Date().toISOString(),
    ...over,
  });
}

const baseRoutes = {
  'GET /api/posts/mine/active': () => json(200, { post: null }),
  'GET /api/geo/land': () => json(200, { onLand: true }),
};

const submit = () => fireEvent.click(screen.getByTestId('create-submit'));
const errorText = () => screen.getByTestId('create-error').textContent;
const png = (name = 'photo.png', size?: number) => {
  const file = new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:http://localhost/preview');
  URL.revokeObjectURL = vi.fn();
  window.HTMLElement.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useSessionStore.setState({ user: null });
});

describe('create page', () => {
  it('asks a visitor to sign in', () => {
    useSessionStore.setState({ status: 'ready', user: null });
    fakeApi(baseRoutes);
    renderCreate();
    expect(screen.getByTestId('modal-panel').textContent).toContain(
      'Veuillez vous connecter pour créer une publication',
    );
    expect(screen.queryByTestId('create-form')).toBeNull();
  });

  it('blocks while a post is live, and deleting it frees the slot', async () => {
    signIn();
    let active: PostDto | null = post({ content: 'Ma publication du jour' });
    const api = fakeApi({
      ...baseRoutes,
      'GET /api/posts/mine/active': () => json(200, { post: active }),
      'DELETE /api/posts/p-new': () => {
        active = null;
        return new Response(null, { status: 204 });
      },
    });
    renderCreate();
    const block = await screen.findByTestId('create-active-block');
    expect(block.textContent).toContain(
      "Vous avez déjà une publication active. Supprimez-la avant d'en créer une nouvelle.",
    );
    expect(block.textContent).toContain('Ma publication du jour');
    expect(screen.queryByTestId('create-form')).toBeNull();

    fireEvent.click(within(block).getByTestId('post-delete'));
    await act(async () => fireEvent.click(within(block).getByTestId('post-delete-confirm')));
    expect(api.callsTo('DELETE /api/posts/p-new')).toHaveLength(1);
    expect(await screen.findByTestId('create-form')).toBeTruthy();
  });

  it('validates in the form’s order: mood, then something to say, then the land', async () => {
    signIn();
    const api = fakeApi({
      ...baseRoutes,
      'GET /api/geo/land': (call) => json(200, { onLand: !call.url.includes('lat=-35') }),
    });
    renderCreate();
    await screen.findByTestId('create-form');
    submit();
    expect(errorText()).toBe('Catégorie invalide');
    fireEvent.click(within(screen.getByTestId('create-mood-love')).getByRole('radio'));
    expect(errorText()).toBe('');
    submit();
    expect(errorText()).toBe('Veuillez ajouter du contenu, une image ou un message vocal');
    fireEvent.change(screen.getByTestId('create-content'), { target: { value: 'Une belle journée' } });
    fireEvent.click(screen.getByText('pick-sea'));
    await waitFor(() => expect(screen.getByTestId('land-status').dataset.state).toBe('sea'));
    expect(screen.getByTestId('land-status').textContent).toContain(
      'Publications autorisées uniquement sur terre (îles comprises)',
    );
    submit();
    expect(errorText()).toBe('Publications autorisées uniquement sur terre (îles comprises)');
    expect(api.callsTo('POST /api/posts')).toHaveLength(0);
  });

  it('counts to 500, keeps a longer pasted text with a red counter and the too-long text, and warns (without blocking) on repeats and capitals', async () => {
    signIn();
    fakeApi(baseRoutes);
    renderCreate();
    const text = (await screen.findByTestId('create-content')) as HTMLTextAreaElement;
    fireEvent.change(text, { target: { value: 'Salut' } });
    expect(screen.getByTestId('create-counter').textContent).toBe('5/500');
    fireEvent.change(text, { target: { value: 'é'.repeat(520) } });
    // Not cut silently: kept, the counter red, the too-long text until it is shortened.
    expect(text.value).toHaveLength(520);
    expect(screen.getByTestId('create-counter').textContent).toBe('520/500');
    expect(screen.getByTestId('create-counter').className).toContain('text-rose-600');
    expect(screen.getByTestId('create-too-long').textContent).toBe('Le contenu ne doit pas dépasser 500 caractères');
    fireEvent.change(text, { target: { value: 'é'.repeat(500) } });
    expect(screen.getByTestId('create-counter').textContent).toBe('500/500');
    expect(screen.queryByTestId('create-too-long')).toBeNull();
    fireEvent.change(text, { target: { value: 'Trop bien !!!!!!!!!!!' } });
    expect(screen.getByTestId('create-warning-repeated')).toBeTruthy();
    expect(screen.queryByTestId('create-warning-capitals')).toBeNull();
    fireEvent.change(text, { target: { value: 'JE SUIS TELLEMENT CONTENT AUJOURD HUI' } });
    expect(screen.getByTestId('create-warning-capitals')).toBeTruthy();
  });

  it('checks the picked image: type, size, one file; previews and removes it', async () => {
    signIn();
    fakeApi(baseRoutes);
    renderCreate();
    const input = (await screen.findByTestId('create-image-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' })] } });
    expect(screen.getByTestId('create-image-error').textContent).toBe(
      'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.',
    );
    fireEvent.change(input, { target: { files: [png('big.png', 10 * 1024 * 1024 + 1)] } });
    expect(screen.getByTestId('create-image-error').textContent).toBe("La taille de l'image ne doit pas dépasser 10MB");
    fireEvent.change(input, { target: { files: [png('a.png'), png('b.png')] } });
    expect(screen.getByTestId('create-image-error').textContent).toBe(
      'Vous ne pouvez sélectionner que 1 fichiers maximum',
    );
    expect(screen.queryByTestId('create-image-preview')).toBeNull();
    fireEvent.change(input, { target: { files: [png('ok.png')] } });
    expect(screen.queryByTestId('create-image-error')).toBeNull();
    expect(screen.getByTestId('create-image-preview').querySelector('img')?.getAttribute('src')).toBe(
      'blob:http://localhost/preview',
    );
    fireEvent.click(screen.getByTestId('create-image-remove'));
    expect(screen.queryByTestId('create-image-preview')).toBeNull();
  });

  it('uploads the image, creates the post at the default pick, and opens the map on it', async () => {
    signIn();
    const api = fakeApi({
      ...baseRoutes,
      'POST /api/uploads/post-image': () =>
        json(201, {
          uploadId: '11111111-1111-4111-8111-111111111111',
          url: '/media/a.webp',
          thumbnailUrl: '/media/a-thumb.webp',
        }),
      'POST /api/posts': () => json(201, { post: post({ id: 'p-42', imageUrl: '/media/a.webp' }) }),
    });
    const { router } = renderCreate();
    await screen.findByTestId('create-form');
    expect(screen.getByTestId('location-picker').dataset.latitude).toBe(String(MAP.pickerInitial.latitude));
    fireEvent.click(within(screen.getByTestId('create-mood-party')).getByRole('radio'));
    fireEvent.change(screen.getByTestId('create-content'), { target: { value: '  Ce soir on danse  ' } });
    fireEvent.change(screen.getByTestId('create-image-input'), { target: { files: [png()] } });
    await act(async () => submit());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.state).toEqual({ focusPostId: 'p-42' });
    const order = api.calls.filter((c) => c.method === 'POST').map((c) => c.url);
    // No analytics event: the server counts the post it created.
    expect(order).toEqual(['/api/uploads/post-image', '/api/posts']);
    expect(api.callsTo('POST /api/posts')[0]!.body).toEqual({
      category: 'party',
      content: 'Ce soir on danse',
      latitude: MAP.pickerInitial.latitude,
      longitude: MAP.pickerInitial.longitude,
      imageUploadId: '11111111-1111-4111-8111-111111111111',
    });
  });

  it("shows the server's refusal verbatim, keeps every field, and does not upload the image twice", async () => {
    signIn();
    let attempts = 0;
    const api = fakeApi({
      ...baseRoutes,
      'POST /api/uploads/post-image': () =>
        json(201, { uploadId: '11111111-1111-4111-8111-111111111111', url: '/media/a.webp', thumbnailUrl: null }),
      'POST /api/posts': () =>
        ++attempts === 1
          ? json(429, { error: { code: 'post_rate_limited', message: 'Trop de publications. Veuillez patienter.' } })
          : json(201, { post: post() }),
    });
    const { router } = renderCreate();
    await screen.findByTestId('create-form');
    fireEvent.click(within(screen.getByTestId('create-mood-happy')).getByRole('radio'));
    fireEvent.change(screen.getByTestId('create-content'), { target: { value: 'Coucou' } });
    fireEvent.change(screen.getByTestId('create-image-input'), { target: { files: [png()] } });
    await act(async () => submit());
    await waitFor(() => expect(errorText()).toBe('Trop de publications. Veuillez patienter.'));
    expect(router.state.location.pathname).toBe('/create');
    expect((screen.getByTestId('create-content') as HTMLTextAreaElement).value).toBe('Coucou');
    expect(screen.getByTestId('create-image-preview')).toBeTruthy();
    expect((within(screen.getByTestId('create-mood-happy')).getByRole('radio') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('create-submit') as HTMLButtonElement).disabled).toBe(false);
    await act(async () => submit());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST /api/uploads/post-image')).toHaveLength(1);
    expect(api.callsTo('POST /api/posts')).toHaveLength(2);
  });

  it('switches to the active-post notice when the server says a post is already live', async () => {
    signIn();
    let live = false;
    fakeApi({
      ...baseRoutes,
      'GET /api/posts/mine/active': () => json(200, { post: live ? post() : null }),
      'POST /api/posts': () => {
        live = true;
        return json(409, {
          error: {
            code: 'post_active_exists',
            message: "Vous avez déjà une publication active. Supprimez-la avant d'en créer une nouvelle.",
          },
        });
      },
    });
    renderCreate();
    await screen.findByTestId('create-form');
    fireEvent.click(within(screen.getByTestId('create-mood-happy')).getByRole('radio'));
    fireEvent.change(screen.getByTestId('create-content'), { target: { value: 'Encore moi' } });
    await act(async () => submit());
    expect(await screen.findByTestId('create-active-block')).toBeTruthy();
  });

  it('offers the pulse purchase box at 2,50 € without credits, the toggle with credits', async () => {
    signIn(0);
    const api = fakeApi({
      ...baseRoutes,
      'POST /api/posts': () => json(201, { post: post({ hasPulseEffect: true }) }),
    });
    renderCreate();
    const box = await screen.findByTestId('pulse-purchase');
    expect(box.textContent).toContain('2,50 €');
    expect(screen.queryByTestId('pulse-toggle')).toBeNull();
    expect(screen.getByTestId('pulse-total').textContent).toBe('Total : 12,50 €');
    fireEvent.click(screen.getByTestId('pulse-quantity-10'));
    expect(screen.getByTestId('pulse-total').textContent).toBe('Total : 25,00 €');
    // 'Acheter' opens the checkout popup (800×600) inside the click, then asks the server for the session.
    const popup = { closed: false, close: vi.fn(), location: { href: '' } };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    fireEvent.click(screen.getByTestId('pulse-buy'));
    expect(open).toHaveBeenCalledWith('', 'moodmap-pulse-checkout', 'width=800,height=600');
    await waitFor(() => expect(api.callsTo('POST /api/pulse/checkout')).toHaveLength(1));
    expect(api.callsTo('POST /api/pulse/checkout')[0]!.body).toEqual({ quantity: 10 });
    // The fake API has no checkout route: its error closes the popup and shows the server's text.
    expect(await screen.findByTestId('pulse-error')).toBeTruthy();
    expect(popup.close).toHaveBeenCalled();
    open.mockRestore();
    cleanup();

    signIn(2);
    renderCreate();
    const toggle = await screen.findByTestId('pulse-toggle');
    expect(toggle.textContent).toContain('Crédits : 2');
    expect(screen.queryByTestId('pulse-purchase')).toBeNull();
    fireEvent.click(within(toggle).getByRole('switch'));
    fireEvent.click(within(screen.getByTestId('create-mood-money')).getByRole('radio'));
    fireEvent.change(screen.getByTestId('create-content'), { target: { value: 'Soldes !' } });
    await act(async () => submit());
    await waitFor(() => expect(api.callsTo('POST /api/posts')).toHaveLength(1));
    expect(api.callsTo('POST /api/posts')[0]!.body).toMatchObject({ usePulseEffect: true, category: 'money' });
  });
});

describe('create rules without the page', () => {
  const base = {
    category: 'happy',
    content: 'x',
    hasImage: false,
    hasVoice: false,
    location: { latitude: 1, longitude: 2 },
    onLand: null,
  };

  it('needs a location and valid coordinates', () => {
    expect(validateCreateForm({ ...base, location: null })).toBe('Veuillez sélectionner une position sur la carte');
    expect(validateCreateForm({ ...base, location: { latitude: 91, longitude: 0 } })).toBe(
      'Coordonnées de localisation invalides',
    );
    expect(validateCreateForm({ ...base, category: 'sad' })).toBe('Catégorie invalide');
    expect(validateCreateForm({ ...base, content: '   ', hasVoice: true })).toBeNull();
    expect(validateCreateForm({ ...base, content: '<script>alert(1)</script>' })).toBe('Contenu non autorisé détecté');
    expect(validateCreateForm(base)).toBeNull();
  });

  it('warns on 11 repeats, not 10; on capitals only past 20 characters', () => {
    expect(textWarnings('a'.repeat(10))).toEqual([]);
    expect(textWarnings('a'.repeat(11))).toEqual(['repeated']);
    expect(textWarnings('😀'.repeat(11))).toEqual(['repeated']);
    expect(textWarnings('BONJOUR A TOUS')).toEqual([]);
    expect(textWarnings('BONJOUR A TOUS LES AMIS')).toEqual(['capitals']);
    expect(textWarnings('Bonjour à tous les amis, ÇA VA ?')).toEqual([]);
  });

  it('refuses an empty image file', () => {
    expect(imageFileError([png('vide.png', 0)])).toBe('Erreur de validation pour vide.png');
    expect(imageFileError([png('ok.png', 10 * 1024 * 1024)])).toBeNull();
  });

  it("uploads image, then voice, then creates; a voice failure is prefixed 'Erreur upload audio'", async () => {
    const calls: string[] = [];
    const deps = {
      uploadPostImage: vi.fn(async () => {
        calls.push('image');
        return { uploadId: 'img', url: '', thumbnailUrl: null };
      }),
      uploadVoice: vi.fn(async (): Promise<{ uploadId: string; url: string; duration: number }> => {
        calls.push('voice');
        throw new ApiError(400, 'audio_too_small', 'Fichier audio trop petit ou corrompu');
      }),
      createPost: vi.fn(async (): Promise<PostDto> => post()),
    };
    const voice = new Blob(['x']);
    const input = {
      category: 'happy' as const,
      content: '',
      image: png(),
      voice,
      location: { latitude: 1, longitude: 2 },
      usePulseEffect: false,
    };
    const memo = {};
    const result = await submitPost(input, memo, deps);
    expect(calls).toEqual(['image', 'voice']);
    expect(result).toEqual({
      ok: false,
      step: 'voice',
      code: 'audio_too_small',
      message: 'Erreur upload audio : Fichier audio trop petit ou corrompu',
    });
    expect(deps.createPost).not.toHaveBeenCalled();

    deps.uploadVoice.mockImplementation(async () => ({ uploadId: 'v', url: '', duration: 3 }));
    expect((await submitPost(input, memo, deps)).ok).toBe(true);
    expect(deps.uploadPostImage).toHaveBeenCalledTimes(1);
    expect(deps.createPost).toHaveBeenCalledWith(expect.objectContaining({ imageUploadId: 'img', audioUploadId: 'v' }));
  });
});
