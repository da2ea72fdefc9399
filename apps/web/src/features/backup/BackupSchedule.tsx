import { UserType } from '@balcao/core/userTypes';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { useSession } from '../auth/index.ts';
import { useBackups, useSaveBackupSchedule } from './api.ts';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * The nightly backup's setting on Configurações > Sistema (issue 37): on/off and the hour. Shown to the
 * instance operator's Administrador only (another shop's gets 403 from the API: nothing is shown).
 */
export function BackupScheduleSection() {
  const { user } = useSession();
  const isAdmin = user?.userType.id === UserType.ADMIN;
  const backups = useBackups(isAdmin);
  const save = useSaveBackupSchedule();
  const feedback = useFeedback();
  const [enabled, setEnabled] = useState(true);
  const [hour, setHour] = useState(3);
  const schedule = backups.data?.schedule;
  useEffect(() => {
    if (!schedule) return;
    setEnabled(schedule.enabled);
    setHour(schedule.hour);
  }, [schedule]);
  if (!isAdmin || !schedule) return null;
  return (
    <Paper component="section" aria-label="Backup automático" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Backup automático
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <FormControlLabel
          control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />}
          label="Fazer backup todas as noites"
        />
        <TextField
          select
          label="Horário"
          value={hour}
          disabled={!enabled}
          onChange={(event) => setHour(Number(event.target.value))}
          sx={{ minWidth: 140 }}
        >
          {HOURS.map((h) => (
            <MenuItem key={h} value={h}>
              {`${String(h).padStart(2, '0')}:00`}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              { body: { enabled, hour } },
              {
                onSuccess: () => feedback.show({ severity: 'success', title: 'Horário do backup salvo' }),
                onError: (error) =>
                  feedback.show({
                    severity: 'error',
                    title: 'Não foi possível salvar',
                    message: error.message,
                  }),
              },
            )
          }
        >
          Salvar horário
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        Também é feito um backup antes de cada atualização do sistema. Veja a lista em{' '}
        <Link component={RouterLink} to="/dashboard/settings/backup">
          Backups
        </Link>
        .
      </Typography>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Paper>
  );
}
