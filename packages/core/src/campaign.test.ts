import { describe, expect, it } from 'vitest';
import { isoToShopLocal, OPT_OUT_LINE, renderCampaignMessage, shopLocalToIso } from './campaign.ts';
import { isOptOutReply, whatsappDigits } from './whatsapp.ts';

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

  it('reads SAIR and PARAR in any case and accent, nothing else', () => {
    expect(['sair', ' SAIR ', 'Parar', 'PARÁR'].every(isOptOutReply)).toBe(true);
    expect(['sair daqui', 'ok', ''].some(isOptOutReply)).toBe(false);
  });

  it('normalizes WhatsApp numbers to 55 + DDD + number', () => {
    expect(whatsappDigits('(11) 98765-4321')).toBe('5511987654321');
    expect(whatsappDigits('+55 11 98765-4321')).toBe('5511987654321');
    expect(whatsappDigits('123')).toBeNull();
  });

  it("schedules in the shop's time zone", () => {
    expect(shopLocalToIso('2026-12-01T09:30', 'America/Sao_Paulo')).toBe('2026-12-01T12:30:00.000Z');
    expect(shopLocalToIso('2026-12-01T09:30', 'America/Manaus')).toBe('2026-12-01T13:30:00.000Z');
    expect(isoToShopLocal('2026-12-01T12:30:00.000Z', 'America/Sao_Paulo')).toBe('2026-12-01T09:30');
    expect(shopLocalToIso('amanhã', 'America/Sao_Paulo')).toBeNull();
  });
});
