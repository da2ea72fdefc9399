/** What the pix feature offers the others (issue 33): the PDV's dynamic charge and its withdrawal. */
export { useRemovePixCharge } from './api.ts';
export { PixChargeCard, PixDynamicCharge } from './PixDynamicCharge.tsx';
export { PixRefundList, PixRefunds } from './PixRefunds.tsx';
