/**
 * The checkout kit (issue 29): the steps a sale is made of (items, customer and delivery, payment),
 * the product options and discount approval dialogs, and the working state with its totals and the
 * sale body. The PDV, the budget PDV, the budget conversion and the phone order use it; other
 * features import only what this index exports. CheckoutShell: the steps' bar, the grid and the totals.
 */

export {
  type OptionsProduct,
  type ProductChoice,
  ProductOptionsDialog,
} from '../../components/ProductOptionsDialog.tsx';
export { CheckoutGrid, CheckoutStepper, GrandTotal, TotalLine, TotalsPanel } from './CheckoutShell.tsx';
export { CustomerStep } from './CustomerStep.tsx';
export { DiscountApprovalDialog } from './DiscountApprovalDialog.tsx';
export { type DeliveryFreight, FreightLine, useDeliveryFreight } from './freight.tsx';
export { ItemsStep } from './ItemsStep.tsx';
export { DiscountAndCoupon, PaymentStep } from './PaymentStep.tsx';
export {
  emptyPdv,
  type PdvLine,
  type PdvState,
  pdvPaymentCheck,
  pdvReducer,
  pdvToSaleInput,
  pdvTotals,
  usePdvState,
} from './state.ts';
