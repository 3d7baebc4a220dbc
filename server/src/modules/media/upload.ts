/**
 * Reads one uploaded file from a multipart form (@fastify/multipart must be registered),
 * counting bytes while they stream in: the byte after the limit ends the upload with a 413,
 * nothing larger than the limit is ever held in memory. The form's text fields come back as
 * a record. Storage keys are generated here, never derived from the client's file name.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile, MultipartValue, Multipart } from '@fastify/multipart';
import {
  AUDIO_MAX_BYTES,
  CHAT_IMAGE_MAX_BYTES,
  POST_IMAGE_MAX_BYTES,
  POST_IMAGE_MAX_FILES,
  PROFILE_PHOTO_MAX_BYTES,
  type MessageKey,
} from '@moodmap/core';
import { AppError, appError } from '../../errors.ts';
import { forbiddenTextCode } from '../../http/nul-guard.ts';
import { checkDeclaredType } from './declared-type.ts';

export type UploadKind = 'post' | 'avatar' | 'chat' | 'audio';

/** Byte limits and the French text of their 413. */
export const UPLOAD_LIMITS: Record<UploadKind, { maxBytes: number; tooLarge: MessageKey }> = {
  post: { maxBytes: POST_IMAGE_MAX_BYTES, tooLarge: 'image_too_large_10mb' },
  avatar: { maxBytes: PROFILE_PHOTO_MAX_BYTES, tooLarge: 'image_too_large_5mb' },
  chat: { maxBytes: CHAT_IMAGE_MAX_BYTES, tooLarge: 'image_too_large_5mb' },
  audio: { maxBytes: AUDIO_MAX_BYTES, tooLarge: 'audio_too_large' },
};

/** Key prefixes in the media store, one per kind of upload. */
export const KEY_PREFIX: Record<UploadKind, string> = {
  post: 'publications',
  avatar: 'avatars',
  chat: 'message-images',
  audio: 'voice-messages',
};

export interface UploadedFile {
  /** The form field that carried the file. */
  field: string;
  /** As sent by the client, path included: only checked, never used to name or type the file. */
  filename: string;
  /** As declared by the client: images must declare what their magic number says (declared-type.ts). */
  declaredType: string;
  body: Buffer;
}

export interface ReadUploadOptions {
  /** Refuse the form when it carries no file (400). Default false: the caller decides. */
  required?: boolean;
  /** Only this field may carry the file; a file under another name is refused (400). */
  field?: string;
  /** Most text fields accepted (default 20) and their size in bytes (default 64 KiB). */
  maxFields?: number;
  maxFieldBytes?: number;
}

export interface Upload {
  file: UploadedFile | null;
  /** Text fields; a repeated name keeps its last value. */
  fields: Record<string, string>;
}

/** The form's overhead besides the file: boundaries, part headers, text fields. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

const FILENAME_MAX = 255;
// Control characters and the characters Windows, macOS or shells treat specially in names.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f<>:"/\\|?*]/;
/** Executable, script and server-side extensions (exe, bat, js, php, sh and similar). */
const DANGEROUS_EXTENSIONS = new Set([
  'exe',
  'bat',
  'cmd',
  'com',
  'scr',
  'pif',
  'msi',
  'msp',
  'dll',
  'cpl',
  'sys',
  'drv',
  'ocx',
  'hta',
  'lnk',
  'reg',
  'inf',
  'js',
  'mjs',
  'cjs',
  'jse',
  'vbs',
  'vbe',
  'wsf',
  'wsh',
  'ps1',
  'psm1',
  'psd1',
  'jar',
  'class',
  'apk',
  'app',
  'dmg',
  'deb',
  'rpm',
  'php',
  'php3',
  'php4',
  'php5',
  'php7',
  'php8',
  'phtml',
  'phar',
  'pht',
  'asp',
  'aspx',
  'ascx',
  'ashx',
  'asmx',
  'jsp',
  'jspx',
  'cfm',
  'cgi',
  'pl',
  'py',
  'rb',
  'sh',
  'bash',
  'zsh',
  'ksh',
  'csh',
  'fish',
  'command',
  'html',
  'htm',
  'xhtml',
  'shtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'swf',
  'htaccess',
]);
/** Windows device names, reserved whatever the extension (CON.jpg is still CON). */
const RESERVED_NAMES = /^(con|prn|aux|nul|clock\$|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * A file name: at most 255 characters, no forbidden characters, no dangerous extension (every
 * dotted part counts: `photo.php.jpg` is refused), no reserved system name. An empty name is
 * accepted: MediaRecorder blobs arrive as "blob" or without a name.
 */
export function isAcceptableFilename(name: string): boolean {
  if (name.length === 0) return true;
  if (name.length > FILENAME_MAX || FORBIDDEN_CHARS.test(name)) return false;
  if (name === '.' || name === '..' || /[. ]$/.test(name)) return false;
  const parts = name.toLowerCase().split('.');
  if (RESERVED_NAMES.test(parts[0].trim())) return false;
  return parts.slice(1).every((ext) => !DANGEROUS_EXTENSIONS.has(ext.trim()));
}

function validationFailed(filename: string): AppError {
  const shown = filename.length > 60 ? `${filename.slice(0, 60)}…` : filename;
  // eslint-disable-next-line no-control-regex
  return appError(400, 'upload_validation_failed', { file: shown.replace(/[\u0000-\u001f\u007f]/g, '') || 'fichier' });
}

/** Reads the rest of a stream into nothing, without ever destroying it (busboy keeps parsing). */
function discard(part: Multipart | undefined): void {
  if (part?.type === 'file') part.file.resume();
}

/**
 * Consumes whatever is left of the form in the background after a refusal, so that the
 * connection stays usable. Files are already cut at the limit by busboy, so this costs bandwidth, not memory.
 */
function drain(iterator: AsyncIterator<Multipart>): void {
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await iterator.next();
        if (done) return;
        discard(value);
      }
    } catch {
      // a broken form: nothing left to read
    }
  })();
}

