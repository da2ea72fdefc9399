import { useCallback, useEffect, useState } from 'react';

/**
 * The new-order sound (Web Audio: no sound file to load). Browsers start audio suspended until the
 * page gets a click (autoplay policy): the panel then shows a button that enables it (issue 30
 * item 17) instead of staying silent with no word.
 */

let shared: AudioContext | null | undefined;

/** The page's one AudioContext (null where there is no Web Audio). */
function audioContext(): AudioContext | null {
  if (shared !== undefined) return shared;
  const AudioCtx =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  try {
    shared = AudioCtx ? new AudioCtx() : null;
  } catch {
    shared = null;
  }
  return shared;
}

/** A short two-tone beep for a new order. Silent while audio is blocked (the panel says so). */
export function playNewOrderSound() {
  try {
    const audio = audioContext();
    if (audio?.state !== 'running') return;
    [880, 1320].forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.value = 0.15;
      osc.connect(gain).connect(audio.destination);
      const start = audio.currentTime + i * 0.18;
      osc.start(start);
      osc.stop(start + 0.15);
    });
  } catch {
    // No audio device: the bell still shows the order.
  }
}

/**
 * Whether the browser blocks the sound now, and the click that enables it (resumes the audio inside
 * the click, then beeps once so the user hears what a new order sounds like).
 */
export function useSoundBlocked(): { blocked: boolean; enable: () => Promise<void> } {
  const [blocked, setBlocked] = useState(() => {
    const audio = audioContext();
    return audio !== null && audio.state !== 'running';
  });
  useEffect(() => {
    const audio = audioContext();
    if (!audio) return;
    const update = () => setBlocked(audio.state !== 'running');
    audio.addEventListener('statechange', update);
    update();
    return () => audio.removeEventListener('statechange', update);
  }, []);
  const enable = useCallback(async () => {
    const audio = audioContext();
    if (!audio) return;
    await audio.resume().catch(() => undefined);
    setBlocked(audio.state !== 'running');
    playNewOrderSound();
  }, []);
  return { blocked, enable };
}

/** The current time, refreshed every `ms` (cards change colour as the promised time nears). */
export function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
