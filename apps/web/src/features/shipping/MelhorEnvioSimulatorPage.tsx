import { FreightSimulator } from './FreightSimulator.tsx';

/** /dashboard/freight/melhor-envio */
export default function MelhorEnvioSimulatorPage() {
  return <FreightSimulator carrier="melhor_envio" />;
}
