import { accountCompanySchema, accountOwnerSchema } from '@balcao/core/auth';
import { maskDocument, maskPhone } from '@balcao/core/document';
import type { SessionPayload } from '@balcao/core/session';
import { CLIENT_TYPE_IDS, CLIENT_TYPES } from '@balcao/core/userTypes';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { z } from 'zod';
import { apiFetch, errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/session.tsx';

type Company = z.input<typeof accountCompanySchema>;
type Owner = z.input<typeof accountOwnerSchema>;

/** Create account (state: step, systemClient, user): step 1 company, step 2 owner, then logged in. */
export default function CreateAccountPage() {
  const navigate = useNavigate();
  const { startSession } = useSession();
  const [step, setStep] = useState(0);
  const [systemClient, setSystemClient] = useState<Company | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);

  const company = useForm<Company>({
    resolver: zodResolver(accountCompanySchema) as never,
    defaultValues: { name: '', document: '', clientTypeId: '' as unknown as number, phone: '' },
  });
  const owner = useForm<Owner>({
    resolver: zodResolver(accountOwnerSchema) as never,
    defaultValues: { name: '', email: '', password: '', passwordConfirmation: '' },
  });

  const submitCompany = company.handleSubmit((values) => {
    setSystemClient(values);
    setStep(1);
  });

  const submitOwner = owner.handleSubmit(async (user) => {
    setServerError(null);
    try {
      const payload = await apiFetch<SessionPayload & { token: string }>('/system-client', {
        method: 'POST',
        body: { systemClient, user },
      });
      startSession(payload);
      navigate('/dashboard', { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  const ce = company.formState.errors;
  const oe = owner.formState.errors;

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
        {serverError && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {serverError}
          </Alert>
        )}
        {step === 0 ? (
          <form onSubmit={submitCompany} noValidate>
            <TextField
              label="Nome da empresa"
              fullWidth
              margin="normal"
              {...company.register('name')}
              error={!!ce.name}
              helperText={ce.name?.message}
            />
            <Controller
              control={company.control}
              name="document"
              render={({ field }) => (
                <TextField
                  label="CPF ou CNPJ"
                  fullWidth
                  margin="normal"
                  value={field.value}
                  onChange={(e) => field.onChange(maskDocument(e.target.value))}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={!!ce.document}
                  helperText={ce.document?.message}
                />
              )}
            />
            <Controller
              control={company.control}
              name="clientTypeId"
              render={({ field }) => (
                <TextField
                  select
                  label="Segmento"
                  fullWidth
                  margin="normal"
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(Number(e.target.value))}
                  inputRef={field.ref}
                  error={!!ce.clientTypeId}
                  helperText={ce.clientTypeId?.message}
                >
                  {CLIENT_TYPE_IDS.map((id) => (
                    <MenuItem key={id} value={id}>
                      {CLIENT_TYPES[id]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={company.control}
              name="phone"
              render={({ field }) => (
                <TextField
                  label="WhatsApp"
                  placeholder="(11) 98765-4321"
                  fullWidth
                  margin="normal"
                  value={field.value}
                  onChange={(e) => field.onChange(maskPhone(e.target.value))}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={!!ce.phone}
                  helperText={ce.phone?.message}
                  slotProps={{ htmlInput: { inputMode: 'tel' } }}
                />
              )}
            />
            <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }}>
              Continuar
            </Button>
          </form>
        ) : (
          <form onSubmit={submitOwner} noValidate>
            <TextField
              label="Seu nome"
              fullWidth
              margin="normal"
              {...owner.register('name')}
              error={!!oe.name}
              helperText={oe.name?.message}
            />
            <TextField
              label="Email"
              type="email"
              autoComplete="username"
              fullWidth
              margin="normal"
              {...owner.register('email')}
              error={!!oe.email}
              helperText={oe.email?.message}
            />
            <TextField
              label="Senha"
              type="password"
              autoComplete="new-password"
              fullWidth
              margin="normal"
              {...owner.register('password')}
              error={!!oe.password}
              helperText={oe.password?.message}
            />
            <TextField
              label="Confirmação da senha"
              type="password"
              autoComplete="new-password"
              fullWidth
              margin="normal"
              {...owner.register('passwordConfirmation')}
              error={!!oe.passwordConfirmation}
              helperText={oe.passwordConfirmation?.message}
            />
            <Box sx={{ display: 'flex', gap: 2, mt: 2 }}>
              <Button variant="outlined" onClick={() => setStep(0)} disabled={owner.formState.isSubmitting}>
                Voltar
              </Button>
              <Button
                type="submit"
                variant="contained"
                fullWidth
                size="large"
                disabled={owner.formState.isSubmitting}
              >
                {owner.formState.isSubmitting ? 'Criando conta...' : 'Criar conta'}
              </Button>
            </Box>
          </form>
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