async function readFileLimited(part: MultipartFile, maxBytes: number, tooLarge: MessageKey): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  // destroyOnReturn false: leaving early must not destroy the stream, which would stop busboy
  // and leave the request half read.
  for await (const chunk of part.file.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      part.file.resume();
      throw appError(413, tooLarge);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads the one file of a multipart request, enforcing the kind's byte limit while streaming.
 *   - more than `maxBytes` → 413 with the kind's text
 *   - an empty file → 400 (an empty unnamed part, an HTML form's empty input, is no file)
 *   - a second file → 400 'Vous ne pouvez sélectionner que 1 fichiers maximum'
 *   - a file name refused (checkFileName) → 400 'Erreur de validation pour {file}'
 *   - an image whose magic number is not its declared type → 400 (declared-type.ts)
 *   - not multipart → 415
 */
export async function readUpload(
  request: FastifyRequest,
  kind: UploadKind,
  options: ReadUploadOptions = {},
): Promise<Upload> {
  const { maxBytes, tooLarge } = UPLOAD_LIMITS[kind];
  if (!request.isMultipart()) throw appError(415, 'bad_request');
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes + FORM_OVERHEAD_BYTES) throw appError(413, tooLarge);

  const maxFields = options.maxFields ?? 20;
  // throwFileSizeLimit is read by the plugin at run time but missing from its parts() type.
  const partsOptions = {
    limits: {
      // One byte more than allowed, so that "too large" is seen, then busboy drops the rest.
      fileSize: maxBytes + 1,
      files: POST_IMAGE_MAX_FILES + 1,
      fields: maxFields,
      fieldSize: options.maxFieldBytes ?? 64 * 1024,
      parts: maxFields + POST_IMAGE_MAX_FILES + 1,
      headerPairs: 100,
    },
    throwFileSizeLimit: false,
    // The name as sent: without this busboy keeps only what follows the last / or \, and
    // `../x.jpg` would pass the name check as `x.jpg` (the separators are forbidden).
    preservePath: true,
  };
  const iterator = request.parts(partsOptions as Parameters<FastifyRequest['parts']>[0])[Symbol.asyncIterator]();

  let file: UploadedFile | null = null;
  const fields: Record<string, string> = {};
  let current: Multipart | undefined;
  try {
    for (;;) {
      current = undefined;
      const next = await iterator.next();
      if (next.done) break;
      current = next.value;
      if (current.type === 'field') {
        const value = current as MultipartValue;
        if (value.valueTruncated || value.fieldnameTruncated) throw appError(413, 'payload_too_large');
        fields[value.fieldname] = typeof value.value === 'string' ? value.value : JSON.stringify(value.value);
        continue;
      }
      if (file) throw appError(400, 'upload_too_many_files', { n: POST_IMAGE_MAX_FILES });
      if (options.field && current.fieldname !== options.field) throw appError(400, 'bad_request');
      const filename = current.filename ?? '';
      if (!isAcceptableFilename(filename)) throw validationFailed(filename);
      const body = await readFileLimited(current, maxBytes, tooLarge);
      // An HTML form with nothing chosen sends an empty part without a name: no file.
      if (body.length === 0 && filename === '') continue;
      if (body.length === 0) throw validationFailed(filename);
      // Voice messages are checked by their WebM header instead (audio.ts).
      if (kind !== 'audio') await checkDeclaredType(current.mimetype, body, () => validationFailed(filename));
      file = { field: current.fieldname, filename, declaredType: current.mimetype, body };
    }
  } catch (error) {
    discard(current);
    drain(iterator);
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw appError(400, 'upload_too_many_files', { n: POST_IMAGE_MAX_FILES });
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw appError(413, 'payload_too_large');
    // Malformed multipart data (busboy's "Unexpected end of form", a prototype field name,
    // a closed request...) is bad input, not a server fault.
    const status = (error as { statusCode?: number }).statusCode;
    if ((status !== undefined && status >= 400 && status < 500) || (error instanceof Error && !code))
      throw appError(400, 'bad_request');
    throw error;
  }
  // A part may declare its own charset (utf-16le...): its text is checked like a JSON body's.
  const textFault = forbiddenTextCode(fields, file?.filename);
  if (textFault) throw appError(400, textFault);
  if (!file && options.required) throw appError(400, 'upload_failed');
  return { file, fields };
}

/** A fresh storage key: `publications/<uuid>.webp`, `voice-messages/<uuid>.webm`... */
export function mediaKey(kind: UploadKind, ext: string, id: string = randomUUID()): string {
  return `${KEY_PREFIX[kind]}/${id}.${ext}`;
}

/** The thumbnail's key beside a main key: `publications/<uuid>-thumb.webp`. */
export function thumbKey(key: string): string {
  const dot = key.lastIndexOf('.');
  return `${key.slice(0, dot)}-thumb${key.slice(dot)}`;
}
