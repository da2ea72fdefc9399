import { maskCep } from '@balcao/core/cep';
import type { CustomerDetail, CustomerInput, PersonType } from '@balcao/core/customer';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { centsOf, centsToInput } from '../../components/MoneyField.tsx';

export type AddressForm = {
  id?: number;
  label: string;
  zipCode: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  state: string;
  isDefault: boolean;
};

/** What the customer form's inputs show: masked texts, the credit limit as "1500,00". */
export type CustomerFormValues = {
  personType: PersonType;
  name: string;
  document: string;
  email: string;
  phone: string;
  birthDate: string;
  creditLimit: string;
  notes: string;
  active: boolean;
  tags: string[];
  addresses: AddressForm[];
};

export const emptyAddress = (isDefault: boolean): AddressForm => ({
  label: '',
  zipCode: '',
  street: '',
  number: '',
  complement: '',
  neighborhood: '',
  city: '',
  state: '',
  isDefault,
});

export function toFormValues(c?: CustomerDetail): CustomerFormValues {
  if (!c) {
    return {
      personType: 'person',
      name: '',
      document: '',
      email: '',
      phone: '',
      birthDate: '',
      creditLimit: '',
      notes: '',
      active: true,
      tags: [],
      addresses: [],
    };
  }
  return {
    personType: c.personType,
    name: c.name,
    document: c.document ? maskDocument(c.document) : '',
    email: c.email ?? '',
    phone: c.phone ? maskPhone(c.phone) : '',
    birthDate: c.birthDate ?? '',
    creditLimit: c.creditLimitCents ? centsToInput(c.creditLimitCents) : '',
    notes: c.notes ?? '',
    active: c.active,
    tags: c.tags,
    addresses: c.addresses.map((a) => ({
      id: a.id,
      label: a.label ?? '',
      zipCode: maskCep(a.zipCode),
      street: a.street,
      number: a.number,
      complement: a.complement ?? '',
      neighborhood: a.neighborhood,
      city: a.city,
      state: a.state,
      isDefault: a.isDefault,
    })),
  };
}

/** What the shared core schema reads: the credit limit in cents (junk as -1, which it refuses). */
export function toInput(v: CustomerFormValues): CustomerInput {
  const cents = centsOf(v.creditLimit);
  return {
    ...v,
    creditLimitCents: Number.isNaN(cents) ? -1 : cents,
    addresses: v.addresses.map(({ id, ...a }) => (id ? { id, ...a } : a)),
  };
}
