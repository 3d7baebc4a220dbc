import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { checkVoiceMessage } from '../../src/modules/media/audio.ts';
import { scanWebm } from '../../src/modules/media/ebml.ts';
import { recording, writeWebm } from './webm-writer.ts';

async function refusal(buffer: Buffer): Promise<AppError> {
  const error = await checkVoiceMessage(buffer).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the WebM fixture writer', () => {
  it('writes what Chrome writes: unknown-size Segment and Clusters, no Duration', async () => {
    const file = recording(3);
    expect(file.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    // Segment ID followed by the 8-byte unknown size.
    const segment = file.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67]));
    expect(file.subarray(segment + 4, segment + 12)).toEqual(
      Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    );
    // No Duration element to read: the length comes from the blocks alone.
    expect(scanWebm(file).declaredSeconds).toBeNull();
  });
});

describe('scanWebm', () => {
  it('measures a live recording from its clusters and blocks', () => {
    const scan = scanWebm(recording(12.5));
    expect(scan.declaredSeconds).toBeNull();
    expect(scan.blockCount).toBe(625);
    expect(scan.scannedSeconds).toBeCloseTo(12.5, 3);
    expect(scan.tracks).toEqual([{ number: 1, type: 2, codecId: 'A_OPUS' }]);
  });

  it('applies the TimecodeScale of Info', () => {
    // Timecodes in units of 100 µs: cluster at 20 000 units = 2 s, blocks every 200 units = 20 ms.
    const scan = scanWebm(
      writeWebm({
        live: true,
        timecodeScale: 100_000,
        clusters: [
          { timecode: 0, blocks: [0, 200, 400] },
          { timecode: 20_000, blocks: [0, 200] },
        ],
      }),
    );
    expect(scan.timecodeScaleNs).toBe(100_000);
    expect(scan.scannedSeconds).toBeCloseTo(2.04, 6);
  });

  it('uses the default TimecodeScale (1 ms) when Info has none', () => {
    const scan = scanWebm(writeWebm({ clusters: [{ timecode: 1000, blocks: [0, 500, 1000] }] }));
    expect(scan.timecodeScaleNs).toBe(1_000_000);
    expect(scan.scannedSeconds).toBeCloseTo(1.5, 6);
  });

  it('reads negative relative timecodes and BlockGroups with BlockDuration', () => {
    const scan = scanWebm(
      writeWebm({ blocks: 'group', blockDuration: 60, clusters: [{ timecode: 5000, blocks: [-1000, 0, 2000] }] }),
    );
    // From 4000 ms to 7000 + 60 ms.
    expect(scan.scannedSeconds).toBeCloseTo(3.06, 6);
  });

  it('reads a declared Duration in TimecodeScale units', () => {
    const scan = scanWebm(
      writeWebm({ timecodeScale: 1_000_000, duration: 4200, clusters: [{ timecode: 0, blocks: [0, 20] }] }),
    );
    expect(scan.declaredSeconds).toBeCloseTo(4.2, 6);
  });

  it('stops cleanly at a truncated last block', () => {
    const file = recording(2);
    const scan = scanWebm(file.subarray(0, file.length - 30));
    expect(scan.blockCount).toBe(99);
    expect(scan.scannedSeconds).toBeCloseTo(1.98, 3);
  });
});

