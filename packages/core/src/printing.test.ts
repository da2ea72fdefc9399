import { describe, expect, it } from 'vitest';
import {
  printingSettingsInputSchema,
  printJobInputSchema,
  reprintDocument,
  testPageDocument,
} from './printing.ts';

const profile = {
  key: 'k1',
  name: 'Caixa',
  paperWidth: 58 as const,
  columns: 32 as const,
  codePage: 'CP850' as const,
  copies: 2,
  cut: false,
};

describe('test page', () => {
  it('shows the settings, a column ruler and the accent line within the columns', () => {
    const page = testPageDocument(profile, new Date('2026-11-22T15:00:00Z'), 'America/Sao_Paulo');
    expect(page.title).toBe('Página de teste: Caixa');
    expect(page.lines).toContain('Página de código: CP850');
    expect(page.lines).toContain('12345678901234567890123456789012');
    expect(page.lines).toContain('áàâãéêíóôõúç ÁÀÂÃÉÊÍÓÔÕÚÇ');
    expect(page.lines.at(-1)?.trim()).toBe('22/11/2026, 12:00');
    expect(page.lines.every((l) => l.length <= 32)).toBe(true);
  });

  it("prints the time on the shop's clock", () => {
    const page = testPageDocument(profile, new Date('2026-11-22T15:00:00Z'), 'America/Manaus');
    expect(page.lines.at(-1)?.trim()).toBe('22/11/2026, 11:00');
  });
});

describe('reprint', () => {
  it('marks the document once, on its title and first line', () => {
    const once = reprintDocument({ title: 'Venda nº 7', lines: ['a', 'b'] }, 32);
    expect(once.title).toBe('REIMPRESSÃO: Venda nº 7');
    expect(once.lines).toEqual(['      *** REIMPRESSÃO ***', 'a', 'b']);
    expect(reprintDocument(once, 32)).toEqual(once);
  });
});

describe('printer settings input', () => {
  const valid = { profiles: [profile], sectors: [], receipt: { autoPrint: false, profileKey: null } };

  it('accepts 58 mm up to 42 columns and refuses 48', () => {
    expect(printingSettingsInputSchema.safeParse(valid).success).toBe(true);
    expect(
      printingSettingsInputSchema.safeParse({ ...valid, profiles: [{ ...profile, columns: 42 }] }).success,
    ).toBe(true);
    const wide = printingSettingsInputSchema.safeParse({ ...valid, profiles: [{ ...profile, columns: 48 }] });
    expect(wide.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['profiles.0.columns', 'Papel de 58 mm imprime no máximo 42 colunas'],
    ]);
  });

  it('requires a name, a known paper and a receipt printer when printing automatically', () => {
    const result = printingSettingsInputSchema.safeParse({
      profiles: [{ ...profile, name: ' ', paperWidth: 76 }],
      sectors: [],
      receipt: { autoPrint: true, profileKey: null },
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['profiles.0.name', 'O nome é obrigatório'],
      ['profiles.0.paperWidth', 'Escolha o papel: 58 ou 80 mm'],
    ]);
    const receipt = printingSettingsInputSchema.safeParse({
      ...valid,
      receipt: { autoPrint: true, profileKey: null },
    });
    expect(receipt.error?.issues[0].message).toBe(
      'Escolha a impressora do cupom para imprimir automaticamente',
    );
  });

  it('a job names a profile or a sector, not both, with an idempotency key', () => {
    const payload = { title: 'x', lines: ['x'] };
    const base = { kind: 'document', payload, idempotencyKey: 'chave-123456' };
    expect(printJobInputSchema.safeParse({ ...base, profileId: 1 }).success).toBe(true);
    expect(printJobInputSchema.safeParse({ ...base, sectorId: 2 }).success).toBe(true);
    expect(
      printJobInputSchema.safeParse({ ...base, profileId: 1, sectorId: 2 }).error?.issues[0].message,
    ).toBe('Informe o perfil ou o setor da impressão');
    expect(printJobInputSchema.safeParse({ ...base, profileId: 1, idempotencyKey: undefined }).success).toBe(
      false,
    );
  });
});
