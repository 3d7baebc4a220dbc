/**
 * Hostile input for the sanitiser: inputs built to make a
 * backtracking pattern take quadratic time, markup nested to survive one stripping pass, and
 * property tests (fast-check, fixed seed) over an alphabet of dangerous fragments.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessRisk, isCritical, sanitizeText, stripMarkup } from '../src/index.ts';

const MB = 1_000_000;
const repeat = (fragment: string, length = MB) => fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length);

/**
 * Not a timing assertion: linear code answers these at once, a quadratic pattern would need
 * hours on a million characters. The timeout only stops a run that would never end.
 */
const NEVER_ENDS = 60_000;

/** What a browser would parse as a tag, a comment or a declaration. */
const HTML_TAG = /<[a-z!/?]/i;
/** A tag as the stripping sees one, spaces allowed after '<'. */
const LOOSE_TAG = /<\s*[a-z!/?][^<>]*>/i;
/** Handler attributes, listed here independently of the sanitiser's own list. */
const HANDLER =
  /\bon(?:begin|end|repeat|start|finish|load|error|click|mouseover|focus|scrollend|toggle|animationstart|pointerdown|beforetoggle|wheel)\s*=/i;
const SCRIPT_URL = /\bjavascript\s*:/i;

describe('worst cases stay linear', () => {
  it.each([
    ['quote then spaces', "'" + ' '.repeat(MB)],
    ['quote, spaces, parenthesis, spaces', "'" + ' '.repeat(MB / 2) + ')' + ' '.repeat(MB / 2)],
    ['"\' or" then spaces', "' or" + ' '.repeat(MB)],
    ['"\'or " repeated', repeat("'or ")],
    ['"\' or \'" repeated', repeat("' or '")],
    ['quotes repeated', repeat(`'"`)],
    ['"<" then spaces', '<' + ' '.repeat(MB)],
    ['"< /" then spaces', '< /' + ' '.repeat(MB)],
    ['"&#" repeated', repeat('&#')],
    ['"&#x9" repeated', repeat('&#x9')],
    ['a reference of a million digits', '&#' + '9'.repeat(MB)],
    ['nested "<<<<"', '<'.repeat(MB / 2) + repeat('b>', MB / 2)],
    ['"<<b>" repeated', repeat('<<b>')],
    ['"<a " repeated', repeat('<a ')],
    ['"on" runs', repeat('on')],
    ['"onclick=\\"" repeated', repeat('onclick="')],
    ['an open tag then " on" runs', '<a' + repeat(' o')],
    ['"<script>" never closed', repeat('<script>')],
    ['"<!--" never closed', repeat('<!--')],
    ['"; " repeated', repeat('; ')],
    ['"java script" nested around colons', repeat('javascript ', MB / 2) + repeat(':', MB / 2)],
    ['"java<b>script:" repeated', repeat('java<b>script:')],
  ])(
    '%s',
    (_, input) => {
      expect(['none', 'low', 'critical']).toContain(assessRisk(input).risk);
      const { value } = sanitizeText(input);
      expect(Array.from(value).length).toBeLessThanOrEqual(1000);
      expect(value).not.toMatch(HTML_TAG);
    },
    NEVER_ENDS,
  );

  it(
    'still finds the threats at the end of a long run',
    () => {
      expect(assessRisk("admin'" + ' '.repeat(MB) + '--').threats).toContain('sql_comment_escape');
      expect(assessRisk("'" + ' '.repeat(MB) + 'or 1=1').threats).toContain('sql_tautology');
      expect(assessRisk('<' + ' '.repeat(MB) + 'script>').threats).toContain('script_tag');
      expect(isCritical("' or" + ' '.repeat(MB))).toBe(false);
    },
    NEVER_ENDS,
  );

  it('reads out-of-range character references as U+FFFD instead of throwing', () => {
    expect(() => assessRisk(`&#${'9'.repeat(400)};`)).not.toThrow();
    expect(() => assessRisk(`&#x${'f'.repeat(400)};`)).not.toThrow();
    expect(isCritical('&#106;&#x61;vascript:alert(1)')).toBe(true);
  });
});