describe('checkVoiceMessage', () => {
  it('accepts a MediaRecorder-style recording and measures it from the blocks', async () => {
    const voice = await checkVoiceMessage(recording(7.3));
    expect(voice).toMatchObject({ contentType: 'audio/webm', ext: 'webm', durationSource: 'scanned', codec: 'A_OPUS' });
    expect(voice.durationSeconds).toBeCloseTo(7.3, 2);
  });

  it('uses the Duration element when the file has one', async () => {
    const file = writeWebm({
      timecodeScale: 1_000_000,
      duration: 9_500,
      clusters: [{ timecode: 0, blocks: Array.from({ length: 475 }, (_, i) => i * 20) }],
    });
    const voice = await checkVoiceMessage(file);
    expect(voice.durationSource).toBe('declared');
    expect(voice.durationSeconds).toBe(9.5);
  });

  it('accepts a recording that auto-stopped at 60 s', async () => {
    const voice = await checkVoiceMessage(recording(60));
    expect(voice.durationSeconds).toBeCloseTo(60, 2);
    // The recorder's timer may overshoot by a few frames.
    expect((await checkVoiceMessage(recording(60.3))).durationSeconds).toBeCloseTo(60.3, 2);
  });

  it('refuses a recording longer than 60 s', async () => {
    const error = await refusal(recording(75));
    expect(error.status).toBe(400);
    expect(error.code).toBe('audio_too_long');
    expect(error.message).toBe("L'enregistrement audio ne doit pas dépasser 60 secondes. Veuillez réenregistrer.");
    expect((await refusal(recording(61.5))).code).toBe('audio_too_long');
  });

  it('refuses a long recording whose Duration element claims it is short', async () => {
    const file = recording(90, { duration: 10_000 });
    expect((await refusal(file)).code).toBe('audio_too_long');
  });

  it('refuses a zero-length recording', async () => {
    // Structure and size are fine (padding frames), but every block sits at the same instant.
    const file = writeWebm({
      live: true,
      timecodeScale: 1_000_000,
      frameBytes: 400,
      clusters: [{ timecode: 0, blocks: [0, 0, 0] }],
    });
    expect(file.length).toBeGreaterThan(1000);
    const error = await refusal(file);
    expect(error.status).toBe(400);
    expect(error.code).toBe('audio_duration_zero');
    expect(error.message).toBe(
      "La durée de l'enregistrement audio doit être supérieure à zéro. Veuillez réenregistrer.",
    );
    // No block at all, Duration 0.
    const empty = writeWebm({
      timecodeScale: 1_000_000,
      duration: 0,
      frameBytes: 1200,
      clusters: [{ timecode: 0, blocks: [0] }],
    });
    expect((await refusal(empty)).code).toBe('audio_duration_zero');
  });

  it('refuses files under 1000 bytes and over 5 MB with their French texts', async () => {
    const small = recording(0.1);
    expect(small.length).toBeLessThan(1000);
    const tooSmall = await refusal(small);
    expect([tooSmall.status, tooSmall.code, tooSmall.message]).toEqual([
      400,
      'audio_too_small',
      'Fichier audio trop petit ou corrompu',
    ]);

    const big = recording(50, { frameBytes: 2200 });
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const tooBig = await refusal(big);
    expect([tooBig.status, tooBig.code, tooBig.message]).toEqual([
      413,
      'audio_too_large',
      'Fichier audio trop volumineux (max 5MB)',
    ]);
    // Exactly 5 MB is allowed.
    const padded = recording(50, { frameBytes: 2000 });
    expect(padded.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    await expect(checkVoiceMessage(padded)).resolves.toMatchObject({ durationSource: 'scanned' });
  });

  it('refuses what is not WebM: another EBML DocType, another signature, a video track', async () => {
    const matroska = recording(3, { docType: 'matroska' });
    expect((await refusal(matroska)).code).toBe('audio_unsupported');
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(4000)]);
    expect((await refusal(ogg)).code).toBe('audio_unsupported');
    const renamedHtml = Buffer.from(`<html>${'x'.repeat(2000)}</html>`);
    expect((await refusal(renamedHtml)).message).toBe('Format audio non supporté');
    const video = recording(3, { trackType: 1, codecId: 'V_VP8' });
    expect((await refusal(video)).code).toBe('audio_unsupported');
  });

  it('refuses an EBML header without a Segment as corrupt', async () => {
    const header = recording(1).subarray(0, 40);
    const broken = Buffer.concat([
      header.subarray(0, header.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67]))),
      Buffer.alloc(2000, 0x42),
    ]);
    const error = await refusal(broken);
    expect(error.code).toBe('audio_corrupt');
  });
});
