/**
 * Input sanitising, shared by the web forms and the server.
 *
 * Two separate jobs:
 * - `assessRisk` flags input that is an attack rather than text (script tags, javascript:
 *   URLs, event handlers, SQL-injection shapes). Such input is refused outright with the
 *   field's "format invalide" message and counted as a security violation by the server.
 * - `sanitizeText` strips what is left of markup from accepted text before it is stored:
 *   tags, script/style blocks, javascript: and event handlers, control characters, and cuts
 *   it to 1000 characters. The web app renders text as text (React escapes it); stripping
 *   keeps stored data inert for every other reader (e-mails, push, exports, admin).
 *
 * Every pattern here runs in time linear in the input, so no crafted text can hold the server
 * (a backtracking pattern is quadratic on a long run of spaces). The rule that keeps them so:
 * no two neighbouring quantified parts of a pattern may match the same character (never
 * `\s*\)?\s*`), and an unbounded run stops at the next delimiter that could start another
 * match (`[^<>]*`, not `[^>]*`), so two start positions never scan the same characters.
 * core/test/sanitize-hostile.test.ts holds the worst cases.
 */
import { SANITISED_TEXT_MAX } from './limits.ts';

/** 'low': markup was removed but nothing looked like an attack; 'critical': refuse. */
export type RiskLevel = 'none' | 'low' | 'critical';

export interface RiskAssessment {
  risk: RiskLevel;
  /** Names of the patterns that matched, for the security log. */
  threats: string[];
}

export interface SanitizeResult extends RiskAssessment {
  value: string;
}

/**
 * Event-handler attribute names of HTML and SVG, without their "on" (WHATWG global, window
 * and document handlers, pointer/touch/animation events, SVG animation events, and the legacy
 * or vendor ones browsers still fire). Names rather than /on\w+=/, so ordinary words
 * ("one = two", "oncle = tonton") are not attacks; families end in \w* or \w+.
 */
