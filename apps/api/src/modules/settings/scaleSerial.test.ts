import { readWeight } from '@balcao/core/scale/serialScale';
import { describe, expect, it } from 'vitest';
import { fakeScale } from '../../../test/fakes/scale.ts';

describe('serial scale emulator (Toledo)', () => {
  it('answers each ENQ with what is on the plate, in pieces, through the serial line', async () => {
    const scale = fakeScale('toledo', { chunkSize: 2 });
    scale.put({ status: 'stable', grams: 347 });
    expect(await readWeight(scale.transport, 'toledo')).toEqual({ status: 'stable', grams: 347 });
    scale.put({ status: 'unstable' });
    expect(await readWeight(scale.transport, 'toledo')).toEqual({ status: 'unstable' });
    scale.put({ status: 'negative' });
    expect(await readWeight(scale.transport, 'toledo')).toEqual({ status: 'negative' });
    scale.put({ status: 'overload' });
    expect(await readWeight(scale.transport, 'toledo')).toEqual({ status: 'overload' });
    expect(scale.enquiries).toBe(4);
    scale.close();
  });

  it('a silent scale times out with the reason', async () => {
    const scale = fakeScale('toledo', { silent: true });
    await expect(readWeight(scale.transport, 'toledo', 100)).rejects.toThrow('A balança não respondeu');
    scale.close();
  });
});
