import { type AgentScaleReading, SCALE_READING_EVENT, SCALE_STALE_MS } from '@balcao/core/printAgent';
import { useEffect, useState } from 'react';
import { io } from 'socket.io-client';

const API_KEY = import.meta.env.VITE_API_KEY ?? 'balcao-public-key';

type AgentScale = AgentScaleReading & { at: number };

/**
 * The scales on the shop's print agents (issue 36): each agent with a serial scale sends its reading
 * through the API (a change at once, the same one every 2 s); this keeps the latest of each agent and
 * forgets one silent for SCALE_STALE_MS (agent closed, PC off). Listens only while `enabled`.
 */
export function useAgentScales(enabled: boolean, clientId: number | undefined, token: string | undefined) {
  const [scales, setScales] = useState<AgentScale[]>([]);

  useEffect(() => {
    if (!enabled || !clientId || !token) return;
    const channel = `notifications_${clientId}`;
    const socket = io({
      path: '/socket.io',
      query: { key: API_KEY },
      auth: { token },
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
    socket.on('connect', () => socket.emit('joinChannel', channel));
    socket.on(SCALE_READING_EVENT, (heard: AgentScaleReading) => {
      if (typeof heard?.agentId !== 'number') return;
      setScales((list) => [...list.filter((s) => s.agentId !== heard.agentId), { ...heard, at: Date.now() }]);
    });
    const prune = setInterval(() => {
      const now = Date.now();
      setScales((list) =>
        list.some((s) => now - s.at > SCALE_STALE_MS)
          ? list.filter((s) => now - s.at <= SCALE_STALE_MS)
          : list,
      );
    }, 1000);
    return () => {
      clearInterval(prune);
      socket.disconnect();
      setScales([]);
    };
  }, [enabled, clientId, token]);

  return scales;
}
