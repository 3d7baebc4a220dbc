/**
 * Answers the sign-up's human-check questions as a person would, from the question's text
 * alone. The kinds are those of server/src/modules/auth/human-check.ts: a sum, a product, a
 * number sequence, or one of a few simple questions.
 */
const SIMPLE_ANSWERS: Record<string, string> = {
  'Combien de jours compte une semaine ?': '7',
  'Combien de mois compte une année ?': '12',
  'Combien de pattes a un chat ?': '4',
  'Combien de doigts compte une main ?': '5',
  'De quelle couleur est le ciel par beau temps ?': 'bleu',
  'De quelle couleur est la neige ?': 'blanc',
  'Quelle est la capitale de la France ?': 'Paris',
  'Quel jour vient après lundi ?': 'mardi',
};

export function solveChallenge(question: string): string {
  const text = question.replace(/\s+/g, ' ').trim();
  const operation = /^Combien font (\d+) ([+×x*]) (\d+) \?$/.exec(text);
  if (operation) {
    const a = Number(operation[1]);
    const b = Number(operation[3]);
    return String(operation[2] === '+' ? a + b : a * b);
  }
  const sequence = /^Quel nombre vient ensuite : ([\d, ]+), … \?$/.exec(text);
  if (sequence) {
    const terms = sequence[1].split(',').map((s) => Number(s.trim()));
    if (terms.length >= 2 && terms.every(Number.isFinite)) {
      const step = terms[1] - terms[0];
      return String(terms[terms.length - 1] + step);
    }
  }
  const simple = SIMPLE_ANSWERS[text];
  if (simple) return simple;
  throw new Error(`Question de vérification inconnue : ${question}`);
}

/** The server refuses a right answer sooner than 1 s after its question as "too fast" (plus a margin). */
export const HUMAN_DELAY_MS = 1_100;

/**
 * Waits until an answer to a question shown at `shownAt` (Date.now()) is no longer too fast: the
 * server's own rule, timed from the moment the question was on screen, not a guess at the UI.
 */
export async function humanDelayPassed(shownAt: number): Promise<void> {
  const left = HUMAN_DELAY_MS - (Date.now() - shownAt);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
