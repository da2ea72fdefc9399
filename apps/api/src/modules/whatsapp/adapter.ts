import { sameWhatsapp, whatsappForms } from '@balcao/core/whatsapp';
import { outboundFetch } from '../../lib/outbound.ts';

/** The WhatsApp service (Evolution API) could not answer: the check result stays unknown. */
export class WhatsAppUnavailableError extends Error {}

/**
 * Evolution answered with an error (INTEGRATIONS.md: `{status, error, response:{message:[...]}}`, or a
 * 200 `{error:true, message}` for an internal failure of connect). `messages` are its texts.
 */
export class EvolutionError extends Error {
  constructor(
    readonly status: number,
    readonly messages: unknown[],
  ) {
    super(`Evolution API answered ${status}: ${JSON.stringify(messages).slice(0, 300)}`);
  }
  /** sendText to a number without WhatsApp: 400 with `[{exists:false}]`. */
  get notOnWhatsapp(): boolean {
    return (
      this.status === 400 &&
      this.messages.some(
        (m) => typeof m === 'object' && m !== null && (m as { exists?: unknown }).exists === false,
      )
    );
  }
}

type WhatsAppNumberCheck = { number: string; exists: boolean; jid: string };
export type EvolutionQr = {
  pairingCode: string | null;
  code: string | null;
  base64: string | null;
  count: number;
};
type EvolutionState = 'open' | 'connecting' | 'close' | 'refused';
type WebhookSetting = { url: string; headers: Record<string, string>; events: string[] };

type WhatsAppGateway = {
  /** Which numbers have a WhatsApp account. Throws WhatsAppUnavailableError. */
  checkNumbers(instance: string, numbers: string[], key?: string): Promise<WhatsAppNumberCheck[]>;
  /**
   * Creates the instance with its webhook and OUR token (Evolution keeps a given `token` as the
   * instance's key, so a create that timed out after Evolution made it can be recovered with it);
   * answers the instance token and the first QR code.
   */
  createInstance(
    instance: string,
    webhook: WebhookSetting,
    token: string,
  ): Promise<{ key: string; qr: EvolutionQr | null }>;
  /** A QR code (or the pairing code for `number`), or null when already open. */
  connect(instance: string, key: string, number?: string): Promise<EvolutionQr | null>;
  connectionState(instance: string, key: string): Promise<EvolutionState>;
  logout(instance: string, key: string): Promise<void>;
  deleteInstance(instance: string, key: string): Promise<void>;
  profilePicture(instance: string, key: string, number: string): Promise<string | null>;
  /** Sends a text (or an image with the text as caption); answers the message id. Throws EvolutionError. */
  send(instance: string, key: string, message: OutgoingMessage): Promise<string>;
  /**
   * Messages Evolution stored for a chat between two instants (POST /chat/findMessages), newest
   * first, up to `pages` pages of 50. Throws WhatsAppUnavailableError or EvolutionError.
   */
  findMessages(
    instance: string,
    key: string,
    query: { number: string; from: Date; to: Date; pages?: number },
  ): Promise<StoredMessage[]>;
  /** Whether Evolution holds the message with this id (findMessages by key.id). */
  hasMessage(instance: string, key: string, id: string): Promise<boolean>;
};

/** A message as Evolution stored it (findMessages), with the text or caption it carried. */
export type StoredMessage = { id: string; fromMe: boolean; remoteJid: string; text: string; at: Date };

/** A document sent with sendMedia (mediatype document), e.g. a budget's PDF. */
export type OutgoingDocument = { base64: string; fileName: string; mimetype: string };
/** An image sent with sendMedia (mediatype image) as base64, the text as caption. */
export type OutgoingImage = { base64: string; mimetype: string };
/** A text, or an image or a document with the text as caption. */
export type OutgoingMessage = {
  number: string;
  text: string;
  image?: OutgoingImage | null;
  document?: OutgoingDocument | null;
};

type Options = { baseUrl?: string; apiKey: string; timeoutMs: number };

/**
 * Evolution API v2 adapter (INTEGRATIONS.md): routes `/{group}/{action}/{instance}`, header `apikey`
 * (the global key to create, the instance token after). Null when no base URL is configured.
 * Network failures throw WhatsAppUnavailableError, error answers EvolutionError.
 */
