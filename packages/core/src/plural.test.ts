import { describe, expect, it } from 'vitest';
import { plural, pluralWord } from './plural.ts';

describe('plural', () => {
  it('agrees the words with the count as Brazilian Portuguese writes them', () => {
    expect(plural(1, 'produto baixado', 'produtos baixados')).toBe('1 produto baixado');
    expect(plural(0, 'produto baixado', 'produtos baixados')).toBe('0 produtos baixados');
    expect(plural(2, 'venda', 'vendas')).toBe('2 vendas');
    expect(plural(1500, 'venda', 'vendas')).toBe('1.500 vendas');
    expect(pluralWord(1, 'item', 'itens')).toBe('item');
    expect(pluralWord(1.5, 'quilo', 'quilos')).toBe('quilo');
  });
});
