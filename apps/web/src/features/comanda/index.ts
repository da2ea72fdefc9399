/** What the comanda feature offers the other features (the structure check allows no other way in). */
export { AddItem } from './AddItem.tsx';
export { useBoard, useComanda } from './api.ts';
export { STAGE_COLOR } from './ComandaBoardPage.tsx';
export { OpenComandaForm } from './ComandaOpenPage.tsx';
