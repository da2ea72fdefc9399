/** Runs the fake ViaCEP on a fixed port (browser tests point CEP_BASE_URL at it): PORT=4599 tsx viacep-cli.ts */
import { startFakeViaCep } from './viacep.ts';

const fake = await startFakeViaCep(Number(process.env.PORT ?? 4599));
console.log(`fake ViaCEP listening on ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
