/** What the stock feature offers the other features (the structure check allows no other way in). */
export { ProductPicker } from './components/ProductPicker.tsx';
