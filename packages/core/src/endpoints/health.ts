import { endpoint } from '../contract.ts';
import { healthSchema, readySchema } from '../responses.ts';

/**
 * Liveness and readiness for a load balancer (issue 22), public: /health (the process answers) and
 * /ready (the database answers with this build's migrations, the instance is not draining; 503 if not).
 */
export const healthApi = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    resource: 'health',
    access: 'public',
    summary: 'Liveness: the process answers (no database query)',
    response: { 200: healthSchema },
  }),
  ready: endpoint({
    method: 'GET',
    path: '/ready',
    resource: 'health',
    access: 'public',
    summary: 'Readiness: the database answers, migrations applied, not draining (503 otherwise)',
    response: { 200: readySchema },
  }),
} as const;