export function evolutionApi(options: Options): WhatsAppGateway | null {
  if (!options.baseUrl) return null;
  const base = options.baseUrl.replace(/\/+$/, '');
  const path = (group: string, action: string, instance: string) =>
    `${base}/${group}/${action}/${encodeURIComponent(instance)}`;

  /** THE one HTTP call to Evolution (every method goes through it). */
  async function call(method: string, url: string, key: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await outboundFetch(url, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', apikey: key },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new WhatsAppUnavailableError(`Evolution API unreachable: ${(error as Error).message}`);
    }
    const text = await response.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      if (response.ok) throw new WhatsAppUnavailableError('Evolution API answered an unexpected body');
    }
    if (!response.ok) {
      const message = (json as { response?: { message?: unknown } } | null)?.response?.message;
      throw new EvolutionError(
        response.status,
        Array.isArray(message) ? message : [message ?? text.slice(0, 200)],
      );
    }
    const failed = json as { error?: unknown; message?: unknown } | null;
    if (failed && failed.error === true) throw new EvolutionError(500, [failed.message]);
    return json;
  }

  const qrOf = (body: unknown): EvolutionQr | null => {
    const q = body as {
      pairingCode?: unknown;
      code?: unknown;
      base64?: unknown;
      count?: unknown;
      instance?: { state?: unknown };
    } | null;
    if (!q || q.instance?.state === 'open' || (q.code == null && q.base64 == null && q.pairingCode == null))
      return null;
    return {
      pairingCode: typeof q.pairingCode === 'string' ? q.pairingCode : null,
      code: typeof q.code === 'string' ? q.code : null,
      base64: typeof q.base64 === 'string' ? q.base64 : null,
      count: typeof q.count === 'number' ? q.count : 0,
    };
  };

  return {
    async checkNumbers(instance, numbers, key) {
      let body: unknown;
      // whatsappNumbers refuses a whole batch holding one duplicate (uniqueItems): ask each once.
      const unique = [...new Set(numbers)];
      try {
        body = await call('POST', path('chat', 'whatsappNumbers', instance), key ?? options.apiKey, {
          numbers: unique,
        });
      } catch (error) {
        if (error instanceof EvolutionError) throw new WhatsAppUnavailableError(error.message);
        throw error;
      }
      if (!Array.isArray(body))
        throw new WhatsAppUnavailableError('Evolution API answered an unexpected body');
      return body.map((item: { number?: unknown; exists?: unknown; jid?: unknown }) => ({
        number: String(item.number ?? ''),
        exists: item.exists === true,
        jid: String(item.jid ?? ''),
      }));
    },

    async createInstance(instance, webhook, token) {
      const body = (await call('POST', `${base}/instance/create`, options.apiKey, {
        instanceName: instance,
        integration: 'WHATSAPP-BAILEYS',
        token,
        qrcode: true,
        webhook: {
          enabled: true,
          url: webhook.url,
          byEvents: false,
          base64: true,
          headers: webhook.headers,
          events: webhook.events,
        },
      })) as { hash?: unknown; qrcode?: unknown } | null;
      const key =
        typeof body?.hash === 'string' ? body.hash : (body?.hash as { apikey?: unknown } | undefined)?.apikey;
      if (typeof key !== 'string' || !key)
        throw new WhatsAppUnavailableError('Evolution API answered no instance token');
      return { key, qr: qrOf(body?.qrcode) };
    },

    async connect(instance, key, number) {
      const query = number ? `?number=${encodeURIComponent(number)}` : '';
      return qrOf(await call('GET', `${path('instance', 'connect', instance)}${query}`, key));
    },

    async connectionState(instance, key) {
      const body = (await call('GET', path('instance', 'connectionState', instance), key)) as {
        instance?: { state?: unknown };
      } | null;
      const state = body?.instance?.state;
      return state === 'open' || state === 'connecting' || state === 'refused' ? state : 'close';
    },

    async logout(instance, key) {
      await call('DELETE', path('instance', 'logout', instance), key);
    },

    async deleteInstance(instance, key) {
      await call('DELETE', path('instance', 'delete', instance), key);
    },

    async profilePicture(instance, key, number) {
      const body = (await call('POST', path('chat', 'fetchProfilePictureUrl', instance), key, {
        number,
      })) as {
        profilePictureUrl?: unknown;
      } | null;
      return typeof body?.profilePictureUrl === 'string' ? body.profilePictureUrl : null;
    },

    async send(instance, key, message) {
      const body = (
        message.document
          ? await call('POST', path('message', 'sendMedia', instance), key, {
              number: message.number,
              mediatype: 'document',
              mimetype: message.document.mimetype,
              media: message.document.base64,
              fileName: message.document.fileName,
              caption: message.text,
            })
          : message.image
            ? await call('POST', path('message', 'sendMedia', instance), key, {
                number: message.number,
                mediatype: 'image',
                mimetype: message.image.mimetype,
                media: message.image.base64,
                caption: message.text,
              })
            : await call('POST', path('message', 'sendText', instance), key, {
                number: message.number,
                text: message.text,
              })
      ) as { key?: { id?: unknown } } | null;
      return typeof body?.key?.id === 'string' ? body.key.id : '';
    },

    async findMessages(instance, key, query) {
      // Evolution keys a chat as Baileys gives it: a DDD 31+ mobile often without the ninth digit.
      const forms = whatsappForms(query.number);
      const jids = (forms.length ? forms : [query.number.replace(/\D/g, '')]).map(
        (n) => `${n}@s.whatsapp.net`,
      );
      const found: StoredMessage[] = [];
      for (const remoteJid of jids) found.push(...(await findIn(instance, key, remoteJid, query)));
      return found.sort((a, b) => b.at.getTime() - a.at.getTime());
    },

    async hasMessage(instance, key, id) {
      const body = (await call('POST', path('chat', 'findMessages', instance), key, {
        where: { key: { id } },
        page: 1,
        offset: 1,
      })) as { messages?: { records?: unknown } } | null;
      const records = body?.messages?.records;
      if (!Array.isArray(records))
        throw new WhatsAppUnavailableError('Evolution API answered an unexpected body');
      return records.length > 0;
    },
  };

  async function findIn(
    instance: string,
    key: string,
    remoteJid: string,
    query: { from: Date; to: Date; pages?: number },
  ): Promise<StoredMessage[]> {
    const found: StoredMessage[] = [];
    const pages = query.pages ?? 5;
    for (let page = 1; page <= pages; page++) {
      const body = (await call('POST', path('chat', 'findMessages', instance), key, {
        where: {
          key: { remoteJid },
          // Evolution applies the time filter only with both ends (ISO dates, compared in seconds).
          messageTimestamp: { gte: query.from.toISOString(), lte: query.to.toISOString() },
        },
        page,
        offset: 50,
      })) as { messages?: { pages?: unknown; records?: unknown } } | null;
      const records = body?.messages?.records;
      if (!Array.isArray(records))
        throw new WhatsAppUnavailableError('Evolution API answered an unexpected body');
      for (const record of records as StoredRecord[]) found.push(storedMessage(record));
      const total = typeof body?.messages?.pages === 'number' ? body.messages.pages : 1;
      if (page >= total) break;
    }
    return found;
  }
}

