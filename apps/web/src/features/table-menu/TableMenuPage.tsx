import { formatCents } from '@balcao/core/money';
import type { TableMenu } from '@balcao/core/tableMenu';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { formatTime } from '../../lib/format.ts';
import { setShopTimeZone } from '../../lib/shopZone.ts';
import './mesa.css';
import { fetchTableMenu, newIdempotencyKey, postTableCall, postTableOrder } from './publicApi.ts';

type MenuProduct = TableMenu['products'][number];
type Additional = { id: number; name: string; priceCents: number; quantity: number };
type CartLine = {
  /** The product and its add-ons: the same choice again adds to the line. */
  key: string;
  productId: number;
  name: string;
  /** One unit with its add-ons. */
  priceCents: number;
  additionals: Additional[];
  quantity: number;
  notes: string;
};

/** "Aberto agora · fecha às 23:00", "Fechado · abre às 18:00" (the shop's zone), or null. */
function hoursLine(hours: TableMenu['hours']): string | null {
  if (!hours) return null;
  setShopTimeZone(hours.timeZone);
  const at = hours.nextChange ? formatTime(hours.nextChange) : null;
  if (hours.open) return at ? `Aberto agora · fecha às ${at}` : 'Aberto agora';
  return at ? `Fechado · abre às ${at}` : 'Fechado';
}

/** The token of /mesa/{token} (read from the address: the page runs without the app's router). */
const tokenOf = (pathname: string) => pathname.split('/').filter(Boolean)[1] ?? '';

/**
 * /mesa/{token}: the QR-code menu of a table (issue 35), outside the dashboard and without a login.
 * The customer picks products (their add-ons in a dialog: required choices enforced, the PDV's rules and
 * texts), adds a note and sends; the order waits for the waiter's approval, or goes straight to the
 * kitchen when the shop accepts table orders directly.
 *
 * Plain elements and one CSS file, no MUI: the page has its own Vite entry (apps/web/mesa.html, served by
 * the API for /mesa/*) so a phone on 4G downloads React and this page only (bench/table-menu.ts).
 */
