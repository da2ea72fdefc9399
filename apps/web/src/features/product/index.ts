/** What the product feature offers the other features (the structure check allows no other way in). */
export { fetchProduct, findByBarcode, productQueries, searchProducts, useProducts } from './api.ts';
export { formatMovementTime, movementDetails, SignedQuantity } from './components/ProductStockCard.tsx';