type StoredRecord = {
  id?: unknown;
  key?: { id?: unknown; fromMe?: unknown; remoteJid?: unknown };
  message?: {
    conversation?: unknown;
    extendedTextMessage?: { text?: unknown };
    imageMessage?: { caption?: unknown };
    documentMessage?: { caption?: unknown };
  } | null;
  messageTimestamp?: unknown;
};

function storedMessage(record: StoredRecord): StoredMessage {
  const m = record.message ?? {};
  const text =
    m.conversation ??
    m.extendedTextMessage?.text ??
    m.imageMessage?.caption ??
    m.documentMessage?.caption ??
    '';
  return {
    id: String(record.key?.id ?? record.id ?? ''),
    fromMe: record.key?.fromMe === true,
    remoteJid: String(record.key?.remoteJid ?? ''),
    text: typeof text === 'string' ? text : '',
    at: new Date(Number(record.messageTimestamp ?? 0) * 1000),
  };
}

/**
 * The check of one number from an answer: matched as the same WhatsApp number (with or without the
 * ninth digit, by the number asked or the jid answered); undefined when the answer does not say.
 */
export function resultFor(results: WhatsAppNumberCheck[], number: string): WhatsAppNumberCheck | undefined {
  return (
    results.find((r) => sameWhatsapp(r.number, number)) ?? results.find((r) => sameWhatsapp(r.jid, number))
  );
}
