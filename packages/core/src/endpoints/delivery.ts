import { endpoint } from '../contract.ts';
import {
  DRIVER_LISTS,
  deliveryAssignSchema,
  deliveryCancelSchema,
  deliveryDeliverSchema,
  deliveryFailSchema,
  deliveryOrderPixSchema,
  deliveryOrderSchema,
  deliveryPanelQuerySchema,
  deliveryPanelSchema,
  deliverySettingsInputSchema,
  deliverySettingsSchema,
  deliveryStatusInputSchema,
  driverOrdersSchema,
  driverShiftSchema,
  settlementInputSchema,
  settlementListSchema,
  settlementPreviewSchema,
  settlementQuerySchema,
  settlementSchema,
} from '../delivery.ts';
import { idParams } from '../params.ts';
import { printActionInputSchema, printJobSchema } from '../printing.ts';
import { ACTION, DRIVERS, SHIPPING, WRITE } from '../routes.ts';
import { saleInputSchema, saleSchema } from '../sale.ts';
import { z } from '../zod.ts';

/** GET /delivery/driver/orders: which of the driver's lists. */
export const driverOrdersQuerySchema = z.object({ list: z.enum(DRIVER_LISTS) });
/** GET /delivery/settlements: one driver's, or everyone's. */
export const settlementListQuerySchema = z.object({
  driverId: z.coerce.number().int().positive().optional(),
});

/** A driver's action on an order (take, pickup, deliver, fail, reopen). */
const driverAction = <const A extends string, const B extends z.ZodType | undefined = undefined>(
  action: A,
  summary: string,
  body?: B,
) =>
  endpoint({
    method: 'POST',
    path: `/delivery/orders/:id/${action}` as `/delivery/orders/:id/${A}`,
    resource: 'delivery',
    access: DRIVERS,
    summary,
    params: idParams,
    body: body as B,
    response: { 200: deliveryOrderSchema },
    changes: ['delivery'],
  });

/**
 * /v1/delivery (issue 18): the panel (read by who sees /dashboard/sale/delivery, moved by the
 * dispatch roles), phone orders, the driver area, shifts, the settlement (acerto) and the customer
 * notice setting.
 */
