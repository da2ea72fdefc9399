import { customerInputSchema } from '@balcao/core/customer';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customers } from './schema.ts';
import { insertCustomer } from './service.ts';

/** A CPF from its 9 first digits plus check digits (demo data; the receivable seed finds customers by it). */
export function cpf(base9: string): string {
  const digits = base9.split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const dv = (sum * 10) % 11;
    digits.push(dv === 10 ? 0 : dv);
  }
  return digits.join('');
}

/** Check digits of a CNPJ from its 12 first digits (demo data only). */
function cnpj(base12: string): string {
  const digits = base12.split('').map(Number);
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const r = weights.reduce((acc, w, i) => acc + digits[i] * w, 0) % 11;
    digits.push(r < 2 ? 0 : 11 - r);
  }
  return digits.join('');
}

const sp = (street: string, number: string, neighborhood: string, zipCode: string, complement?: string) => ({
  zipCode,
  street,
  number,
  complement,
  neighborhood,
  city: 'São Paulo',
  state: 'SP',
});

type Demo = {
  input: Parameters<typeof customerInputSchema.parse>[0];
  whatsappValid: boolean | null;
};

const DEMO_CUSTOMERS: Demo[] = [
  {
    input: {
      name: 'Maria Aparecida Santos',
      document: cpf('123456789'),
      email: 'maria.santos@email.com.br',
      phone: '11987651234',
      birthDate: '1968-04-12',
      creditLimitCents: 80000,
      notes: 'Cliente desde a inauguração. Prefere pagar no crediário todo dia 10.',
      addresses: [
        { ...sp('Rua Augusta', '1508', 'Consolação', '01304001', 'apto 42'), label: 'Casa', isDefault: true },
        { ...sp('Avenida Paulista', '1000', 'Bela Vista', '01310100', '8º andar'), label: 'Trabalho' },
      ],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'José Carlos Oliveira',
      document: cpf('234567890'),
      email: 'jcoliveira@gmail.com',
      phone: '11976543210',
      birthDate: '1975-09-30',
      creditLimitCents: 50000,
      addresses: [{ ...sp('Rua Vergueiro', '2300', 'Vila Mariana', '04101300'), label: 'Casa' }],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'Ana Paula Ferreira',
      document: cpf('345678901'),
      email: 'anapaula.ferreira@hotmail.com',
      phone: '11965432109',
      birthDate: '1990-01-22',
      creditLimitCents: 30000,
      addresses: [{ ...sp('Rua Teodoro Sampaio', '744', 'Pinheiros', '05406000', 'casa 2') }],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'João Pedro Lima',
      document: cpf('456789012'),
      phone: '11954321098',
      birthDate: '2001-07-03',
      addresses: [{ ...sp('Rua Domingos de Morais', '1200', 'Vila Mariana', '04010100') }],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'Francisca das Chagas Souza',
      document: cpf('567890123'),
      phone: '11943210987',
      birthDate: '1958-12-08',
      creditLimitCents: 20000,
      notes: 'Entregar sempre após as 14h.',
      addresses: [{ ...sp('Rua Cerro Corá', '550', 'Alto de Pinheiros', '05061100') }],
    },
    whatsappValid: false,
  },
  {
    input: {
      name: 'Antônio Marcos Pereira',
      document: cpf('678901234'),
      email: 'antonio.pereira@uol.com.br',
      phone: '11932109876',
      birthDate: '1982-03-15',
      addresses: [
        {
          zipCode: '30130010',
          street: 'Praça Sete de Setembro',
          number: '30',
          neighborhood: 'Centro',
          city: 'Belo Horizonte',
          state: 'MG',
        },
      ],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'Juliana Costa Ribeiro',
      document: cpf('789012345'),
      email: 'ju.ribeiro@gmail.com',
      phone: '11921098765',
      birthDate: '1995-11-27',
      creditLimitCents: 40000,
      addresses: [{ ...sp('Rua Harmonia', '123', 'Vila Madalena', '05435000') }],
    },
    whatsappValid: null,
  },
  {
    input: {
      name: 'Carlos Eduardo Almeida',
      document: cpf('890123456'),
      email: 'carlos.almeida@outlook.com',
      phone: '11910987654',
      birthDate: '1979-06-19',
      addresses: [
        { ...sp('Avenida Brigadeiro Faria Lima', '2232', 'Jardim Paulistano', '01451000', 'sala 5') },
      ],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'Fernanda Rodrigues',
      document: cpf('901234567'),
      email: 'fe.rodrigues@yahoo.com.br',
      phone: '21998765432',
      birthDate: '1987-02-14',
      addresses: [
        {
          zipCode: '22041001',
          street: 'Avenida Nossa Senhora de Copacabana',
          number: '680',
          complement: 'apto 1101',
          neighborhood: 'Copacabana',
          city: 'Rio de Janeiro',
          state: 'RJ',
        },
      ],
    },
    whatsappValid: true,
  },
  {
    input: {
      name: 'Lucas Gabriel Martins',
      phone: '11998877665',
      notes: 'Sem CPF cadastrado: pediu para não informar.',
    },
    whatsappValid: null,
  },
  {
    input: {
      personType: 'company',
      name: 'Padaria Pão Quente Ltda',
      document: cnpj('123456780001'),
      email: 'compras@paoquente.com.br',
      phone: '1133224455',
      creditLimitCents: 300000,
      notes: 'Compra salgados para revenda. Nota fiscal em nome da empresa.',
      addresses: [{ ...sp('Rua Tuiuti', '1800', 'Tatuapé', '03081000'), label: 'Loja' }],
    },
    whatsappValid: true,
  },
  {
    input: {
      personType: 'company',
      name: 'Mercadinho Boa Vista ME',
      document: cnpj('987654320001'),
      email: 'contato@mercadinhoboavista.com.br',
      phone: '11944556677',
      creditLimitCents: 150000,
      active: false,
      notes: 'Fechou a loja em 2024.',
      addresses: [{ ...sp('Rua Voluntários da Pátria', '3100', 'Santana', '02401000') }],
    },
    whatsappValid: null,
  },
];

/** Demo customers with addresses and WhatsApp check results (their installments: receivable/seed.ts). */
export async function seedCustomers(db: Db, clientId: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (const demo of DEMO_CUSTOMERS) {
      const id = await insertCustomer(tx, clientId, customerInputSchema.parse(demo.input));
      if (demo.whatsappValid !== null) {
        await tx
          .update(customers)
          .set({ whatsappValid: demo.whatsappValid, whatsappCheckedAt: new Date() })
          .where(eq(customers.id, id));
      }
    }
  });
}
