import { describe, expect, it } from 'vitest';
import {
  ETX,
  parseFilizola,
  parseToledo,
  quantityFromScale,
  readWeight,
  ScaleFrameReader,
  type ScaleTransport,
  STX,
  scaleFrame,
} from './serialScale.ts';

const bytes = (text: string) => Uint8Array.from(Array.from(text, (c) => c.charCodeAt(0)));

describe('Toledo protocol', () => {
  it('reads the manual frames: STX 00347 ETX, IIIII unstable, NNNNN negative, SSSSS overload', () => {
    // The answers ACBrBAL's Toledo driver reads (OpenAC.Net.Balanca ProtocoloToledo.cs).
    const reader = new ScaleFrameReader();
    const frames = reader.push(
      Uint8Array.of(STX, ...bytes('00347'), ETX, STX, ...bytes('IIIII'), ETX, STX, ...bytes('NNNNN'), ETX),
    );
    expect(frames).toEqual(['00347', 'IIIII', 'NNNNN']);
    expect(frames.map(parseToledo)).toEqual([
      { status: 'stable', grams: 347 },
      { status: 'unstable' },
      { status: 'negative' },
    ]);
    expect(parseToledo('SSSSS')).toEqual({ status: 'overload' });
    expect(parseToledo('15000')).toEqual({ status: 'stable', grams: 15000 });
    expect(() => parseToledo('12a45')).toThrow('Resposta da balança inválida: "12a45"');
  });

  it('joins a frame split across reads and drops a half frame caught when connecting', () => {
    const reader = new ScaleFrameReader();
    expect(reader.push(bytes('47'))).toEqual([]); // the tail of a frame sent before we listened
    expect(reader.push(Uint8Array.of(ETX, STX, ...bytes('01')))).toEqual([]);
    expect(reader.push(Uint8Array.of(...bytes('250'), ETX))).toEqual(['01250']);
  });

  it('writes the frames the emulator sends', () => {
    expect(Array.from(scaleFrame('toledo', { status: 'stable', grams: 347 }))).toEqual([
      STX,
      ...bytes('00347'),
      ETX,
    ]);
    expect(String.fromCharCode(...scaleFrame('toledo', { status: 'overload' }).slice(1, 6))).toBe('SSSSS');
  });
});

describe('Filizola protocol', () => {
  it('reads the weight and the state letter in front', () => {
    expect(parseFilizola('01234')).toEqual({ status: 'stable', grams: 1234 });
    expect(parseFilizola('I0000')).toEqual({ status: 'unstable' });
    expect(parseFilizola('N0000')).toEqual({ status: 'negative' });
    expect(parseFilizola('SSSSS')).toEqual({ status: 'overload' });
  });
});

describe('readWeight', () => {
  it('sends ENQ and gives up with the reason when the scale is silent', async () => {
    const sent: number[] = [];
    const silent: ScaleTransport = {
      write: async (b) => {
        sent.push(...b);
      },
      read: () => new Promise(() => {}),
    };
    await expect(readWeight(silent, 'toledo', 50)).rejects.toThrow(
      'A balança não respondeu: confira o cabo, a porta e a velocidade (9600)',
    );
    expect(sent).toEqual([0x05]);
  });
});

describe('a kg product added with the scale connected', () => {
  it('takes the stable weight and never an unstable, negative, overloaded or empty plate', () => {
    expect(quantityFromScale({ status: 'stable', grams: 347 }, 'Presunto')).toEqual({ quantity: 0.347 });
    expect(quantityFromScale({ status: 'unstable' }, 'Presunto')).toEqual({
      message: 'Presunto: Peso instável: aguarde a balança parar',
    });
    expect(quantityFromScale({ status: 'negative' }, 'Presunto')).toEqual({
      message: 'Presunto: Peso negativo: confira a tara da balança',
    });
    expect(quantityFromScale({ status: 'overload' }, 'Presunto')).toEqual({
      message: 'Presunto: Sobrecarga: peso acima da capacidade da balança',
    });
    expect(quantityFromScale({ status: 'stable', grams: 0 }, 'Presunto')).toEqual({
      message: 'Presunto: coloque o produto na balança',
    });
    expect(quantityFromScale(null, 'Presunto')).toEqual({
      message: 'Presunto: coloque o produto na balança',
    });
  });
});
