/** The QR-code menu at the table (issue 35): the board's panel of table orders waiting for approval. */
export { TableOrdersPanel } from './TableOrdersPanel.tsx';