const HANDLER_NAMES = [
  'abort',
  'activate',
  'after\\w+',
  'animation\\w+',
  'auxclick',
  'before\\w+',
  'begin',
  'blur',
  'bounce',
  'cancel',
  'canplay\\w*',
  'change',
  'click',
  'close',
  'command',
  'content\\w+',
  'context\\w+',
  'copy',
  'cuechange',
  'cut',
  'dblclick',
  'deactivate',
  'drag\\w*',
  'drop',
  'durationchange',
  'emptied',
  'encrypted',
  'end',
  'ended',
  'error',
  'filterchange',
  'finish',
  'focus\\w*',
  'formdata',
  'freeze',
  'fullscreen\\w+',
  'gotpointercapture',
  'hashchange',
  'help',
  'input',
  'invalid',
  'key\\w+',
  'languagechange',
  'load\\w*',
  'losecapture',
  'lostpointercapture',
  'message\\w*',
  'mouse\\w+',
  'moz\\w+',
  'move\\w*',
  'ms\\w+',
  'offline',
  'online',
  'page\\w+',
  'paste',
  'pause',
  'play\\w*',
  'pointer\\w+',
  'popstate',
  'prerenderingchange',
  'progress',
  'propertychange',
  'ratechange',
  'readystatechange',
  'rejectionhandled',
  'repeat',
  'reset',
  'resize',
  'resume',
  'scroll\\w*',
  'search',
  'securitypolicyviolation',
  'seeked',
  'seeking',
  'select\\w*',
  'show',
  'slotchange',
  'stalled',
  'start',
  'storage',
  'submit',
  'suspend',
  'svg\\w+',
  'timeupdate',
  'toggle',
  'touch\\w+',
  'transition\\w+',
  'unhandledrejection',
  'unload',
  'visibilitychange',
  'volumechange',
  'waiting\\w*',
  'webkit\\w+',
  'wheel',
  'zoom',
];
const HANDLER = `\\bon(?:${HANDLER_NAMES.join('|')})\\s*=`;
const EVENT_HANDLER = new RegExp(HANDLER, 'i');
/** Any on…= attribute inside something shaped like an open tag (`<svg/onfoo=`, `<x a onbar =`). */
const TAG_EVENT_HANDLER = /<\s*[a-z][^<>]*[\s/"']on[a-z]+\s*=/i;

const SCRIPT_URL = /\b(?:java|vb|live)script\s*:/i;
const DATA_HTML_URL = /\bdata\s*:\s*text\/html/i;

const CRITICAL_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['script_tag', /<\s*(?:\/\s*)?script\b/i],
  ['script_url', SCRIPT_URL],
  ['data_html_url', DATA_HTML_URL],
  ['event_handler', EVENT_HANDLER],
  ['event_handler', TAG_EVENT_HANDLER],
  ['dangerous_tag', /<\s*(?:iframe|frame|object|embed|applet|meta|link|base|form|svg|math|style)\b/i],
  ['sql_union_select', /\bunion\s+(?:all\s+)?select\b/i],
  ['sql_stacked_query', /;\s*(?:drop|delete|truncate|alter|insert|update|create|exec|execute|grant)\s+\w/i],
  // `' or 1=1`, `' or 'a'='a`, `' or ''='`: between "or" and "=" an optional operand that starts
  // with a quote or a word character, never with the spaces `\s+` already took.
  ['sql_tautology', /['"]\s*(?:or|and)\s+(?:(?:['"]\w*|\w+)['"]?\s*)?=/i],
  // A quote closing a string then a comment: `admin'--`, `x');--`; not `"super" #vacances`.
  ['sql_comment_escape', /['"]\s*(?:\)\s*)?(?:;\s*)?(?:--|#|\/\*)\s*$|['"]\s*(?:\)\s*)?;\s*--/],
  ['sql_drop_table', /\b(?:drop|truncate)\s+(?:table|database)\b/i],
  ['sql_functions', /\b(?:xp_cmdshell|waitfor\s+delay|pg_sleep\s*\(|sleep\s*\(\s*\d+\s*\)|benchmark\s*\()/i],
];

const NAMED_ENTITIES = new Map(
  Object.entries({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&', colon: ':', tab: '\t', newline: '\n', sol: '/' }),
);
const ENTITY_NAME = /([a-z]+);/iy;

/** The value of a hexadecimal or decimal digit, or -1. */
function digitValue(code: number, hex: boolean): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (!hex) return -1;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Decodes HTML character references, the usual obfuscation (`&#106;avascript`, `&#x6a`,
 * `&lt;script`), for matching only. Numbers out of range read as U+FFFD, as in browsers. A
 * plain scan, as a replace callback per reference is slow on text made of references.
 */
function decodeForMatching(input: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let at = input.indexOf('&'); at !== -1; at = input.indexOf('&', at + 1)) {
    let char: string | undefined;
    let end = at + 1;
    if (input[end] === '#') {
      const hex = input[end + 1] === 'x' || input[end + 1] === 'X';
      end += hex ? 2 : 1;
      const first = end;
      let value = 0;
      for (
        let digit = digitValue(input.charCodeAt(end), hex);
        digit >= 0;
        digit = digitValue(input.charCodeAt(++end), hex)
      ) {
        value = Math.min(value * (hex ? 16 : 10) + digit, 0x110000);
      }
      if (end > first) char = value <= 0x10ffff ? String.fromCodePoint(value) : '\ufffd';
      if (input[end] === ';') end++;
    } else {
      ENTITY_NAME.lastIndex = end;
      const name = ENTITY_NAME.exec(input)?.[1];
      char = name === undefined ? undefined : NAMED_ENTITIES.get(name.toLowerCase());
      end = ENTITY_NAME.lastIndex;
    }
    if (char === undefined) continue;
    parts.push(input.slice(from, at), char);
    from = end;
    at = end - 1;
  }
  parts.push(input.slice(from));
  return parts.join('');
}

const GAP = '[\\s\\u0000-\\u001f\\u007f]*';
const spaced = (word: string) => word.split('').join(GAP);
/** "java script:" split by whitespace or control characters: browsers drop tabs and newlines from URLs. */
const SPACED_SCRIPT_URL = new RegExp(`(?:${spaced('java')}|${spaced('vb')})${GAP}${spaced('script')}${GAP}:`, 'i');

// A tag starts with a letter, '/' or '!' right after '<': "je t'aime <3" and "a < b" stay text.
const MARKUP = /<\s*[a-z!/][^<>]*>/i;

export function assessRisk(input: string): RiskAssessment {
  const decoded = input.includes('&') ? decodeForMatching(input) : input;
  const variants = decoded === input ? [input] : [input, decoded];
  const threats: string[] = [];
  for (const [name, pattern] of CRITICAL_PATTERNS) {
    if (!threats.includes(name) && variants.some((v) => pattern.test(v))) threats.push(name);
  }
  if (!threats.includes('script_url') && SPACED_SCRIPT_URL.test(decoded)) threats.push('script_url');
  if (threats.length > 0) return { risk: 'critical', threats };
  return { risk: MARKUP.test(decoded) ? 'low' : 'none', threats };
}

/** True when the input must be refused: critical input is an attack, never text. */
export function isCritical(input: string): boolean {
  return assessRisk(input).risk === 'critical';
}

// Control characters other than tab and newlines never belong in text.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** An event-handler attribute with its value: quoted, or up to a space or '>'. */
const HANDLER_ATTRIBUTE = new RegExp(`${HANDLER}\\s*(?:"[^"]*"|'[^']*'|[^\\s>]*)`, 'gi');
const SCRIPT_URL_ALL = new RegExp(SCRIPT_URL.source, 'gi');
const DATA_HTML_URL_ALL = /\bdata\s*:\s*text\/html\S*/gi;
/** A tag as the stripping removes it: spaces may follow '<', and it ends at the next '<' or '>'. */
const TAG = /<\s*[a-z!/?][^<>]*>/i;
/** Where HTML opens a tag, a comment or a declaration: '<' right before a letter, '/', '!' or '?'. */
const TAG_OPEN = /<(?=[a-z!/?])/gi;
/** Removing one thing can join two others (`java<b>script:`): passes until nothing changes. */
const MAX_PASSES = 4;

/**
 * Removes script and style elements with their content, and comments. Each kind whose closing
 * tag is missing after one opening is dropped from the search: it is missing after every later
 * one too, so no stretch of text is searched twice.
 */
function removeBlocks(text: string): string {
  const closers: Record<string, RegExp> = {
    script: /<\s*\/\s*script\s*>/gi,
    style: /<\s*\/\s*style\s*>/gi,
    comment: /-->/g,
  };
  const openers: Record<string, string> = {
    script: '<\\s*script\\b[^<>]*>',
    style: '<\\s*style\\b[^<>]*>',
    comment: '<!--',
  };
  const kinds = Object.keys(openers);
  let out = '';
  let from = 0;
  let at = 0;
  while (kinds.length > 0) {
    const opener = new RegExp(kinds.map((kind) => `(?<${kind}>${openers[kind]})`).join('|'), 'gi');
    opener.lastIndex = at;
    const open = opener.exec(text);
    if (!open) break;
    const kind = kinds.find((k) => open.groups?.[k] !== undefined) as string;
    const closer = closers[kind];
    closer.lastIndex = opener.lastIndex;
    if (closer.exec(text)) {
      out += text.slice(from, open.index);
      from = at = closer.lastIndex;
    } else {
      kinds.splice(kinds.indexOf(kind), 1);
      at = open.index;
    }
  }
  return out + text.slice(from);
}

const LT = 60;
const GT = 62;
const SPACE = /\s/;

/** Whether `code` may follow '<' to open a tag: a letter, '!', '/' or '?'. */
function isTagStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 33 || code === 47 || code === 63;
}

/**
 * Removes every `<…>` whose '<' is followed by a letter, '/', '!' or '?' (spaces allowed), to a
 * fixed point in one pass: `<<b>svg>` loses `<b>`, then the `<svg>` that forms. The output is
 * kept as ranges of the input ('<', '>' and the runs between); `opens` holds the output's '<'
 * that no '>' follows yet, so a '>' either closes the last of them or ends them all, as
 * `[^<>]*>` would. Each character is looked at a bounded number of times.
 */
function removeTags(text: string): string {
  if (!TAG.test(text)) return text;
  const starts = new Int32Array(text.length + 1);
  const ends = new Int32Array(text.length + 1);
  let size = 0;
  const add = (start: number, end: number) => {
    starts[size] = start;
    ends[size++] = end;
  };
  /** Whether the '<' at output range `open` is followed, past spaces, by a tag's first character. */
  const opensTag = (open: number): boolean => {
    for (let k = open + 1; k < size; k++) {
      for (let j = starts[k]; j < ends[k]; j++) {
        const char = text[j];
        if (!SPACE.test(char)) return isTagStart(char.charCodeAt(0));
      }
    }
    return false;
  };
  const opens: number[] = [];
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== LT && code !== GT) continue;
    if (i > runStart) add(runStart, i);
    runStart = i + 1;
    if (code === LT) {
      opens.push(size);
      add(i, i + 1);
    } else if (opens.length > 0 && opensTag(opens[opens.length - 1])) {
      size = opens.pop() as number;
    } else {
      add(i, i + 1);
      opens.length = 0;
    }
  }
  if (runStart < text.length) add(runStart, text.length);
  let result = '';
  for (let k = 0; k < size; ) {
    const start = starts[k];
    let end = ends[k++];
    while (k < size && starts[k] === end) end = ends[k++];
    result += text.slice(start, end);
  }
  return result;
}

function stripPass(text: string): string {
  return removeTags(text).replace(HANDLER_ATTRIBUTE, '').replace(SCRIPT_URL_ALL, '').replace(DATA_HTML_URL_ALL, '');
}

/**
 * What survives the passes (only input built to outlast them) is made inert without removing
 * anything, so nothing new can form: '<' before a tag becomes '‹', and the '=' or ':' of a
 * handler or a javascript:/data: URL becomes its full-width form.
 */
function neutralise(text: string): string {
  const defuse = (match: string) => match.replace(/=/g, '＝').replace(/:/g, '：');
  return text
    .replace(HANDLER_ATTRIBUTE, defuse)
    .replace(SCRIPT_URL_ALL, defuse)
    .replace(DATA_HTML_URL_ALL, defuse)
    .replace(TAG_OPEN, '‹');
}

/**
 * Strips markup and attack fragments, then cuts to `maxLength` (1000 by default). The result
 * holds no tag and no event handler, and stripping it again changes nothing.
 */
export function stripMarkup(input: string, maxLength = SANITISED_TEXT_MAX): string {
  let text = removeBlocks(input.replace(CONTROL_CHARS, ''));
  let settled = false;
  for (let pass = 0; pass < MAX_PASSES && !settled; pass++) {
    const next = stripPass(text);
    settled = next === text;
    text = next;
  }
  // Unsettled, the last removals may have joined a `< b>` that browsers ignore but a second
  // call would strip: strip it now, so that the result is a fixed point.
  if (!settled) text = removeTags(text);
  // Cut by code points, as the database's char_length counts them (a code point is at most two
  // UTF-16 units, so the first 2 × maxLength units hold them). Cutting a tail cannot form a tag
  // or a handler, and neutralising keeps the length.
  if (text.length > maxLength) {
    text = Array.from(text.slice(0, 2 * maxLength))
      .slice(0, maxLength)
      .join('');
  }
  return neutralise(text);
}

export function sanitizeText(input: string, maxLength = SANITISED_TEXT_MAX): SanitizeResult {
  const assessment = assessRisk(input);
  return { ...assessment, value: stripMarkup(input, maxLength) };
}
