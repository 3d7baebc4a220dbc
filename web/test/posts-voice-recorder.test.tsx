// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useVoiceRecorder } from '../src/features/posts/create/use-voice-recorder.ts';
import { VoiceRecorder } from '../src/features/posts/create/VoiceRecorder.tsx';

/** A stand-in for the browser's MediaRecorder: records "bytes" chunks and stops on demand. */
class FakeMediaRecorder {
  static instances: FakeMediaRecorder[] = [];
  static bytes = 24_000;
  static isTypeSupported = vi.fn((type: string) => type.startsWith('audio/webm'));
  state: 'inactive' | 'recording' = 'inactive';
  mimeType: string;
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  stop = vi.fn(() => {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob([new Uint8Array(FakeMediaRecorder.bytes)], { type: 'audio/webm' }) });
    this.onstop?.();
  });
  readonly stream: unknown;
  readonly options: { mimeType?: string; audioBitsPerSecond?: number };
  constructor(stream: unknown, options: { mimeType?: string; audioBitsPerSecond?: number } = {}) {
    this.stream = stream;
    this.options = options;
    this.mimeType = options.mimeType ?? '';
    FakeMediaRecorder.instances.push(this);
  }
  start(): void {
    this.state = 'recording';
  }
}

const track = { stop: vi.fn() };
const getUserMedia = vi.fn();

function Harness() {
  const recorder = useVoiceRecorder();
  return <VoiceRecorder recorder={recorder} />;
}

const root = () => screen.getByTestId('voice-recorder');

async function startRecording() {
  await act(async () => fireEvent.click(screen.getByTestId('voice-record')));
}

/** Records for `ms` from a fresh recorder, then presses stop. */
async function recordAndStop(ms: number) {
  render(<Harness />);
  await startRecording();
  act(() => vi.advanceTimersByTime(ms));
  fireEvent.click(screen.getByTestId('voice-stop'));
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeMediaRecorder.instances = [];
  FakeMediaRecorder.bytes = 24_000;
  track.stop.mockClear();
  getUserMedia.mockReset();
  getUserMedia.mockResolvedValue({ getTracks: () => [track] });
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  URL.createObjectURL = vi.fn(() => 'blob:http://localhost/voice');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('voice recorder', () => {
  it('asks the microphone for 44.1 kHz and records WebM/Opus with a running m:ss timer', async () => {
    render(<Harness />);
    expect(root().dataset.status).toBe('idle');
    expect(root().dataset.permission).toBe('unknown');
    await startRecording();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: expect.objectContaining({ sampleRate: 44_100 }) });
    const recorder = FakeMediaRecorder.instances[0]!;
    expect(recorder.options).toEqual({ mimeType: 'audio/webm;codecs=opus', audioBitsPerSecond: 64_000 });
    expect(root().dataset.status).toBe('recording');
    expect(root().dataset.permission).toBe('granted');
    expect(screen.getByTestId('voice-timer').textContent).toBe('0:00 / 1:00');
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByTestId('voice-timer').textContent).toBe('0:05 / 1:00');
  });

  it('warns beyond 80 % of the maximum (48 s), not before', async () => {
    render(<Harness />);
    await startRecording();
    act(() => vi.advanceTimersByTime(48_000));
    expect(screen.queryByTestId('voice-warning')).toBeNull();
    act(() => vi.advanceTimersByTime(400));
    expect(screen.getByTestId('voice-warning').textContent).toContain('encore 12 s');
  });

  it('stops by itself at 60 s and offers the recording to play, delete or re-record', async () => {
    render(<Harness />);
    await startRecording();
    const recorder = FakeMediaRecorder.instances[0]!;
    act(() => vi.advanceTimersByTime(59_999));
    expect(recorder.stop).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(recorder.stop).toHaveBeenCalledTimes(1);
    expect(root().dataset.status).toBe('recorded');
    expect(track.stop).toHaveBeenCalled();
    expect(screen.getByTestId('voice-player-duration').textContent).toBe('1:00');
    expect(screen.getByTestId('voice-delete')).toBeTruthy();
    expect(screen.getByTestId('voice-rerecord')).toBeTruthy();

    fireEvent.click(screen.getByTestId('voice-delete'));
    expect(root().dataset.status).toBe('idle');
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/voice');
  });

  it('stops on demand with the measured duration, and re-records from scratch', async () => {
    await recordAndStop(7_300);
    expect(root().dataset.status).toBe('recorded');
    expect(screen.getByTestId('voice-player-duration').textContent).toBe('0:07');
    await act(async () => fireEvent.click(screen.getByTestId('voice-rerecord')));
    expect(root().dataset.status).toBe('recording');
    expect(FakeMediaRecorder.instances).toHaveLength(2);
    expect(screen.getByTestId('voice-timer').textContent).toBe('0:00 / 1:00');
  });

  it('explains a refused microphone and offers a retry that can succeed', async () => {
    getUserMedia.mockRejectedValueOnce(new DOMException('denied', 'NotAllowedError'));
    render(<Harness />);
    await startRecording();
    expect(root().dataset.status).toBe('idle');
    expect(root().dataset.permission).toBe('denied');
    expect(screen.getByTestId('voice-error').textContent).toBe(
      'Permission microphone requise pour enregistrer un message vocal',
    );
    const retry = screen.getByTestId('voice-record');
    expect(retry.getAttribute('aria-label')).toBe("Réessayer d'autoriser le microphone");
    await startRecording();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
    expect(root().dataset.status).toBe('recording');
    expect(screen.queryByTestId('voice-error')).toBeNull();
  });

  it("reports other failures as 'Erreur lors de l'enregistrement audio'", async () => {
    getUserMedia.mockRejectedValueOnce(new DOMException('no device', 'NotFoundError'));
    render(<Harness />);
    await startRecording();
    expect(screen.getByTestId('voice-error').textContent).toBe("Erreur lors de l'enregistrement audio");
    expect(root().dataset.permission).toBe('unknown');
  });

  it('refuses a recording too small to be a voice message', async () => {
    FakeMediaRecorder.bytes = 200;
    await recordAndStop(1_000);
    expect(root().dataset.status).toBe('idle');
    expect(screen.getByTestId('voice-error').textContent).toBe('Fichier audio trop petit ou corrompu');
  });

  it('releases the microphone when the page goes away mid-recording', async () => {
    const { unmount } = render(<Harness />);
    await startRecording();
    unmount();
    expect(track.stop).toHaveBeenCalled();
  });
});
