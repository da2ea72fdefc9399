import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, textAlign: 'center' }}
    >
      <div>
        <Typography component="h1" variant="h4" gutterBottom>
          Ops! Página não encontrada
        </Typography>
        <Typography color="text.secondary">O endereço acessado não existe ou foi movido.</Typography>
        <Button component={Link} to="/dashboard" variant="contained" sx={{ mt: 3 }}>
          Ir para o início
        </Button>
      </div>
    </Box>
  );
}
