/**
 * The QR-code menu at the table (issue 35): the board's panel of table orders waiting for approval and
 * the dialog that prints the tables' QR codes.
 */
export { TableOrdersPanel } from './TableOrdersPanel.tsx';
export { TableQrDialog } from './TableQrDialog.tsx';
