import { accountCompanySchema, accountOwnerSchema } from '@balcao/core/auth';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { CLIENT_TYPE_IDS, CLIENT_TYPES } from '@balcao/core/userTypes';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { z } from 'zod';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { useSession } from '../auth/index.ts';
import { createAccount } from './api.ts';

type Company = z.input<typeof accountCompanySchema>;
type Owner = z.input<typeof accountOwnerSchema>;

const OWNER_FIELDS = ['name', 'email', 'password', 'passwordConfirmation'] as const;

/** Create account (state: step, systemClient, user): step 1 company, step 2 owner, then logged in. */
export default function CreateAccountPage() {
  const navigate = useNavigate();
  const { startSession } = useSession();
  const [step, setStep] = useState(0);
  const [systemClient, setSystemClient] = useState<Company | null>(null);

  const company = useAppForm<Company, z.output<typeof accountCompanySchema>>({
    schema: accountCompanySchema,
    defaultValues: { name: '', document: '', clientTypeId: '', phone: '' },
  });
  const owner = useAppForm<Owner, z.output<typeof accountOwnerSchema>>({
    schema: accountOwnerSchema,
    defaultValues: { name: '', email: '', password: '', passwordConfirmation: '' },
    // The API answers issues of the whole account: the owner's are under "user.".
    fieldOf: Object.fromEntries(OWNER_FIELDS.map((name) => [`user.${name}`, name])),
  });

  const submitOwner = async (user: z.output<typeof accountOwnerSchema>) => {
    const payload = await createAccount({ systemClient: systemClient as Company, user });
    startSession(payload);
    navigate('/dashboard', { replace: true });
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 520 }}>
        <Typography component="h1" variant="h5" gutterBottom>
          Criar conta
        </Typography>
        <Stepper activeStep={step} sx={{ my: 2 }}>
          <Step>
            <StepLabel>Empresa</StepLabel>
          </Step>
          <Step>
            <StepLabel>Responsável</StepLabel>
          </Step>
        </Stepper>
        {step === 0 ? (
          <Form
            form={company}
            onSubmit={() => {
              // What was typed goes to the API, which parses it with the same schema.
              setSystemClient(company.getValues());
              setStep(1);
            }}
          >
            <FormTextField control={company.control} name="name" label="Nome da empresa" margin="normal" />
            <FormTextField
              control={company.control}
              name="document"
              label="CPF ou CNPJ"
              mask={maskDocument}
              margin="normal"
            />
            <FormTextField
              control={company.control}
              name="clientTypeId"
              label="Segmento"
              select
              margin="normal"
            >
              {CLIENT_TYPE_IDS.map((id) => (
                <MenuItem key={id} value={id}>
                  {CLIENT_TYPES[id]}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField
              control={company.control}
              name="phone"
              label="WhatsApp"
              placeholder="(11) 98765-4321"
              mask={maskPhone}
              margin="normal"
              slotProps={{ htmlInput: { inputMode: 'tel' } }}
            />
            <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }}>
              Continuar
            </Button>
          </Form>
        ) : (
          <Form form={owner} onSubmit={submitOwner}>
            <FormError />
            <FormTextField control={owner.control} name="name" label="Seu nome" margin="normal" />
            <FormTextField
              control={owner.control}
              name="email"
              label="Email"
              type="email"
              autoComplete="username"
              margin="normal"
            />
            <FormTextField
              control={owner.control}
              name="password"
              label="Senha"
              type="password"
              autoComplete="new-password"
              margin="normal"
            />
            <FormTextField
              control={owner.control}
              name="passwordConfirmation"
              label="Confirmação da senha"
              type="password"
              autoComplete="new-password"
              margin="normal"
            />
            <Box sx={{ display: 'flex', gap: 2, mt: 2 }}>
              <Button variant="outlined" onClick={() => setStep(0)} disabled={owner.formState.isSubmitting}>
                Voltar
              </Button>
              <SubmitButton busyLabel="Criando conta..." fullWidth size="large">
                Criar conta
              </SubmitButton>
            </Box>
          </Form>
        )}
        <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
          Já tem conta?{' '}
          <Link component={RouterLink} to="/login">
            Entrar
          </Link>
        </Typography>
      </Paper>
    </Box>
  );
}
