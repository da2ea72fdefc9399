import { can, WRITE } from '@balcao/core/routes';
import { CHECKLIST_FLAG_LABELS, CHECKLIST_SETTINGS_PATH, type ChecklistFlag } from '@balcao/core/userTypes';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

/**
 * A page the user may see but a setting of the shop turns off: says which setting turns it on, with a
 * link to it for those who may change settings.
 */
export default function FlagClosedPage({
  title,
  flag,
  userTypeId,
}: {
  title: string;
  flag: ChecklistFlag;
  userTypeId: number;
}) {
  const setting = CHECKLIST_FLAG_LABELS[flag];
  const mayChange = can(userTypeId, WRITE.settings);
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', mt: 6, textAlign: 'center' }} data-testid="flag-closed">
      <Typography component="h1" variant="h5" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">
        Esta página está desativada. Ela é ligada pela configuração “{setting}”
        {mayChange ? ', nas configurações do sistema.' : '. Peça ao administrador da loja para ativá-la.'}
      </Typography>
      {mayChange ? (
        <Button component={Link} to={CHECKLIST_SETTINGS_PATH} variant="contained" sx={{ mt: 3 }}>
          Ativar “{setting}”
        </Button>
      ) : (
        <Button component={Link} to="/dashboard" sx={{ mt: 3 }}>
          Ir para o início
        </Button>
      )}
    </Box>
  );
}
