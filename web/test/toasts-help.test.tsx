// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HelpDialog } from '../src/features/help/HelpDialog.tsx';
import { contactMailto } from '../src/features/help/contact.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { Dialog } from '../src/ui/Dialog.tsx';
import { Toaster } from '../src/ui/toasts/Toaster.tsx';
import { toast, useToastStore } from '../src/ui/toasts/toast-store.ts';

describe('notification toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useToastStore.setState({ toasts: [] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it.each([
    ['success', 4000],
    ['error', 6000],
    ['warning', 5000],
    ['info', 4000],
  ] as const)('dismisses a %s toast after %i ms, then a 300 ms exit animation', (type, ms) => {
    render(<Toaster />);
    act(() => void toast[type]('Bonjour'));
    expect(screen.getByTestId(`toast-${type}`).textContent).toContain('Bonjour');
    act(() => vi.advanceTimersByTime(ms - 1));
    expect(screen.getByTestId(`toast-${type}`).className).toContain('animate-toast-in');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId(`toast-${type}`).className).toContain('animate-toast-out');
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByTestId(`toast-${type}`)).toBeNull();
  });

  it('keeps a custom 8 s duration, and 0 as persistent until closed', () => {
    render(<Toaster />);
    act(() => void toast.error('Position non disponible...', { duration: 8000 }));
    act(() => void toast.info('Toujours là', { duration: 0 }));
    act(() => vi.advanceTimersByTime(7000));
    expect(screen.getByText('Position non disponible...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1300));
    expect(screen.queryByText('Position non disponible...')).toBeNull();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Toujours là')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fermer' }));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByText('Toujours là')).toBeNull();
  });
});

describe('help and contact dialog', () => {
  beforeEach(() => useUiStore.setState({ helpOpen: true }));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('walks the 4 tutorial steps with arrows and dots', () => {
    render(<HelpDialog />);
    expect(screen.getByText('Étape 1 sur 4')).toBeTruthy();
    const previous = screen.getByRole('button', { name: 'Précédent' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Suivant' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    fireEvent.click(next);
    expect(screen.getByText('Créer une publication')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Étape 4 sur 4' }));
    expect(screen.getByText('Gérer votre profil')).toBeTruthy();
    expect(next.disabled).toBe(true);
  });

  it('requires e-mail and message, then opens the mail client and closes after 2 s', () => {
    render(<HelpDialog />);
    fireEvent.click(screen.getByRole('tab', { name: 'Contact' }));
    fireEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
    expect(screen.getByRole('alert').textContent).toBe('Veuillez remplir tous les champs obligatoires');
    expect((screen.getByLabelText('Votre email *') as HTMLInputElement).maxLength).toBe(254);
    expect((screen.getByLabelText('Sujet (optionnel)') as HTMLInputElement).maxLength).toBe(100);
    expect((screen.getByLabelText('Message *') as HTMLTextAreaElement).maxLength).toBe(1000);

    fireEvent.change(screen.getByLabelText('Votre email *'), { target: { value: 'bob@example.fr' } });
    fireEvent.change(screen.getByLabelText('Message *'), { target: { value: 'La carte est superbe' } });
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
    expect(screen.getByText('Email envoyé !')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2000));
    expect(useUiStore.getState().helpOpen).toBe(false);
  });

  it('prefills a mailto to the contact address', () => {
    const link = contactMailto({ type: 'feedback', email: 'bob@example.fr', subject: '', message: 'Bravo' });
    expect(link.startsWith('mailto:contact@moodmap.app?subject=')).toBe(true);
    expect(decodeURIComponent(link)).toContain('Bravo');
    expect(decodeURIComponent(link)).toContain('bob@example.fr');
  });
});

describe('toasts and open dialogs', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("publishes the lowest open dialog's header edge, so toasts start below its close button, and forgets it on close", () => {
    // jsdom lays nothing out: each header says where it ends.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const bottom = this.querySelector('h2')?.textContent === 'Deuxième' ? 180 : 96.4;
      return {
        bottom,
        top: 0,
        left: 0,
        right: window.innerWidth - 300,
        width: 0,
        height: bottom,
        x: 0,
        y: 0,
        toJSON: () => ({}),
      } as DOMRect;
    });
    const root = document.documentElement.style;
    const first = render(
      <Dialog title="Premier" onClose={() => undefined}>
        <p>un</p>
      </Dialog>,
    );
    expect(root.getPropertyValue('--dialog-header-bottom')).toBe('97px');
    const second = render(
      <Dialog title="Deuxième" onClose={() => undefined}>
        <p>deux</p>
      </Dialog>,
    );
    expect(root.getPropertyValue('--dialog-header-bottom')).toBe('180px');
    second.unmount();
    expect(root.getPropertyValue('--dialog-header-bottom')).toBe('97px');
    first.unmount();
    expect(root.getPropertyValue('--dialog-header-bottom')).toBe('');
  });

  it('leaves the toasts at the top when the dialog ends left of their column', () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(
      () =>
        ({
          bottom: 96,
          top: 0,
          left: 0,
          right: window.innerWidth - 500,
          width: 0,
          height: 96,
          x: 0,
          y: 0,
          toJSON: () => ({}),
        }) as DOMRect,
    );
    render(
      <Dialog title="Étroit" onClose={() => undefined}>
        <p>un</p>
      </Dialog>,
    );
    expect(document.documentElement.style.getPropertyValue('--dialog-header-bottom')).toBe('');
  });
});