describe('event handlers', () => {
  it.each([
    'onbegin',
    'onscrollend',
    'onstart',
    'onend',
    'onrepeat',
    'onbeforetoggle',
    'onpointerrawupdate',
    'oncontentvisibilityautostatechange',
  ])('flags and strips %s', (name) => {
    expect(assessRisk(`<animate ${name}=alert(1)>`).threats).toContain('event_handler');
    expect(assessRisk(`x ${name}=alert(1)`).threats).toContain('event_handler');
    expect(stripMarkup(`x ${name}=alert(1) y`)).toBe('x  y');
  });

  it('flags any on…= inside an open tag, but not ordinary text', () => {
    expect(assessRisk('<svg/onfutureevent=alert(1)>').threats).toContain('event_handler');
    expect(assessRisk('<x a onwhatever ="1"').threats).toContain('event_handler');
    for (const text of ['One = two, someone = nobody', 'oncle = tonton', 'onze = 11', 'online = oui']) {
      expect(isCritical(text), text).toBe(false);
      expect(stripMarkup(text), text).toBe(text);
    }
  });
});

describe('stripMarkup to a fixed point', () => {
  it('does not let nested markup rebuild a live tag', () => {
    const stored = stripMarkup('<<b>svg><<b>animate onbegin=alert(1) attributeName=x dur=1s>');
    expect(stored).not.toMatch(HTML_TAG);
    expect(stored).not.toMatch(HANDLER);
    expect(stripMarkup('<scr<b>ipt>alert(1)</scr<i>ipt>')).toBe('alert(1)');
    expect(stripMarkup('java<b>script:alert(1)')).toBe('alert(1)');
  });

  it('makes an unclosed tag inert and keeps text that only looks like markup', () => {
    expect(stripMarkup('salut <svg')).toBe('salut ‹svg');
    expect(stripMarkup('<!doctype')).toBe('‹!doctype');
    expect(stripMarkup("je t'aime <3")).toBe("je t'aime <3");
    expect(stripMarkup('a < b')).toBe('a < b');
    expect(stripMarkup('2 < 3 > 1')).toBe('2 < 3 > 1');
  });

  it('makes inert what survives many nested removals', () => {
    const depth = 50;
    const nestedUrl = 'java<b>'.repeat(depth) + 'script:'.repeat(depth);
    const nestedTag = '<'.repeat(depth) + 'b>'.repeat(depth) + 'svg onload=alert(1)>';
    for (const input of [nestedUrl, nestedTag, `${'<'.repeat(depth)}${'b>'.repeat(depth - 1)}b onbegin=x>`]) {
      const stored = stripMarkup(input);
      expect(stored).not.toMatch(HTML_TAG);
      expect(stored).not.toMatch(LOOSE_TAG);
      expect(stored).not.toMatch(HANDLER);
      expect(stored).not.toMatch(SCRIPT_URL);
      expect(stripMarkup(stored)).toBe(stored);
    }
  });
});

/** Fragments that together build nested tags, handlers, URLs and entity-encoded markup. */
const FRAGMENTS = [
  '<',
  '>',
  '<',
  '>',
  '/',
  '!',
  '?',
  'b>',
  '<b>',
  'svg',
  'script',
  'style',
  'on',
  'begin=',
  'load',
  'error',
  '=',
  'start',
  'end',
  'scroll',
  'javascript:',
  'java',
  'script:',
  ':',
  'data:',
  'text/html',
  '&lt;',
  '&#60;',
  '&#x3c;',
  '<!--',
  '-->',
  '"',
  "'",
  ' ',
  '\t',
  '\n',
  '\u0000',
  'a',
  'x',
  'é',
  '😀',
  '3',
  '1',
];
const hostileText = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 80 }).map((parts) => parts.join(''));
const SEED = { seed: 42, numRuns: 2000 } as const;

describe('stripMarkup properties (fast-check, fixed seed)', () => {
  it('never leaves a tag, a handler or a javascript: URL', () => {
    fc.assert(
      fc.property(hostileText, (input) => {
        const stored = stripMarkup(input);
        expect(stored).not.toMatch(HTML_TAG);
        expect(stored).not.toMatch(LOOSE_TAG);
        expect(stored).not.toMatch(HANDLER);
        expect(stored).not.toMatch(SCRIPT_URL);
      }),
      SEED,
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(hostileText, (input) => {
        const stored = stripMarkup(input);
        expect(stripMarkup(stored)).toBe(stored);
      }),
      SEED,
    );
  });

  it('is never longer than the maximum, in characters', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 60 }), (input, max) => {
        expect(Array.from(stripMarkup(input, max)).length).toBeLessThanOrEqual(max);
      }),
      SEED,
    );
  });

  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), hostileText), (input) => {
        const result = sanitizeText(input);
        expect(['none', 'low', 'critical']).toContain(result.risk);
      }),
      { seed: 42, numRuns: 1000 },
    );
  });
});
