import { describe, expect, it } from 'vitest';
import {
  nextInWindow,
  OPT_OUT_LINE,
  PACING_DEFAULTS,
  pacingSchema,
  renderCampaignMessage,
  WARMUP_DAILY_CAPS,
  warmupCap,
  windowCloses,
} from './campaign.ts';
import { canonicalWhatsapp, isOptOutReply, sameWhatsapp, whatsappDigits, whatsappForms } from './whatsapp.ts';

describe('campaign message', () => {
  it('replaces the variables and appends the opt-out line', () => {
    expect(
      renderCampaignMessage('Oi {primeiro_nome}! {nome}, a {loja} te deu o cupom {cupom}.', {
        name: ' Maria da Silva ',
        shop: 'Loja Centro',
        coupon: 'NATAL10',
      }),
    ).toBe(`Oi Maria! Maria da Silva, a Loja Centro te deu o cupom NATAL10.\n\n${OPT_OUT_LINE}`);
  });

  it('greets a company by its name without the legal form, a person by the first name', () => {
    const render = (name: string, personType: string) =>
      renderCampaignMessage('Olá {primeiro_nome}!', { name, shop: 'Loja', personType }).split('\n')[0];
    expect(render('Construtora Alfa Ltda', 'company')).toBe('Olá Construtora Alfa!');
    expect(render('Padaria Pão Quente ME', 'company')).toBe('Olá Padaria Pão Quente!');
    expect(render('Mercado Bom Preço S/A', 'company')).toBe('Olá Mercado Bom Preço!');
    expect(render('Construtora Alfa Ltda', 'person')).toBe('Olá Construtora!');
    expect(render('Maria da Silva', 'person')).toBe('Olá Maria!');
  });

  it('reads SAIR and PARAR in any case and accent, nothing else', () => {
    expect(['sair', ' SAIR ', 'Parar', 'PARÁR'].every(isOptOutReply)).toBe(true);
    expect(['sair daqui', 'ok', ''].some(isOptOutReply)).toBe(false);
  });

  it('normalizes WhatsApp numbers to 55 + DDD + number', () => {
    expect(whatsappDigits('(11) 98765-4321')).toBe('5511987654321');
    expect(whatsappDigits('+55 11 98765-4321')).toBe('5511987654321');
    expect(whatsappDigits('123')).toBeNull();
  });

  it('treats a mobile with and without the ninth digit as one number, jids and @lid included', () => {
    // Evolution's createJid stores DDD 31+ mobiles with 12 digits.
    expect(canonicalWhatsapp('553187654321@s.whatsapp.net')).toBe('5531987654321');
    expect(canonicalWhatsapp('553187654321:12@s.whatsapp.net')).toBe('5531987654321');
    expect(canonicalWhatsapp('(31) 98765-4321')).toBe('5531987654321');
    expect(canonicalWhatsapp('1187654321')).toBe('5511987654321');
    // Landlines keep their 12 digits.
    expect(canonicalWhatsapp('553132654321')).toBe('553132654321');
    expect(canonicalWhatsapp('123456789012345@lid')).toBeNull();
    expect(sameWhatsapp('553187654321', '5531987654321')).toBe(true);
    expect(sameWhatsapp('5531987654321', '5531987654322')).toBe(false);
    expect(whatsappForms('5531987654321')).toEqual(['5531987654321', '553187654321']);
    expect(whatsappForms('553132654321')).toEqual(['553132654321']);
  });
});

describe('sending window and warm-up', () => {
  const window = { windowStart: '08:00', windowEnd: '20:00' };
  const zone = 'America/Sao_Paulo';

  it('lets an instant inside the window through and moves the others to its next opening', () => {
    const noon = Date.parse('2026-12-01T15:00:00Z'); // 12:00 in São Paulo
    expect(nextInWindow(noon, window, zone)).toBe(noon);
    // 06:00 local: today at 08:00.
    expect(new Date(nextInWindow(Date.parse('2026-12-01T09:00:00Z'), window, zone)).toISOString()).toBe(
      '2026-12-01T11:00:00.000Z',
    );
    // 20:00 local sharp is closed: tomorrow at 08:00 (and across a month's end).
    expect(new Date(nextInWindow(Date.parse('2026-11-30T23:00:00Z'), window, zone)).toISOString()).toBe(
      '2026-12-01T11:00:00.000Z',
    );
    // Another zone reads the same window in its own hours (Manaus is UTC-4).
    expect(
      new Date(nextInWindow(Date.parse('2026-12-01T11:30:00Z'), window, 'America/Manaus')).toISOString(),
    ).toBe('2026-12-01T12:00:00.000Z');
    expect(new Date(windowCloses(noon, window, zone)).toISOString()).toBe('2026-12-01T23:00:00.000Z');
  });

  it('validates the window within 06:00-22:00, an hour at least', () => {
    const base = { ...PACING_DEFAULTS };
    expect(pacingSchema.safeParse(base).success).toBe(true);
    expect(pacingSchema.safeParse({ ...base, windowStart: '06:00', windowEnd: '22:00' }).success).toBe(true);
    expect(pacingSchema.safeParse({ ...base, windowStart: '05:59' }).success).toBe(false);
    expect(pacingSchema.safeParse({ ...base, windowEnd: '22:01' }).success).toBe(false);
    expect(pacingSchema.safeParse({ ...base, windowStart: '10:00', windowEnd: '10:59' }).success).toBe(false);
    expect(pacingSchema.safeParse({ ...base, windowStart: '24:00' }).success).toBe(false);
  });

  it('ramps the daily cap of a new number, then lets the campaign cap rule', () => {
    expect(warmupCap(1)).toBe(20);
    expect(warmupCap(3)).toBeLessThan(50);
    expect(WARMUP_DAILY_CAPS.every((cap, i) => i === 0 || cap > (WARMUP_DAILY_CAPS[i - 1] ?? 0))).toBe(true);
    expect(warmupCap(WARMUP_DAILY_CAPS.length + 1)).toBeNull();
  });
});
