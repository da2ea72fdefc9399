const rules = new Intl.PluralRules('pt-BR');
/** Made once: `toLocaleString` builds a formatter per call (200 board cards spent 20 ms on it). */
const numbers = new Intl.NumberFormat('pt-BR');

/**
 * A count with the words that agree with it, the one way to write a count in a message:
 * `plural(1, 'produto baixado', 'produtos baixados')` is "1 produto baixado", 0 and 2 give
 * "0 produtos baixados" and "2 produtos baixados", 1,5 gives "1,5 quilo" (CLDR's rule for Portuguese,
 * which also calls 0 "one"; Brazilian usage writes "0 produtos", so 0 takes the plural).
 */
export function plural(count: number, one: string, other: string): string {
  return `${numbers.format(count)} ${pluralWord(count, one, other)}`;
}

/** Only the word: `pluralWord(n, 'item', 'itens')`. */
export function pluralWord(count: number, one: string, other: string): string {
  return count !== 0 && rules.select(count) === 'one' ? one : other;
}
