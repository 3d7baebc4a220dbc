import { describe, expect, it } from 'vitest';
import { assessRisk, isCritical, sanitizeText, stripMarkup } from '../src/index.ts';

describe('assessRisk', () => {
  it.each([
    ['<script>alert(1)</script>', 'script_tag'],
    ['< SCRIPT src=x>', 'script_tag'],
    ['javascript:alert(1)', 'script_url'],
    ['JaVaScRiPt :void(0)', 'script_url'],
    ['&#106;avascript:alert(1)', 'script_url'],
    ['java\tscript:alert(1)', 'script_url'],
    ['<img src=x onerror=alert(1)>', 'event_handler'],
    ['<div onClick = "steal()">', 'event_handler'],
    ['<iframe src="https://evil">', 'dangerous_tag'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'data_html_url'],
    ["' OR 1=1 --", 'sql_tautology'],
    ["' or 'a'='a", 'sql_tautology'],
    ["admin'--", 'sql_comment_escape'],
    ['1 UNION SELECT password FROM users', 'sql_union_select'],
    ['x; DROP TABLE users', 'sql_stacked_query'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', 'script_tag'],
  ])('flags %j as critical (%s)', (input, threat) => {
    const result = assessRisk(input);
    expect(result.risk).toBe('critical');
    expect(result.threats).toContain(threat);
    expect(isCritical(input)).toBe(true);
  });

  it.each([
    "Je t'aime <3",
    'a < b > c',
    "C'est l'heure de l'apéro ! #vacances",
    'J\'adore "la plage" #soleil',
    'One = two, someone = nobody',
    "L'expression (au sens propre) d'une humeur",
    'Jean-Pierre',
    "O'Connor",
    'Rendez-vous à 18h -- on se retrouve au port',
    'select the best option, or update me later',
    'marie.dupont+moodmap@example.fr',
    'Motdepasse1',
  ])('lets ordinary text %j through', (input) => {
    expect(assessRisk(input).risk).not.toBe('critical');
  });

  it('reports plain markup as low risk', () => {
    expect(assessRisk('<b>Bonjour</b>')).toEqual({ risk: 'low', threats: [] });
    expect(assessRisk('Bonjour')).toEqual({ risk: 'none', threats: [] });
  });
});

describe('sanitizeText', () => {
  it('removes tags, script blocks, event handlers and javascript: URLs', () => {
    expect(stripMarkup('<b>Salut</b> <script>alert(1)</script>tout le monde')).toBe('Salut tout le monde');
    expect(stripMarkup('voir javascript:alert(1)')).toBe('voir alert(1)');
    expect(stripMarkup('clic onclick="x()" ici')).toBe('clic  ici');
    expect(stripMarkup('<style>body{}</style>ok<!-- note -->')).toBe('ok');
  });

  it('keeps text that only looks like markup', () => {
    expect(stripMarkup("je t'aime <3 et 2 < 3")).toBe("je t'aime <3 et 2 < 3");
  });

  it('drops control characters but keeps newlines and tabs', () => {
    expect(stripMarkup('a\u0000b\u0007c\nd\te')).toBe('abc\nd\te');
  });

  it('cuts stored text to 1000 characters, counting emoji as one', () => {
    expect(stripMarkup('x'.repeat(1500))).toHaveLength(1000);
    const emoji = stripMarkup('😀'.repeat(1001));
    expect(Array.from(emoji)).toHaveLength(1000);
    expect(stripMarkup('abcdef', 3)).toBe('abc');
  });

  it('returns the cleaned value with its risk', () => {
    expect(sanitizeText('<i>ok</i>')).toEqual({ value: 'ok', risk: 'low', threats: [] });
    expect(sanitizeText('<script>x</script>y').risk).toBe('critical');
  });
});
