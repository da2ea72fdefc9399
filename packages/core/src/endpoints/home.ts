import { endpoint } from '../contract.ts';
import { homeSchema } from '../home.ts';
import { ALL } from '../routes.ts';

/** /v1/home: the figures of the dashboard home, by user type (issue 13). */
export const homeApi = {
  get: endpoint({
    method: 'GET',
    path: '/home',
    resource: 'home',
    access: ALL,
    summary:
      "The shop's day for the logged user: sales today and this month with comparisons, payment methods, best sellers, own register, low stock, installments due (parts the user type does not see are null)",
    response: { 200: homeSchema },
  }),
} as const;
