import { describe, expect, it } from 'vitest';
import {
  assignableUserTypes,
  canManageUserType,
  changePasswordSchema,
  PASSWORDS_DIFFER,
  userCreateSchema,
  userUpdateSchema,
} from './user.ts';

describe('staff user input', () => {
  it('lower-cases the email and checks the password confirmation', () => {
    const out = userCreateSchema.parse({
      name: 'Caixa Um',
      email: ' Caixa@Loja.COM ',
      userTypeId: '4',
      password: 'segredo123',
      passwordConfirmation: 'segredo123',
    });
    expect(out).toMatchObject({ email: 'caixa@loja.com', userTypeId: 4, active: true });
    const r = userCreateSchema.safeParse({
      name: 'Caixa Um',
      email: 'caixa@loja.com',
      userTypeId: 4,
      password: 'segredo123',
      passwordConfirmation: 'outra',
    });
    expect(r.error?.issues).toEqual([
      expect.objectContaining({ path: ['passwordConfirmation'], message: PASSWORDS_DIFFER }),
    ]);
  });

  it('rejects unknown types and short passwords; an edit may keep the password', () => {
    const bad = userCreateSchema.safeParse({
      name: 'X Y',
      email: 'x@y.com',
      userTypeId: 12,
      password: 'curta',
      passwordConfirmation: 'curta',
    });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      'Selecione o tipo de usuário',
      'A senha deve ter no mínimo 8 caracteres',
    ]);
    const edit = userUpdateSchema.parse({
      name: 'X Y',
      email: 'x@y.com',
      userTypeId: 3,
      password: '',
      passwordConfirmation: '',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(edit.password).toBeUndefined();
  });

  it('checks the change-password confirmation and that the new one differs', () => {
    expect(
      changePasswordSchema.safeParse({
        currentPassword: 'a',
        newPassword: 'novasenha1',
        confirmation: 'novasenha2',
      }).error?.issues[0].message,
    ).toBe(PASSWORDS_DIFFER);
    expect(
      changePasswordSchema.safeParse({
        currentPassword: 'novasenha1',
        newPassword: 'novasenha1',
        confirmation: 'novasenha1',
      }).error?.issues[0].message,
    ).toBe('A nova senha deve ser diferente da atual');
  });

  it('lets an Administrador give any type and a Gerente every type but Administrador', () => {
    expect(assignableUserTypes(1)).toHaveLength(11);
    expect(assignableUserTypes(2)).not.toContain(1);
    expect(assignableUserTypes(2)).toHaveLength(10);
    expect(assignableUserTypes(4)).toEqual([]);
    expect(canManageUserType(2, 1)).toBe(false);
    expect(canManageUserType(2, 4)).toBe(true);
  });
});
