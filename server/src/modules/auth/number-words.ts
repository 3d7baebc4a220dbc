/**
 * Numbers 0–100 as words, in French (with the Belgian/Swiss septante, huitante, octante,
 * nonante) and English, so a human-check answer may be typed '10', 'dix' or 'ten'.
 */
const FR_UNITS = [
  'zéro',
  'un',
  'deux',
  'trois',
  'quatre',
  'cinq',
  'six',
  'sept',
  'huit',
  'neuf',
  'dix',
  'onze',
  'douze',
  'treize',
  'quatorze',
  'quinze',
  'seize',
  'dix-sept',
  'dix-huit',
  'dix-neuf',
];
const FR_TENS: Record<number, string> = { 2: 'vingt', 3: 'trente', 4: 'quarante', 5: 'cinquante', 6: 'soixante' };

/** "vingt et un", "trente-deux": tens with the 'et un' rule. */
function frTens(tens: string, unit: number): string {
  if (unit === 0) return tens;
  if (unit === 1) return `${tens} et un`;
  return `${tens}-${FR_UNITS[unit]}`;
}

export function frenchNumberWords(n: number): string[] {
  if (n < 0 || n > 100 || !Number.isInteger(n)) return [];
  if (n === 100) return ['cent'];
  if (n < 20) return [FR_UNITS[n]];
  const tens = Math.floor(n / 10);
  const unit = n % 10;
  if (tens < 7) return [frTens(FR_TENS[tens], unit)];
  const words: string[] = [];
  // France: 70–79 = soixante + 10–19, 80–99 = quatre-vingt(s) + 0–19.
  if (tens === 7) words.push(unit === 1 ? 'soixante et onze' : `soixante-${FR_UNITS[10 + unit]}`);
  else {
    const rest = n - 80;
    words.push(rest === 0 ? 'quatre-vingts' : `quatre-vingt-${FR_UNITS[rest]}`);
    if (rest === 0) words.push('quatre-vingt');
  }
  // Belgium and Switzerland.
  const regional: Record<number, string[]> = { 7: ['septante'], 8: ['huitante', 'octante'], 9: ['nonante'] };
  for (const word of regional[tens]) words.push(frTens(word, unit));
  return words;
}

const EN_UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

export function englishNumberWords(n: number): string[] {
  if (n < 0 || n > 100 || !Number.isInteger(n)) return [];
  if (n === 100) return ['one hundred', 'a hundred', 'hundred'];
  if (n < 20) return [EN_UNITS[n]];
  const unit = n % 10;
  const tens = EN_TENS[Math.floor(n / 10)];
  return [unit === 0 ? tens : `${tens}-${EN_UNITS[unit]}`];
}

/** Every accepted spelling of a number: digits, French, English. */
export function numberAnswers(n: number): string[] {
  return [String(n), ...frenchNumberWords(n), ...englishNumberWords(n)];
}
