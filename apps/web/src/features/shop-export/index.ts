/** The shop's whole data (issue 37): "Exportar todos os dados" on the system page. */
export { ShopExportCard } from './ShopExportCard.tsx';
