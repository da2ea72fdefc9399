import { FreightSimulator } from './FreightSimulator.tsx';

/** /dashboard/freight/rodonaves */
export default function RodonavesSimulatorPage() {
  return <FreightSimulator carrier="rodonaves" />;
}
