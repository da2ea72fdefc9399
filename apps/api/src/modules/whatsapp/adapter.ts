/** The WhatsApp service (Evolution API) could not answer: the check result stays unknown. */
export class WhatsAppUnavailableError extends Error {}

export type WhatsAppNumberCheck = { number: string; exists: boolean; jid: string };

export type WhatsAppGateway = {
  /** Which numbers have a WhatsApp account. Throws WhatsAppUnavailableError. */
  checkNumbers(instance: string, numbers: string[]): Promise<WhatsAppNumberCheck[]>;
};

/**
 * Evolution API v2 adapter (INTEGRATIONS.md): `POST {base}/chat/whatsappNumbers/{instance}` with
 * `{numbers}` and header `apikey` -> `[{jid, exists, number}]`. Null when no base URL is configured.
 */
export function evolutionApi(options: {
  baseUrl?: string;
  apiKey: string;
  timeoutMs: number;
}): WhatsAppGateway | null {
  if (!options.baseUrl) return null;
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    async checkNumbers(instance, numbers) {
      let response: Response;
      try {
        response = await fetch(`${base}/chat/whatsappNumbers/${encodeURIComponent(instance)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', apikey: options.apiKey },
          body: JSON.stringify({ numbers }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new WhatsAppUnavailableError(`Evolution API unreachable: ${(error as Error).message}`);
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new WhatsAppUnavailableError(
          `Evolution API answered ${response.status}: ${text.slice(0, 200)}`,
        );
      }
      const body = (await response.json().catch(() => null)) as unknown;
      if (!Array.isArray(body))
        throw new WhatsAppUnavailableError('Evolution API answered an unexpected body');
      return body.map((item: { number?: unknown; exists?: unknown; jid?: unknown }) => ({
        number: String(item.number ?? ''),
        exists: item.exists === true,
        jid: String(item.jid ?? ''),
      }));
    },
  };
}

/** The check of one number from an answer: matched by digits, else by position. */
export function resultFor(
  results: WhatsAppNumberCheck[],
  number: string,
  index: number,
): WhatsAppNumberCheck | undefined {
  const digits = number.replace(/\D/g, '');
  return results.find((r) => r.number.replace(/\D/g, '') === digits) ?? results[index];
}
