import { PRINT_JOB_EVENT, PRINT_STATION_EVENT, type PrintJob } from '@balcao/core/printing';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { io } from 'socket.io-client';
import { useConfirmPrinted, useReportPrintFailure } from './api.ts';
import { setStationState, useStationConfig } from './stationStore.ts';

const API_KEY = import.meta.env.VITE_API_KEY ?? 'balcao-public-key';

/** Millimetres of the printable width (the paper less the printer's margins). */
const PRINTABLE_MM = { 58: 48, 80: 72 } as const;

/**
 * The print area: the job's lines in a monospaced block as wide as the profile's paper, the font
 * sized so its columns fill the printable width; on screen it is hidden, in print it is all there is.
 * Copies repeat the block, each on its own page.
 */
export function PrintArea({ job }: { job: PrintJob }) {
  const { paperWidth, columns, copies } = job.profile;
  const printable = PRINTABLE_MM[paperWidth];
  // A monospaced character is about 0.6 em wide; a document wider than the profile's columns (a
  // receipt laid out for the paper's default) is scaled down to fit rather than cut.
  const widest = Math.max(columns, ...job.payload.lines.map((l) => l.length));
  const fontMm = (printable / (widest * 0.6)).toFixed(2);
  const css = `
#print-area { display: none; }
@media print {
  @page { size: ${paperWidth}mm auto; margin: 0; }
  html, body { margin: 0 !important; padding: 0 !important; background: #fff !important; }
  body > *:not(#print-area) { display: none !important; }
  #print-area { display: block !important; width: ${paperWidth}mm; color: #000; }
  #print-area pre { margin: 0 auto; width: ${printable}mm; font-family: 'DejaVu Sans Mono', 'Courier New', monospace;
    font-size: ${fontMm}mm; line-height: 1.25; white-space: pre; overflow: hidden; break-after: page; }
  #print-area pre:last-child { break-after: auto; }
}`;
  return (
    <div id="print-area" data-job={job.id} data-paper={paperWidth}>
      <style>{css}</style>
      {Array.from({ length: copies }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: copies are identical and never reorder
        <pre key={i}>{job.payload.lines.join('\n')}</pre>
      ))}
    </div>
  );
}

/**
 * This browser as a print station (mounted by the shell while a station is set): joins the shop's
 * socket as a station of its profiles, prints each job it is handed, one at a time, with the
 * browser's print (Chromium's --kiosk-printing prints without the dialog), then confirms it.
 */
export default function StationRunner({ token }: { token: string }) {
  const config = useStationConfig();
  const [queue, setQueue] = useState<PrintJob[]>([]);
  const current = queue[0];
  const printed = useConfirmPrinted();
  const failed = useReportPrintFailure();
  const profiles = config?.profileIds.join(',') ?? '';
  const name = config?.name ?? '';

  useEffect(() => {
    if (!profiles) return;
    const socket = io({
      path: '/socket.io',
      query: { key: API_KEY },
      auth: { token },
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
    setStationState({ status: 'connecting', printed: 0 });
    socket.on('connect', () => {
      socket.emit(
        PRINT_STATION_EVENT,
        { name, profileIds: profiles.split(',').map(Number) },
        (answer: { ok: boolean; message?: string }) =>
          setStationState(
            answer?.ok
              ? { status: 'active', printed: 0 }
              : {
                  status: 'error',
                  message: answer?.message ?? 'Não foi possível ativar a estação',
                  printed: 0,
                },
          ),
      );
    });
    socket.on('disconnect', () => setStationState({ status: 'connecting', printed: 0 }));
    socket.on(PRINT_JOB_EVENT, (job: PrintJob) =>
      setQueue((list) => (list.some((j) => j.id === job.id) ? list : [...list, job])),
    );
    return () => {
      socket.disconnect();
    };
  }, [profiles, name, token]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one print per job id
  useEffect(() => {
    if (!current) return;
    const frame = requestAnimationFrame(() => {
      void (async () => {
        let error: string | null = null;
        try {
          window.print();
        } catch {
          error = 'O navegador não conseguiu imprimir';
        }
        try {
          const params = { id: current.id };
          if (error) await failed.mutateAsync({ params, body: { error } });
          else await printed.mutateAsync({ params });
        } catch {
          // The sender sees the job unconfirmed and may retry.
        }
        setQueue((list) => list.slice(1));
      })();
    });
    return () => cancelAnimationFrame(frame);
  }, [current?.id]);

  if (!current) return null;
  return createPortal(<PrintArea job={current} />, document.body);
}