export default function TableMenuPage() {
  const token = tokenOf(window.location.pathname);
  const [menu, setMenu] = useState<TableMenu | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [cart, setCart] = useState<CartLine[]>([]);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [choosing, setChoosing] = useState<MenuProduct | null>(null);
  // One key per order the customer sends: a retry after a lost answer places it once.
  const [orderKey, setOrderKey] = useState(newIdempotencyKey);

  useEffect(() => {
    fetchTableMenu(token).then(setMenu, (error) => setLoadError(errorMessage(error)));
  }, [token]);

  if (loadError)
    return (
      <main className="mesa">
        <p className="mesa-alert mesa-alert-error" role="alert">
          {loadError}
        </p>
      </main>
    );
  if (!menu)
    return (
      <main className="mesa">
        <p className="mesa-loading" role="status">
          Carregando...
        </p>
      </main>
    );

  const add = (p: MenuProduct, additionals: Additional[] = []) =>
    setCart((lines) => {
      const key = [p.id, ...additionals.map((a) => a.id).sort((a, b) => a - b)].join('-');
      const found = lines.find((l) => l.key === key);
      const unit = p.priceCents + additionals.reduce((s, a) => s + a.priceCents * a.quantity, 0);
      const name = additionals.length ? `${p.name} (${additionals.map((a) => a.name).join(', ')})` : p.name;
      return found
        ? lines.map((l) => (l === found ? { ...l, quantity: l.quantity + 1 } : l))
        : [...lines, { key, productId: p.id, name, priceCents: unit, additionals, quantity: 1, notes: '' }];
    });
  const pick = (p: MenuProduct) => (p.additionalGroups.length > 0 ? setChoosing(p) : add(p));
  const total = cart.reduce((s, l) => s + l.priceCents * l.quantity, 0);
  const hours = hoursLine(menu.hours);

  const send = async () => {
    setSending(true);
    setMessage(null);
    try {
      const order = await postTableOrder(
        token,
        {
          lines: cart.map((l) => ({
            productId: l.productId,
            quantity: l.quantity,
            additionals: l.additionals.map((a) => ({ id: a.id, quantity: a.quantity })),
            notes: l.notes || null,
          })),
        },
        orderKey,
      );
      setCart([]);
      setOrderKey(newIdempotencyKey());
      setMessage({
        severity: 'success',
        text:
          order.status === 'approved'
            ? 'Pedido enviado para o preparo!'
            : 'Pedido enviado! O garçom vai confirmar em instantes.',
      });
    } catch (error) {
      setMessage({ severity: 'error', text: errorMessage(error) });
    } finally {
      setSending(false);
    }
  };
  const callWaiter = (kind: 'waiter' | 'bill') =>
    postTableCall(token, kind).then(
      () =>
        setMessage({
          severity: 'success',
          text: kind === 'waiter' ? 'O garçom foi chamado.' : 'A conta foi pedida.',
        }),
      (error) => setMessage({ severity: 'error', text: errorMessage(error) }),
    );

  return (
    <main className={cart.length > 0 ? 'mesa mesa-with-cart' : 'mesa'}>
      <h1 className="mesa-shop">{menu.shop}</h1>
      <p className="mesa-muted">
        Mesa {menu.tableLabel}
        {hours && ` · ${hours}`}
      </p>
      <div className="mesa-row">
        <button type="button" className="mesa-button mesa-outlined" onClick={() => callWaiter('waiter')}>
          Chamar garçom
        </button>
        <button type="button" className="mesa-button mesa-outlined" onClick={() => callWaiter('bill')}>
          Pedir a conta
        </button>
      </div>
      {menu.closedMessage && <p className="mesa-alert mesa-alert-warning">{menu.closedMessage}</p>}
      {message && (
        <p className={`mesa-alert mesa-alert-${message.severity}`} role="status">
          {message.text}
        </p>
      )}
      <ul className="mesa-products">
        {menu.products.map((p) => (
          <li key={p.id} className="mesa-product">
            {p.imageUrl && <img src={p.imageUrl} alt="" loading="lazy" width={64} height={64} />}
            <div className="mesa-grow">
              <div className="mesa-strong">{p.name}</div>
              <div className="mesa-muted mesa-small">
                {p.category ? `${p.category} · ` : ''}
                {formatCents(p.priceCents)}
              </div>
            </div>
            <button
              type="button"
              className="mesa-button mesa-contained"
              disabled={!menu.open}
              onClick={() => pick(p)}
              aria-label={`Adicionar ${p.name}`}
            >
              Adicionar
            </button>
          </li>
        ))}
      </ul>
      {cart.length > 0 && (
        <section className="mesa-cart" aria-label="Seu pedido">
          <div className="mesa-cart-inner">
            {cart.map((l) => (
              <div key={l.key} className="mesa-line">
                {/* A tap too many, or a change of mind: one less (the last one leaves the order), one more. */}
                <div className="mesa-row mesa-line-head">
                  <div className="mesa-grow">
                    {l.quantity} x {l.name} — {formatCents(l.priceCents * l.quantity)}
                  </div>
                  <button
                    type="button"
                    className="mesa-button mesa-outlined mesa-step"
                    aria-label={l.quantity === 1 ? `Tirar ${l.name}` : `Um a menos: ${l.name}`}
                    onClick={() =>
                      setCart((lines) =>
                        lines.flatMap((x) =>
                          x.key !== l.key ? [x] : x.quantity > 1 ? [{ ...x, quantity: x.quantity - 1 }] : [],
                        ),
                      )
                    }
                  >
                    −
                  </button>
                  <button
                    type="button"
                    className="mesa-button mesa-outlined mesa-step"
                    aria-label={`Um a mais: ${l.name}`}
                    onClick={() =>
                      setCart((lines) =>
                        lines.map((x) => (x.key === l.key ? { ...x, quantity: x.quantity + 1 } : x)),
                      )
                    }
                  >
                    +
                  </button>
                </div>
                <label className="mesa-field">
                  <span>Observação: {l.name}</span>
                  <input
                    value={l.notes}
                    maxLength={200}
                    onChange={(e) =>
                      setCart((lines) =>
                        lines.map((x) => (x.key === l.key ? { ...x, notes: e.target.value } : x)),
                      )
                    }
                  />
                </label>
              </div>
            ))}
            <button
              type="button"
              className="mesa-button mesa-contained mesa-wide"
              disabled={sending}
              onClick={send}
            >
              Enviar pedido · {formatCents(total)}
            </button>
          </div>
        </section>
      )}
      {choosing && (
        <OptionsDialog
          key={choosing.id}
          product={choosing}
          onChoose={(additionals) => {
            add(choosing, additionals);
            setChoosing(null);
          }}
          onClose={() => setChoosing(null)}
        />
      )}
    </main>
  );
}

