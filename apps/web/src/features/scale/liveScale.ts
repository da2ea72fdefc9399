import {
  readWeight,
  SCALE_SERIAL_DEFAULTS,
  type ScaleProtocol,
  type ScaleReading,
  type ScaleTransport,
} from '@balcao/core/scale/serialScale';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getToken } from '../../lib/cookies.ts';
import { useAgentScales } from './agentScale.ts';

/**
 * The scale read live at the PDV through Web Serial (Chromium, issue 36): the caixa picks the port
 * once, the PDV asks for the weight (ENQ) a few times a second and shows it. Or the scale is on a print
 * agent's PC: the agent reads it (same core protocol code) and the API relays each reading here.
 * A scale connected through Web Serial wins; otherwise the chosen agent's (or the only one's).
 */

/** The bits of the Web Serial API used here (not in TypeScript's DOM library yet). */
type SerialPortLike = {
  open(options: { baudRate: number; dataBits?: number; stopBits?: number; parity?: string }): Promise<void>;
  close(): Promise<void>;
  readable: ReadableStream<Uint8Array> | null;
  writable: WritableStream<Uint8Array> | null;
};
type SerialLike = { requestPort(): Promise<SerialPortLike> };

const serialOf = (): SerialLike | undefined => (navigator as unknown as { serial?: SerialLike }).serial;

export const webSerialAvailable = () => typeof navigator !== 'undefined' && Boolean(serialOf());

const POLL_MS = 300;
const PROTOCOL_KEY = 'balcao-scale-protocol';
const AGENT_KEY = 'balcao-scale-agent';

export type LiveScale = {
  /** Web Serial can be used here (Chromium). */
  available: boolean;
  /** A scale is read now: through Web Serial, or a print agent's. */
  connected: boolean;
  source: 'serial' | 'agent' | null;
  /** The print agents whose scale is heard now, and the one read. */
  agents: { id: number; name: string }[];
  agentId: number | null;
  chooseAgent: (id: number) => void;
  protocol: ScaleProtocol;
  setProtocol: (protocol: ScaleProtocol) => void;
  reading: ScaleReading | null;
  error: string | null;
  connect: () => Promise<void>;
  disconnect: () => Promise<void>;
};

/** `agentsOf`: the shop whose print agents' scales are heard (none: Web Serial only). */
export function useLiveScale(agentsOf?: number): LiveScale {
  const agentScales = useAgentScales(agentsOf !== undefined, agentsOf, getToken());
  const [chosenAgent, setChosenAgent] = useState<number | null>(() => {
    const saved = Number(localStorage.getItem(AGENT_KEY));
    return Number.isInteger(saved) && saved > 0 ? saved : null;
  });
  const [protocol, setProtocolState] = useState<ScaleProtocol>(
    () => (localStorage.getItem(PROTOCOL_KEY) as ScaleProtocol | null) ?? 'toledo',
  );
  const [reading, setReading] = useState<ScaleReading | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [connected, setConnected] = useState(false);
  const stop = useRef<(() => Promise<void>) | null>(null);

  const disconnect = useCallback(async () => {
    const current = stop.current;
    stop.current = null;
    setConnected(false);
    setReading(null);
    await current?.();
  }, []);

  useEffect(() => () => void stop.current?.(), []);

  const connect = useCallback(async () => {
    const serial = serialOf();
    if (!serial) return;
    setError(null);
    try {
      const port = await serial.requestPort();
      await port.open(SCALE_SERIAL_DEFAULTS);
      const reader = port.readable?.getReader();
      const writer = port.writable?.getWriter();
      if (!reader || !writer) throw new Error('A porta da balança não abriu');
      const transport: ScaleTransport = {
        write: (bytes) => writer.write(bytes),
        read: async () => {
          const { value, done } = await reader.read();
          return done ? null : (value ?? new Uint8Array());
        },
      };
      let running = true;
      stop.current = async () => {
        running = false;
        await reader.cancel().catch(() => undefined);
        reader.releaseLock();
        writer.releaseLock();
        await port.close().catch(() => undefined);
      };
      setConnected(true);
      const chosen = (localStorage.getItem(PROTOCOL_KEY) as ScaleProtocol | null) ?? 'toledo';
      void (async () => {
        while (running) {
          try {
            setReading(await readWeight(transport, chosen));
            setError(null);
          } catch (e) {
            if (running) setError((e as Error).message);
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      })();
    } catch (e) {
      // The caixa closed the port picker: nothing to say.
      if ((e as Error).name !== 'NotFoundError') setError((e as Error).message);
    }
  }, []);

  const setProtocol = useCallback((next: ScaleProtocol) => {
    localStorage.setItem(PROTOCOL_KEY, next);
    setProtocolState(next);
  }, []);

  const chooseAgent = useCallback((id: number) => {
    localStorage.setItem(AGENT_KEY, String(id));
    setChosenAgent(id);
  }, []);

  const agent = connected
    ? undefined
    : (agentScales.find((s) => s.agentId === chosenAgent) ?? agentScales[agentScales.length - 1]);
  return {
    available: webSerialAvailable(),
    connected: connected || Boolean(agent),
    source: connected ? 'serial' : agent ? 'agent' : null,
    agents: agentScales.map((s) => ({ id: s.agentId, name: s.agentName })),
    agentId: agent?.agentId ?? null,
    chooseAgent,
    protocol,
    setProtocol,
    reading: agent ? agent.reading : reading,
    error: agent ? agent.error || null : error,
    connect,
    disconnect,
  };
}
