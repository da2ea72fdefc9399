import { PACING_DEFAULTS, type Pacing, warmupCap } from '@balcao/core/campaign';

const DAY = 86_400_000;

/** Pacing stored before the sending window existed reads with the default window. */
export const pacingOf = (p: Pacing): Pacing => ({ ...PACING_DEFAULTS, ...p });

/** The daily cap of the shop's number today: the campaign's, lowered during the number's warm-up. */
export function effectiveDailyCap(pacing: Pacing, warmupStartedAt: Date | null, now: Date): number {
  if (!warmupStartedAt) return pacing.dailyCap;
  const day = Math.floor((now.getTime() - warmupStartedAt.getTime()) / DAY) + 1;
  const cap = warmupCap(day);
  return cap === null ? pacing.dailyCap : Math.min(cap, pacing.dailyCap);
}
