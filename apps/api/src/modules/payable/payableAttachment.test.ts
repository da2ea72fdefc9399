import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { api } from '../../../test/kit.ts';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'balcao-payable-files-'));
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const today = dateIn(DEFAULT_TIME_ZONE);

function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = `----balcao${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function attach(token: string, payableId: number, filename: string, type: string, data: Buffer) {
  const body = multipart(filename, type, data);
  return t.app.inject({
    method: 'POST',
    url: `/v1/payable/${payableId}/attachment`,
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const filesOf = (clientId: number) => {
  try {
    return readdirSync(join(dataDir, 'uploads', 'payable', String(clientId)), { recursive: true }).filter(
      (f) => String(f).includes('.'),
    );
  } catch {
    return [];
  }
};

describe('payable attachments', () => {
  it('keeps a PDF and an image with a bill, downloads them whole, refuses other files in Portuguese, and removes them', async () => {
    const shop = await createClientWithUsers(t, [7, 3]);
    const [financial, seller] = shop.users.map((u) => u.token);
    const a = api(t, bearer(financial));
    const category = (await a.get('/payable/category')).json()[0].id;
    const bill = (
      await a.post('/payable', {
        categoryId: category,
        description: 'Energia',
        amountCents: 18990,
        dueDate: today,
      })
    ).json().items[0];

    const added = await attach(financial, bill.id, 'Conta de março.pdf', 'application/pdf', pdf);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      name: 'Conta de março.pdf',
      contentType: 'application/pdf',
      sizeBytes: pdf.length,
    });
    // The browser's claim does not count: the bytes do.
    const photo = await attach(financial, bill.id, 'foto', 'application/octet-stream', png);
    expect(photo.json()).toMatchObject({ name: 'foto', contentType: 'image/png' });

    const detail = (await a.get(`/payable/${bill.id}`)).json();
    expect(detail.attachments.map((f: { name: string }) => f.name)).toEqual(['Conta de março.pdf', 'foto']);
    expect(filesOf(shop.client.id)).toHaveLength(2);

    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/payable/${bill.id}/attachment/${added.json().id}`,
      headers: bearer(financial),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Conta de marco.pdf"; filename*=UTF-8''Conta%20de%20mar%C3%A7o.pdf`,
    );
    expect(file.rawPayload.equals(pdf)).toBe(true);

    const text = await attach(financial, bill.id, 'nota.txt', 'text/plain', Buffer.from('não é PDF'));
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('Formato não suportado: anexe um PDF ou uma imagem JPEG, PNG ou WebP');
    const big = await attach(
      financial,
      bill.id,
      'grande.pdf',
      'application/pdf',
      Buffer.concat([pdf, Buffer.alloc(5 * 1024 * 1024)]),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('O anexo deve ter no máximo 5 MB');

    // Other roles and other shops.
    expect((await attach(seller, bill.id, 'x.pdf', 'application/pdf', pdf)).statusCode).toBe(403);
    const other = await createClientWithUsers(t, [1]);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/v1/payable/${bill.id}/attachment/${added.json().id}`,
      headers: bearer(other.token),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await attach(other.token, bill.id, 'x.pdf', 'application/pdf', pdf)).json().message).toBe(
      'Conta a pagar não encontrada',
    );

    const removed = await a.delete(`/payable/${bill.id}/attachment/${added.json().id}`);
    expect(removed.statusCode).toBe(200);
    expect((await a.get(`/payable/${bill.id}`)).json().attachments).toHaveLength(1);
    expect(filesOf(shop.client.id)).toHaveLength(1);
    const gone = await a.delete(`/payable/${bill.id}/attachment/${added.json().id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Anexo não encontrado');

    // Deleting the bill takes its files.
    expect((await a.delete(`/payable/${bill.id}`)).statusCode).toBe(200);
    expect(filesOf(shop.client.id)).toHaveLength(0);
  });
});
