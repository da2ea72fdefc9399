import type { CodePage, PrintJob } from '@balcao/core/printing';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/**
 * ESC/POS from a print job (issue 36). The layouts stay where they are (core and the API make a job's
 * monospaced lines, the same text the browser station prints); this is the one ESC/POS renderer, in the
 * agent, because the bytes belong to the printer the agent drives (its model, its code page table),
 * not to the job. The encoder is @point-of-sale/receipt-printer-encoder (docs/decisions.md).
 */

/** The profile's code page -> the encoder's name (ESC t n is looked up in the printer's table). */
const CODE_PAGES: Record<CodePage, 'cp860' | 'cp850' | 'windows1252'> = {
  PC860: 'cp860',
  CP850: 'cp850',
  WPC1252: 'windows1252',
};

/** A logo as pixels (RGBA, any size): printed centered as a raster image (GS v 0) on receipts. */
export type Logo = { width: number; height: number; data: Uint8ClampedArray };

export type RenderOptions = {
  /** The encoder's code page table ('epson' by default: ESC t 3 = PC860, 2 = CP850, 16 = WPC1252). */
  codepageMapping?: string;
  logo?: Logo | null;
};

/**
 * The logo's largest size on paper, in dots (203 dpi: 8 dots a mm). 58 mm paper prints 384 dots, 80 mm
 * paper 576: the logo takes 3/4 and 2/3 of that, and at most ~18 and ~24 mm of paper.
 */
export const LOGO_MAX_DOTS: Record<58 | 80, { width: number; height: number }> = {
  58: { width: 288, height: 144 },
  80: { width: 384, height: 192 },
};

/** The logo's size on paper: its own, shrunk (aspect kept) to fit the paper's box; width a multiple of 8. */
export function logoSize(logo: Pick<Logo, 'width' | 'height'>, paperWidth: number) {
  const box = LOGO_MAX_DOTS[paperWidth === 58 ? 58 : 80];
  const scale = Math.min(1, box.width / logo.width, box.height / logo.height);
  const width = Math.max(8, Math.floor((logo.width * scale) / 8) * 8);
  const height = Math.max(1, Math.round((width * logo.height) / logo.width));
  return { width, height };
}

/** Feed before a cut, so the last line clears the cutter. */
const FEED_BEFORE_CUT = 4;

export function renderJob(job: Pick<PrintJob, 'kind' | 'payload' | 'profile'>, options: RenderOptions = {}) {
  const { profile, payload } = job;
  // A label job: the label printer's own commands (ZPL/EPL, UTF-8), sent as they are.
  if (job.kind === 'label') return new TextEncoder().encode(payload.raw ?? '');
  const encoder = new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: profile.columns,
    codepageMapping: (options.codepageMapping ?? 'epson') as 'epson',
    imageMode: 'raster',
    newline: '\n',
    feedBeforeCut: 0,
  });
  encoder.initialize();
  // A drawer kick: the pulse on pin 2 (ESC p 0), nothing printed.
  if (job.kind === 'drawer') return encoder.pulse(0, 100, 500).encode();

  encoder.codepage(CODE_PAGES[profile.codePage]);
  for (let copy = 0; copy < profile.copies; copy++) {
    if (options.logo && job.kind === 'receipt') {
      // Resized by the encoder, transparency flattened on white, then Atkinson dithering: grays become
      // dot patterns, and it keeps light areas clean (a thermal head darkens dense patterns).
      const { width, height } = logoSize(options.logo, profile.paperWidth);
      encoder.align('center').image(options.logo, width, height, 'atkinson');
      encoder.align('left');
    }
    if (job.kind === 'ticket') {
      // The kitchen reads it from a distance: bold, double height (the width, and so the columns, kept).
      encoder.bold(true).size(1, 2);
      for (const line of payload.lines) encoder.line(line);
      encoder.size(1, 1).bold(false);
    } else {
      const [first, ...rest] = payload.lines;
      encoder.bold(true).line(first).bold(false);
      for (const line of rest) encoder.line(line);
    }
    if (payload.qr) encoder.newline().align('center').qrcode(payload.qr, 2, 6, 'm').align('left');
    if (profile.cut) encoder.newline(FEED_BEFORE_CUT).cut('partial');
    else encoder.newline(FEED_BEFORE_CUT);
  }
  return encoder.encode();
}
