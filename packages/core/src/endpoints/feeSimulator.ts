import { endpoint } from '../contract.ts';
import {
  feePdvSchema,
  feeSettingsInputSchema,
  feeSettingsSchema,
  feeTableInputSchema,
  feeTableSchema,
  mealVoucherSettingsInputSchema,
  mealVoucherSettingsSchema,
} from '../fees.ts';
import { idParams } from '../params.ts';
import { deletedSchema } from '../responses.ts';
import { COUNTER, SHIPPING } from '../routes.ts';
import { z } from '../zod.ts';

/**
 * /v1/fee-simulator (issue 20): the shop's card rate tables and the simulator settings. Reading: the
 * simulator's page set (NOT_MKT); writing: WRITE.fees. The PDV reads the active table for its
 * installment picker (PDV set).
 */
export const feeSimulatorApi = {
  tables: endpoint({
    method: 'GET',
    path: '/fee-simulator/table',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: "The shop's rate tables",
    response: { 200: z.array(feeTableSchema) },
  }),
  table: endpoint({
    method: 'GET',
    path: '/fee-simulator/table/:id',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'One rate table',
    params: idParams,
    response: { 200: feeTableSchema },
  }),
  createTable: endpoint({
    method: 'POST',
    path: '/fee-simulator/table',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: "Save a rate table (from a preset or blank); the shop's first becomes the active one",
    body: feeTableInputSchema,
    response: { 201: feeTableSchema },
    changes: ['fee-simulator'],
  }),
  updateTable: endpoint({
    method: 'PUT',
    path: '/fee-simulator/table/:id',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'Update a rate table: updatedAt is required (400 without it, 409 when stale)',
    params: idParams,
    body: feeTableInputSchema,
    response: { 200: feeTableSchema },
    changes: ['fee-simulator'],
  }),
  removeTable: endpoint({
    method: 'DELETE',
    path: '/fee-simulator/table/:id',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'Delete a rate table',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['fee-simulator'],
  }),
  settings: endpoint({
    method: 'GET',
    path: '/fee-simulator/settings',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'The active table and whether the PDV shows the installment surcharge',
    response: { 200: feeSettingsSchema },
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: '/fee-simulator/settings',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'Save the settings (updatedAt required once they were saved; 422 for a table not of the shop)',
    body: feeSettingsInputSchema,
    response: { 200: feeSettingsSchema },
    changes: ['fee-simulator'],
  }),
  mealVouchers: endpoint({
    method: 'GET',
    path: '/fee-simulator/meal-voucher',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'The meal voucher brands (issue 33): enabled at the PDV or not, rate and settlement days',
    response: { 200: mealVoucherSettingsSchema },
  }),
  saveMealVouchers: endpoint({
    method: 'PUT',
    path: '/fee-simulator/meal-voucher',
    resource: 'fee-simulator',
    access: SHIPPING,
    summary: 'Save the meal voucher brands given (the others keep theirs)',
    body: mealVoucherSettingsInputSchema,
    response: { 200: mealVoucherSettingsSchema },
    changes: ['fee-simulator'],
  }),
  pdv: endpoint({
    method: 'GET',
    path: '/fee-simulator/pdv',
    resource: 'fee-simulator',
    access: COUNTER,
    summary:
      "The PDV's installment surcharge table (the active one when the display is on, else null) and the enabled meal voucher brands",
    response: { 200: feePdvSchema },
  }),
} as const;
