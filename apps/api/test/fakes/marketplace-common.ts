import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Helpers the fake iFood and the fake Open Delivery share (events kept 8 h, repeats, shuffles). */

export const EIGHT_HOURS_MS = 8 * 3_600_000;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
    ...headers,
  });
  res.end(text);
}

/** A placed order as the fake's "customer page" takes it. */
export type PlaceOrder = {
  id?: string;
  displayId?: string;
  type?: 'DELIVERY' | 'TAKEOUT';
  customerName?: string;
  customerId?: string;
  phone?: string;
  items: { externalCode: string; name: string; quantity: number; unitPrice: number }[];
  deliveryFee?: number;
  /** ONLINE (paid in the app) or CASH on delivery. */
  payment?: 'ONLINE' | 'CASH';
  changeFor?: number;
  createdAt?: string;
  /** Whose couriers deliver: the shop's (default) or the marketplace's (iFood IFOOD, Open Delivery MARKETPLACE). */
  deliveredBy?: 'MERCHANT' | 'MARKETPLACE';
};

export type StatusCall = { orderId: string; action: string; body: unknown; at: number };

/** Events waiting for acknowledgment; the answer may repeat some and shuffle them (as documented). */
export class EventStore<E extends { createdAt: string }> {
  events: { id: string; merchantId: string; event: E; at: number; acked: boolean }[] = [];
  constructor(private readonly clock: () => number) {}
  add(merchantId: string, event: E, id = randomUUID()) {
    this.events.push({ id, merchantId, event, at: this.clock(), acked: false });
    return id;
  }
  pending(merchants: string[] | null, options: { repeatEvery: number; shuffle: boolean; max: number }) {
    const now = this.clock();
    let out = this.events.filter(
      (e) => !e.acked && now - e.at < EIGHT_HOURS_MS && (!merchants || merchants.includes(e.merchantId)),
    );
    out = out.slice(0, options.max);
    if (options.repeatEvery > 0) out = out.flatMap((e, i) => (i % options.repeatEvery === 0 ? [e, e] : [e]));
    if (options.shuffle) {
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
    }
    return out;
  }
  ack(ids: string[]) {
    const set = new Set(ids);
    for (const e of this.events) if (set.has(e.id)) e.acked = true;
  }
}

/** The small page where a "customer" places an order on the fake marketplace. */
export function placePage(title: string, action: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}: fazer um pedido</h1>
<form method="post" action="${action}">
<label>Cliente <input name="customerName" value="Maria Cliente"></label>
<label>Código do item <input name="externalCode" value="X-BURGER"></label>
<label>Nome do item <input name="name" value="X-Burger"></label>
<label>Quantidade <input name="quantity" value="1"></label>
<label>Preço <input name="unitPrice" value="25.90"></label>
<label>Pagamento <select name="payment"><option value="ONLINE">Pago no app</option><option value="CASH">Dinheiro na entrega</option></select></label>
<label>Entrega <select name="deliveredBy"><option value="MERCHANT">Entregador da loja</option><option value="MARKETPLACE">Entregador do marketplace</option></select></label>
<button type="submit">Fazer pedido</button>
</form></body></html>`;
}

export function placeFromForm(text: string): PlaceOrder {
  const f = new URLSearchParams(text);
  return {
    customerName: f.get('customerName') || 'Cliente',
    payment: f.get('payment') === 'CASH' ? 'CASH' : 'ONLINE',
    deliveredBy: f.get('deliveredBy') === 'MARKETPLACE' ? 'MARKETPLACE' : 'MERCHANT',
    items: [
      {
        externalCode: f.get('externalCode') || 'ITEM',
        name: f.get('name') || 'Item',
        quantity: Number(f.get('quantity') || 1),
        unitPrice: Number(f.get('unitPrice') || 10),
      },
    ],
  };
}

export const round2 = (v: number) => Math.round(v * 100) / 100;
