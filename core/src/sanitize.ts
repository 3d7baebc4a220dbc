/**
 * Input sanitising (spec §5 "Sanitising"), shared by the web forms and the server.
 *
 * Two separate jobs:
 * - `assessRisk` flags input that is an attack rather than text (script tags, javascript:
 *   URLs, event handlers, SQL-injection shapes). Such input is refused outright with the
 *   field's "format invalide" message and counted as a security violation by the server.
 * - `sanitizeText` strips what is left of markup from accepted text before it is stored:
 *   tags, script/style blocks, javascript: and event handlers, control characters, and cuts
 *   it to 1000 characters. The web app renders text as text (React escapes it); stripping
 *   keeps stored data clean for every other reader (e-mails, exports, admin).
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

// Handler names rather than /on\w+=/, so ordinary words ("one = two") are not attacks.
const EVENT_HANDLER = /\bon(?:abort|auxclick|before\w+|blur|change|click|close|contextmenu|copy|cut|dblclick|drag\w*|drop|error|focus\w*|hashchange|input|invalid|key\w+|load\w*|message|mouse\w+|paste|pause|play\w*|pointer\w+|popstate|reset|resize|scroll|search|select\w*|show|submit|toggle|touch\w+|transition\w+|animation\w+|unload|wheel)\s*=/i;

const CRITICAL_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['script_tag', /<\s*\/?\s*script\b/i],
  ['script_url', /\b(?:java|vb|live)script\s*:/i],
  ['data_html_url', /\bdata\s*:\s*text\/html/i],
  ['event_handler', EVENT_HANDLER],
  ['dangerous_tag', /<\s*(?:iframe|frame|object|embed|applet|meta|link|base|form|svg|math|style)\b/i],
  ['sql_union_select', /\bunion\b\s+(?:all\s+)?\bselect\b/i],
  ['sql_stacked_query', /;\s*(?:drop|delete|truncate|alter|insert|update|create|exec|execute|grant)\s+\w/i],
  ['sql_tautology', /['"]\s*(?:or|and)\s+(?:['"]?\w*['"]?)\s*=\s*(?:['"]?\w*['"]?)/i],
  // A quote closing a string then a comment: `admin'--`, `x');--`; not `"super" #vacances`.
  ['sql_comment_escape', /['"]\s*\)?\s*(?:;\s*)?(?:--|#|\/\*)\s*$|['"]\s*\)?\s*;\s*--/],
  ['sql_drop_table', /\b(?:drop|truncate)\s+(?:table|database)\b/i],
  ['sql_functions', /\b(?:xp_cmdshell|waitfor\s+delay|pg_sleep\s*\(|sleep\s*\(\s*\d+\s*\)|benchmark\s*\()/i],
];

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&', colon: ':', tab: '\t', newline: '\n', sol: '/' };

/**
 * Undoes the usual obfuscations before matching: HTML entities (`&#106;avascript`, `&lt;`),
 * and whitespace or control characters inside keywords (`java\tscript:`).
 */
function decodeForMatching(input: string): string {
  return input
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&([a-z]+);/gi, (whole, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? whole);
}

function squeeze(input: string): string {
  // eslint-disable-next-line no-control-regex
  return input.replace(/[\s\u0000-\u001f\u007f]+/g, '');
}

export function assessRisk(input: string): RiskAssessment {
  const decoded = decodeForMatching(input);
  const variants = [input, decoded];
  const threats: string[] = [];
  for (const [name, pattern] of CRITICAL_PATTERNS) {
    if (variants.some((v) => pattern.test(v))) threats.push(name);
  }
  // "java script:" split by whitespace or control characters only matters for URL schemes.
  if (!threats.includes('script_url') && /(?:java|vb)script:/i.test(squeeze(decoded))) threats.push('script_url');
  if (threats.length > 0) return { risk: 'critical', threats };
  return { risk: MARKUP.test(decoded) ? 'low' : 'none', threats };
}

/** True when the input must be refused (spec §5: "inputs flagged critical are rejected"). */
export function isCritical(input: string): boolean {
  return assessRisk(input).risk === 'critical';
}

// A tag starts with a letter, '/' or '!' right after '<': "je t'aime <3" and "a < b" stay text.
const MARKUP = /<\s*[a-z!/][^>]*>/i;

/** Strips markup and attack fragments, then cuts to `maxLength` (1000 by default). */
export function stripMarkup(input: string, maxLength = SANITISED_TEXT_MAX): string {
  let text = input
    .replace(/<\s*(script|style)\b[^>]*>[\s\S]*?<\s*\/\s*\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\s*[a-z!/][^>]*>/gi, '')
    .replace(/<\s*\/?\s*script\b[^>]*/gi, '')
    .replace(new RegExp(`${EVENT_HANDLER.source}\\s*(?:"[^"]*"|'[^']*'|[^\\s>]*)`, 'gi'), '')
    .replace(/\b(?:java|vb|live)script\s*:/gi, '')
    .replace(/\bdata\s*:\s*text\/html[^\s]*/gi, '')
    // Control characters other than tab and newlines never belong in text.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  // Cut by code points, as the database's char_length counts them.
  const chars = Array.from(text);
  if (chars.length > maxLength) text = chars.slice(0, maxLength).join('');
  return text;
}

export function sanitizeText(input: string, maxLength = SANITISED_TEXT_MAX): SanitizeResult {
  const assessment = assessRisk(input);
  return { ...assessment, value: stripMarkup(input, maxLength) };
}
