import {
  COUPON_CODE_MAX,
  type Coupon,
  type CouponFormValues,
  type CouponInput,
  makeCouponInputSchema,
} from '@balcao/core/coupon';
import { numberToDecimalInput } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import { useEffect, useRef, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { FormMoneyField, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { RecordFormCard, RecordFormPage, useEditId } from '../../components/RecordFormPage.tsx';
import { shopToday } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { useCoupon, useCreateCoupon, useUpdateCoupon } from './api.ts';

/** Spec 9: after a create, the edit page of the new coupon opens 3000 ms later. */
const REDIRECT_MS = 3000;
const LIST = '/dashboard/coupon';
const MISSING_CLIENT = 'Erro ao criar cupom, atualize a pagina e tente novamente';
/** "Ends after yesterday" on the shop's date (the session's zone). */
const couponSchema = makeCouponInputSchema({ today: shopToday });

/** Coupon form at /dashboard/coupon/new and /dashboard/coupon/edit/{id}. */
export default function CouponFormPage() {
  const { state, show, close } = useFeedback();
  const edit = useEditId(LIST);
  const coupon = useCoupon(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={coupon}
      title={['Novo cupom', 'Editar cupom']}
      notFound="Cupom não encontrado"
      maxWidth={760}
      after={<FeedbackSnackbar state={state} onClose={close} />}
    >
      {(coupon) => <CouponForm coupon={coupon} onFeedback={show} />}
    </RecordFormPage>
  );
}

const money = (value: number) => value.toFixed(2).replace('.', ',');

/** The form holds what the inputs show: texts with a comma for amounts, YYYY-MM-DD dates. */
function toFormValues(coupon?: Coupon): CouponFormValues {
  if (!coupon) {
    // Spec 9: default type percentage, default value 0.
    return {
      code: '',
      discountType: 'PERCENTAGE',
      discountValue: '0',
      startDate: shopToday(),
      endDate: '',
      isSingleUse: false,
      maxUsesPerUser: '0',
      minSaleAmount: '0',
    };
  }
  return {
    code: coupon.code,
    discountType: coupon.discountType,
    discountValue:
      coupon.discountType === 'FIXED_AMOUNT'
        ? money(coupon.discountValue)
        : numberToDecimalInput(coupon.discountValue),
    startDate: coupon.startDate.split('T')[0],
    endDate: coupon.endDate.split('T')[0],
    isSingleUse: coupon.isSingleUse,
    maxUsesPerUser: String(coupon.maxUsesPerUser),
    minSaleAmount: money(coupon.minSaleAmount),
  };
}

function CouponForm({ coupon, onFeedback }: { coupon?: Coupon; onFeedback: (feedback: Feedback) => void }) {
  const navigate = useNavigate();
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.coupons);
  const create = useCreateCoupon();
  const update = useUpdateCoupon();
  const [redirecting, setRedirecting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const form = useAppForm({ schema: couponSchema, defaultValues: toFormValues(coupon) });
  const { control } = form;
  const discountType = useWatch({ control, name: 'discountType' });

  const submit = async (values: CouponInput) => {
    const clientId = user?.client?.id;
    if (!clientId) {
      onFeedback({ severity: 'error', title: MISSING_CLIENT });
      return;
    }
    // Spec 7: the whole coupon, status active, the client; numbers already have a dot.
    const body = {
      ...values,
      status: 'active' as const,
      client: { id: clientId },
      updatedAt: coupon?.updatedAt,
    };
    if (coupon) {
      const saved = await update.mutateAsync({ params: { id: coupon.id }, body });
      form.reset(toFormValues(saved));
      onFeedback({ severity: 'success', title: 'Cupom editado com sucesso' });
    } else {
      const saved = await create.mutateAsync({ body });
      onFeedback({ severity: 'success', title: 'Cupom criado com sucesso' });
      setRedirecting(true);
      timer.current = setTimeout(() => navigate(`/dashboard/coupon/edit/${saved.id}`), REDIRECT_MS);
    }
  };

  const locked = !canWrite || redirecting;
  return (
    <RecordFormCard
      form={form}
      onSubmit={submit}
      onFeedback={onFeedback}
      errorTitle={coupon ? 'Erro ao editar cupom' : 'Erro ao criar cupom'}
      label="Cupom"
      canWrite={canWrite}
      readOnlyNote="Você pode ver este cupom, mas não alterá-lo."
      list={LIST}
      submit={
        <SubmitButton busyLabel="Cadastrando..." disabled={redirecting}>
          {redirecting ? 'Redirecionando...' : coupon ? 'Salvar' : 'Cadastrar'}
        </SubmitButton>
      }
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          columnGap: 2,
          rowGap: 2.5,
        }}
      >
        <FormTextField
          control={control}
          name="code"
          label="Código"
          required
          mask={(text) => text.toUpperCase()}
          disabled={locked}
          helperText="De 3 a 100 caracteres: letras, números, - ou _"
          slotProps={{ htmlInput: { maxLength: COUPON_CODE_MAX, autoCapitalize: 'characters' } }}
        />
        <FormTextField
          control={control}
          name="discountType"
          label="Tipo de desconto"
          select
          required
          disabled={locked}
        >
          <MenuItem value="">
            <em>Selecione</em>
          </MenuItem>
          <MenuItem value="PERCENTAGE">Porcentagem (%)</MenuItem>
          <MenuItem value="FIXED_AMOUNT">Valor fixo (R$)</MenuItem>
        </FormTextField>
        <FormMoneyField
          control={control}
          name="discountValue"
          label="Valor do desconto"
          required
          suffix={discountType === 'FIXED_AMOUNT' ? undefined : '%'}
          disabled={locked}
        />
        <FormMoneyField
          control={control}
          name="minSaleAmount"
          label="Valor mínimo da venda"
          disabled={locked}
          helperText="0 = sem valor mínimo"
        />
        <FormTextField
          control={control}
          name="startDate"
          label="Data de início"
          type="date"
          required
          disabled={locked}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <FormTextField
          control={control}
          name="endDate"
          label="Data de fim"
          type="date"
          required
          disabled={locked}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <FormTextField
          control={control}
          name="maxUsesPerUser"
          label="Máximo de usos por cliente"
          type="number"
          disabled={locked}
          helperText="0 = ilimitado"
          slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
        />
        <Box>
          <Controller
            control={control}
            name="isSingleUse"
            render={({ field }) => (
              <FormControlLabel
                label="Uso único"
                disabled={locked}
                control={
                  <Checkbox
                    checked={Boolean(field.value)}
                    onChange={(e) => field.onChange(e.target.checked)}
                  />
                }
              />
            )}
          />
          <FormHelperText sx={{ mt: 0 }}>Pode ser usado em uma única venda</FormHelperText>
        </Box>
      </Box>
    </RecordFormCard>
  );
}
