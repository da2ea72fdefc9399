/** What the cash-register feature offers the other features (the structure check allows no other way in). */

export { useCurrentRegister, useOpenRegisters } from './api.ts';
export { CashMovementDialog } from './CashMovementDialog.tsx';
export { OpenDrawerButton } from './OpenDrawerButton.tsx';
export { OpenRegisterDialog } from './OpenRegisterDialog.tsx';
