import { type CustomerData, PERSON_TYPE_LABELS, type PersonType } from '@balcao/core/customer';
import { maskDocument, maskPhone } from '@balcao/core/document';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { type Control, Controller, useWatch } from 'react-hook-form';
import { FormMoneyField, FormSwitch, FormTextField } from '../../components/form.tsx';
import type { CustomerFormValues } from './customerFormValues.ts';
import { TagsInput } from './TagsInput.tsx';

type Props = { control: Control<CustomerFormValues, unknown, CustomerData> };

/** "Dados do cliente": person or company, name, CPF/CNPJ (masked as typed), birth/foundation date. */
export function IdentitySection({ control }: Props) {
  const isCompany = useWatch({ control, name: 'personType' }) === 'company';
  return (
    <Paper sx={{ p: 2 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        Dados do cliente
      </Typography>
      <Grid container spacing={2}>
        <Grid size={12}>
          <Controller
            control={control}
            name="personType"
            render={({ field }) => (
              <RadioGroup row aria-label="Tipo de pessoa" {...field}>
                {(Object.keys(PERSON_TYPE_LABELS) as PersonType[]).map((type) => (
                  <FormControlLabel
                    key={type}
                    value={type}
                    control={<Radio />}
                    label={PERSON_TYPE_LABELS[type]}
                  />
                ))}
              </RadioGroup>
            )}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <FormTextField control={control} name="name" label={isCompany ? 'Razão social' : 'Nome'} required />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField
            control={control}
            name="document"
            label={isCompany ? 'CNPJ' : 'CPF'}
            mask={maskDocument}
            placeholder={isCompany ? '00.000.000/0000-00' : '000.000.000-00'}
            helperText="Opcional"
            slotProps={{ htmlInput: { inputMode: isCompany ? 'text' : 'numeric' } }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField
            control={control}
            name="birthDate"
            label={isCompany ? 'Data de fundação' : 'Data de nascimento'}
            type="date"
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 8 }} sx={{ display: 'flex', alignItems: 'center' }}>
          <FormSwitch control={control} name="active" label="Cliente ativo" />
        </Grid>
      </Grid>
    </Paper>
  );
}

/** "Contato e crediário": WhatsApp (masked as typed), email, credit limit, notes. */
export function ContactSection({ control }: Props) {
  return (
    <Paper sx={{ p: 2 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        Contato e crediário
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField
            control={control}
            name="phone"
            label="WhatsApp"
            mask={maskPhone}
            placeholder="(11) 98765-4321"
            type="tel"
            slotProps={{
              input: { startAdornment: <InputAdornment position="start">+55</InputAdornment> },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField control={control} name="email" label="Email" type="email" />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormMoneyField
            control={control}
            name="creditLimit"
            label="Limite de crédito (crediário)"
            placeholder="0,00"
            helperText="0 ou vazio: sem crediário"
            fullWidth
          />
        </Grid>
        <Grid size={12}>
          <Controller
            control={control}
            name="tags"
            render={({ field, fieldState }) => (
              <TagsInput
                label="Etiquetas (segmentos)"
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={!!fieldState.error}
                helperText={
                  fieldState.error?.message ?? 'Ex.: VIP, atacado. Usadas no público das campanhas.'
                }
              />
            )}
          />
        </Grid>
        <Grid size={12}>
          <FormTextField control={control} name="notes" label="Observações" multiline minRows={2} />
        </Grid>
      </Grid>
    </Paper>
  );
}
