// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AudioPlayer } from '../src/ui/AudioPlayer.tsx';
import { isPlayableUrl, mediaErrorMessage, playRejectionMessage } from '../src/ui/audio-errors.ts';
import captions from '../src/ui/voice-no-transcript.vtt?raw';

let playImpl: (this: HTMLMediaElement) => Promise<void>;

beforeEach(() => {
  playImpl = () => new Promise<void>(() => undefined); // never settles unless a test says so
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    return playImpl.call(this);
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    this.dispatchEvent(new Event('pause'));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const player = () => screen.getByTestId('audio-player');
const audio = () => player().querySelector('audio')!;
const button = () => player().querySelector('button')!;

/** Renders a player for `src` and presses its button once. */
async function renderAndPlay(src: string, durationHint?: number) {
  render(<AudioPlayer src={src} durationHint={durationHint} />);
  await act(async () => fireEvent.click(button()));
}

function failWith(code: number) {
  Object.defineProperty(audio(), 'error', { configurable: true, value: { code } });
  fireEvent.error(audio());
}

describe('audio player', () => {
  it('shows the known duration as m:ss before anything loads, and downloads nothing until played', () => {
    render(<AudioPlayer src="/media/voice.webm" durationHint={74} />);
    expect(player().dataset.state).toBe('idle');
    expect(screen.getByTestId('audio-player-duration').textContent).toBe('1:14');
    expect(screen.getByTestId('audio-player-current').textContent).toBe('0:00');
    expect(audio().getAttribute('preload')).toBe('none');
  });

  it('carries French captions saying that the voice message has no transcript', () => {
    render(<AudioPlayer src="/media/voice.webm" />);
    const track = audio().querySelector('track')!;
    expect(track.getAttribute('kind')).toBe('captions');
    expect(track.getAttribute('srclang')).toBe('fr');
    expect(track.getAttribute('src')).toContain('voice-no-transcript');
    expect(captions).toMatch(
      /^WEBVTT\n\n00:00:00\.000 --> 99:59:59\.999\n\[Message vocal enregistré par son auteur : aucune transcription disponible\]\n$/,
    );
  });

  it('goes loading → playing → paused → playing, and back to the start at the end', async () => {
    await renderAndPlay('/media/voice.webm', 14);
    expect(player().dataset.state).toBe('loading');
    act(() => void fireEvent(audio(), new Event('playing')));
    expect(player().dataset.state).toBe('playing');
    Object.defineProperty(audio(), 'currentTime', { configurable: true, writable: true, value: 9.6 });
    fireEvent.timeUpdate(audio());
    expect(screen.getByTestId('audio-player-current').textContent).toBe('0:09');
    fireEvent.click(button());
    expect(player().dataset.state).toBe('paused');
    playImpl = function () {
      this.dispatchEvent(new Event('playing'));
      return Promise.resolve();
    };
    await act(async () => fireEvent.click(button()));
    expect(player().dataset.state).toBe('playing');
    fireEvent.ended(audio());
    expect(player().dataset.state).toBe('idle');
    expect(screen.getByTestId('audio-player-current').textContent).toBe('0:00');
  });

  it("stops with 'Chargement audio trop lent' when nothing plays within 5 s", async () => {
    vi.useFakeTimers();
    await renderAndPlay('/media/slow.webm');
    expect(player().dataset.state).toBe('loading');
    act(() => vi.advanceTimersByTime(4_999));
    expect(player().dataset.state).toBe('loading');
    act(() => vi.advanceTimersByTime(1));
    expect(player().dataset.state).toBe('error');
    expect(screen.getByRole('alert').textContent).toBe('Chargement audio trop lent');
  });

  it('does not time out once playing has started', async () => {
    vi.useFakeTimers();
    await renderAndPlay('/media/voice.webm');
    act(() => void fireEvent(audio(), new Event('playing')));
    act(() => vi.advanceTimersByTime(10_000));
    expect(player().dataset.state).toBe('playing');
  });

  it.each([
    [1, 'Erreur de lecture audio'],
    [2, 'Fichier audio inaccessible'],
    [3, 'Fichier audio introuvable ou corrompu'],
  ])('maps MediaError code %i to %s', async (code, text) => {
    await renderAndPlay('/media/voice.webm');
    await act(async () => failWith(code));
    expect(player().dataset.state).toBe('error');
    expect(screen.getByRole('alert').textContent).toBe(text);
  });

  it.each([
    [404, 'Fichier audio non disponible'],
    [403, 'Fichier audio inaccessible'],
    [200, 'Format audio non supporté'],
  ])('tells a missing file from an unsupported format on code 4 (HEAD %i → %s)', async (status, text) => {
    const fetchMock = vi.fn(async () => new Response(null, { status }));
    vi.stubGlobal('fetch', fetchMock);
    await renderAndPlay('/media/voice.webm');
    await act(async () => failWith(4));
    expect(screen.getByRole('alert').textContent).toBe(text);
    expect(fetchMock).toHaveBeenCalledWith(
      expect.stringContaining('/media/voice.webm'),
      expect.objectContaining({ method: 'HEAD' }),
    );
  });

  it('says the browser blocked playback when play() is refused', async () => {
    playImpl = () => Promise.reject(new DOMException('no gesture', 'NotAllowedError'));
    await renderAndPlay('/media/voice.webm');
    expect(screen.getByRole('alert').textContent).toBe('Lecture audio bloquée par le navigateur');
  });

  it("refuses a URL it cannot play: 'URL audio invalide'", async () => {
    await renderAndPlay('javascript:alert(1)');
    expect(screen.getByRole('alert').textContent).toBe('URL audio invalide');
    expect(HTMLMediaElement.prototype.play).not.toHaveBeenCalled();
  });

  it('retries from an error with a fresh load', async () => {
    await renderAndPlay('/media/voice.webm');
    await act(async () => failWith(2));
    expect(button().getAttribute('aria-label')).toBe('Réessayer la lecture');
    await act(async () => fireEvent.click(button()));
    expect(HTMLMediaElement.prototype.load).toHaveBeenCalled();
    expect(player().dataset.state).toBe('loading');
  });

  it('maps errors without a component too', () => {
    expect(mediaErrorMessage(undefined)).toBe('Erreur de lecture audio');
    expect(mediaErrorMessage(4)).toBe('Format audio non supporté');
    expect(playRejectionMessage(new DOMException('x', 'AbortError'))).toBeNull();
    expect(playRejectionMessage(new DOMException('x', 'NotSupportedError'))).toBe('Format audio non supporté');
    expect(isPlayableUrl('/media/a.webm')).toBe(true);
    expect(isPlayableUrl('https://cdn.example/a.webm')).toBe(true);
    expect(isPlayableUrl('blob:http://localhost/1234')).toBe(true);
    expect(isPlayableUrl('')).toBe(false);
    expect(isPlayableUrl(null)).toBe(false);
    expect(isPlayableUrl('data:audio/webm;base64,AAAA')).toBe(false);
  });
});
