import { endpoint } from '../contract.ts';
import { pageOf } from '../list.ts';
import { clientParams, idParams } from '../params.ts';
import { deletedSchema, okSchema } from '../responses.ts';
import { ALL, BACKOFFICE, WRITE } from '../routes.ts';
import {
  changePasswordSchema,
  staffUserSchema,
  userCreateSchema,
  userListQuerySchema,
  userUpdateSchema,
} from '../user.ts';

/** Staff users of the caller's client: reads for back-office users, writes for WRITE.users (1, 2). */
export const userApi = {
  list: endpoint({
    method: 'GET',
    path: '/user/client/:clientId',
    resource: 'user',
    access: BACKOFFICE,
    summary: 'Staff users of the client (search by name/email, filter by type and active)',
    params: clientParams,
    query: userListQuerySchema,
    response: { 200: pageOf(staffUserSchema) },
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/user/me/password',
    resource: 'user',
    access: ALL,
    summary: 'Change my password (other sessions of mine end)',
    body: changePasswordSchema,
    response: { 200: okSchema },
    changes: [],
  }),
  get: endpoint({
    method: 'GET',
    path: '/user/:id',
    resource: 'user',
    access: BACKOFFICE,
    summary: 'A staff user',
    params: idParams,
    response: { 200: staffUserSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/user',
    resource: 'user',
    access: WRITE.users,
    summary: 'Create a staff user with a password',
    body: userCreateSchema,
    response: { 201: staffUserSchema },
    changes: ['user'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/user/:id',
    resource: 'user',
    access: WRITE.users,
    summary: 'Edit a staff user; deactivating ends their sessions at once',
    params: idParams,
    body: userUpdateSchema,
    response: { 200: staffUserSchema },
    changes: ['user'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/user/:id',
    resource: 'user',
    access: WRITE.users,
    summary: 'Delete a staff user (their sessions end)',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['user'],
  }),
} as const;