/** A group where exactly one item is chosen (min = max = 1): its items are radios. */
const isSingle = (g: { minQuantity: number; maxQuantity: number }) =>
  g.minQuantity === 1 && g.maxQuantity === 1;

/**
 * The product's add-ons, the PDV's ProductOptionsDialog rules and texts in a native modal <dialog>
 * (focus kept inside, Esc closes): "exactly 1" groups are radios, "Adicionar" waits for every group's
 * minimum and maximum. Each opening is fresh (keyed by the product).
 */
function OptionsDialog({
  product,
  onChoose,
  onClose,
}: {
  product: MenuProduct;
  onChoose: (additionals: Additional[]) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<Record<number, boolean>>({});
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const groups = product.additionalGroups;
  const problems = groups.flatMap((g) => {
    const n = g.items.filter((i) => chosen[i.id]).length;
    return n < g.minQuantity || n > g.maxQuantity
      ? [
          g.minQuantity === g.maxQuantity
            ? `Escolha ${g.minQuantity} em ${g.name}`
            : `Escolha de ${g.minQuantity} a ${g.maxQuantity} em ${g.name}`,
        ]
      : [];
  });
  const titleId = `mesa-options-${product.id}`;

  return (
    <dialog
      ref={ref}
      className="mesa-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{product.name}</h2>
      {groups.map((g) => (
        <fieldset key={g.id} className="mesa-group" role={isSingle(g) ? 'radiogroup' : undefined}>
          <legend>
            {g.name}{' '}
            <span className="mesa-muted mesa-small">
              ({g.minQuantity > 0 ? `mín. ${g.minQuantity}, ` : ''}máx. {g.maxQuantity})
            </span>
          </legend>
          {g.items.map((i) => (
            <label key={i.id} className="mesa-choice">
              <input
                type={isSingle(g) ? 'radio' : 'checkbox'}
                name={`additional-group-${g.id}`}
                checked={Boolean(chosen[i.id])}
                onChange={(e) =>
                  setChosen((c) =>
                    isSingle(g)
                      ? { ...c, ...Object.fromEntries(g.items.map((x) => [x.id, x.id === i.id])) }
                      : { ...c, [i.id]: e.target.checked },
                  )
                }
              />
              {`${i.name}${i.priceCents ? ` (+ ${formatCents(i.priceCents)})` : ''}`}
            </label>
          ))}
        </fieldset>
      ))}
      {problems.length > 0 && <p className="mesa-alert mesa-alert-info">{problems.join('; ')}</p>}
      <div className="mesa-row mesa-end">
        <button type="button" className="mesa-button mesa-text" onClick={onClose}>
          Cancelar
        </button>
        <button
          type="button"
          className="mesa-button mesa-contained"
          disabled={problems.length > 0}
          onClick={() =>
            onChoose(
              groups.flatMap((g) =>
                g.items
                  .filter((i) => chosen[i.id])
                  .map((i) => ({ id: i.id, name: i.name, priceCents: i.priceCents, quantity: 1 })),
              ),
            )
          }
        >
          Adicionar
        </button>
      </div>
    </dialog>
  );
}
