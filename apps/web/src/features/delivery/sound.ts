import { useEffect, useState } from 'react';

/** A short two-tone beep for a new order (Web Audio: no sound file to load). Silent when audio is blocked. */
export function playNewOrderSound() {
  try {
    const AudioCtx =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioCtx) return;
    const audio = new AudioCtx();
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
    setTimeout(() => void audio.close(), 800);
  } catch {
    // No audio (autoplay policy, no device): the bell still shows the order.
  }
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
