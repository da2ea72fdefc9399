import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

export default function NotHavePermissionPage() {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, textAlign: 'center' }}
    >
      <div>
        <Typography component="h1" variant="h4" gutterBottom>
          Sem permissão
        </Typography>
        <Typography color="text.secondary">
          Seu tipo de usuário não tem acesso a esta página. Fale com o administrador da loja.
        </Typography>
        <Button component={Link} to="/dashboard" variant="contained" sx={{ mt: 3 }}>
          Ir para o início
        </Button>
      </div>
    </Box>
  );
}