export const deliveryApi = {
  panel: endpoint({
    method: 'GET',
    path: '/delivery/panel',
    resource: 'delivery',
    access: SHIPPING,
    summary: 'Open and today’s delivery orders (filters), counters per status, drivers on shift',
    query: deliveryPanelQuerySchema,
    response: { 200: deliveryPanelSchema },
  }),
  phoneOrder: endpoint({
    method: 'POST',
    path: '/delivery/orders',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'A phone order: the delivery sale recorded at once (origin delivery) with its order',
    body: saleInputSchema,
    response: { 201: saleSchema, 200: saleSchema },
    idempotencyKey: 'optional',
    changes: ['delivery', 'sale'],
  }),
  setStatus: endpoint({
    method: 'POST',
    path: '/delivery/orders/:id/status',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'Moves a new order to "em preparo" (waiting) or offers it to drivers (available)',
    params: idParams,
    body: deliveryStatusInputSchema,
    response: { 200: deliveryOrderSchema },
    changes: ['delivery'],
  }),
  assign: endpoint({
    method: 'POST',
    path: '/delivery/orders/:id/assign',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'Assigns or reassigns a driver (the order awaits their pickup)',
    params: idParams,
    body: deliveryAssignSchema,
    response: { 200: deliveryOrderSchema },
    changes: ['delivery'],
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/delivery/orders/:id/cancel',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'Cancels an open or failed order and its sale (a manager, or their approval), with a reason',
    params: idParams,
    body: deliveryCancelSchema,
    response: { 200: deliveryOrderSchema },
    changes: ['delivery', 'sale'],
  }),
  print: endpoint({
    method: 'POST',
    path: '/delivery/orders/:id/print',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'Queues the bag ticket on the receipt printer (Idempotency key: a retried click prints once)',
    params: idParams,
    body: printActionInputSchema,
    response: { 200: printJobSchema },
    changes: ['print-job'],
  }),
  /** Issue 33: what is to be collected on delivery paid by Pix QR dinâmico (panel, or the order's driver). */
  pix: endpoint({
    method: 'POST',
    path: '/delivery/orders/:id/pix',
    resource: 'delivery',
    access: [...WRITE.delivery, ...DRIVERS],
    summary:
      'Pix QR dinâmico of what an open order collects on delivery (txid from the order: a retry shows the same charge)',
    params: idParams,
    response: { 200: deliveryOrderPixSchema },
    changes: ['delivery'],
  }),
  pixStatus: endpoint({
    method: 'GET',
    path: '/delivery/orders/:id/pix',
    resource: 'delivery',
    // Read by the panel's page (its dispatch roles open the dialog) and the driver's "Em trânsito".
    access: [...SHIPPING, ...DRIVERS],
    summary: 'The order’s Pix QR dinâmico as it is polled (asks the bank when no webhook came)',
    params: idParams,
    response: { 200: deliveryOrderPixSchema },
  }),

  // ------------------------------------------------------------------------------- driver area

  driverOrders: endpoint({
    method: 'GET',
    path: '/delivery/driver/orders',
    resource: 'delivery',
    access: DRIVERS,
    summary: 'A driver list: available (Entregador), awaiting collection, in transit, delivered today',
    query: driverOrdersQuerySchema,
    response: { 200: driverOrdersSchema },
  }),
  take: driverAction('take', 'An Entregador on shift takes an available order (first wins)'),
  pickup: driverAction('pickup', 'The assigned driver confirms the pickup (in transit)'),
  deliver: driverAction(
    'deliver',
    'The assigned driver delivers with the customer’s 4-digit code',
    deliveryDeliverSchema,
  ),
  fail: driverAction(
    'fail',
    'The assigned driver records a failure with a reason from the list',
    deliveryFailSchema,
  ),
  reopen: driverAction('reopen', '"Reabrir": takes back a delivered or failed tap within minutes'),
  shift: endpoint({
    method: 'GET',
    path: '/delivery/shift',
    resource: 'delivery',
    access: DRIVERS,
    summary: 'The driver’s shift',
    response: { 200: driverShiftSchema },
  }),
  checkIn: endpoint({
    method: 'POST',
    path: '/delivery/shift/check-in',
    resource: 'delivery',
    access: DRIVERS,
    summary: 'Starts the driver’s shift',
    response: { 200: driverShiftSchema },
    changes: ['delivery'],
  }),
  checkOut: endpoint({
    method: 'POST',
    path: '/delivery/shift/check-out',
    resource: 'delivery',
    access: DRIVERS,
    summary: 'Ends the driver’s shift',
    response: { 200: driverShiftSchema },
    changes: ['delivery'],
  }),

  // ------------------------------------------------------------------------------- settlement

  settlementPreview: endpoint({
    method: 'GET',
    path: '/delivery/settlement/preview',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'A driver’s unsettled finished orders in a period with the sums (the acerto to confirm)',
    query: settlementQuerySchema,
    response: { 200: settlementPreviewSchema },
  }),
  settle: endpoint({
    method: 'POST',
    path: '/delivery/settlements',
    resource: 'delivery',
    access: ACTION.settleDrivers,
    summary: 'A manager confirms a driver’s settlement with the cash counted, into an open register',
    body: settlementInputSchema,
    response: { 201: settlementSchema },
    changes: ['delivery', 'cash-register'],
  }),
  settlements: endpoint({
    method: 'GET',
    path: '/delivery/settlements',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'Confirmed settlements, newest first',
    query: settlementListQuerySchema,
    response: { 200: settlementListSchema },
  }),
  settlement: endpoint({
    method: 'GET',
    path: '/delivery/settlements/:id',
    resource: 'delivery',
    access: WRITE.delivery,
    summary: 'One settlement with its lines',
    params: idParams,
    response: { 200: settlementSchema },
  }),

  // ------------------------------------------------------------------------------- settings

  saveSettings: endpoint({
    method: 'PUT',
    path: '/delivery/settings',
    resource: 'delivery',
    access: WRITE.settings,
    summary: 'The WhatsApp notice to the customer on "saiu para entrega" and "entregue"',
    body: deliverySettingsInputSchema,
    response: { 200: deliverySettingsSchema },
    changes: ['delivery', 'settings'],
  }),
} as const;
