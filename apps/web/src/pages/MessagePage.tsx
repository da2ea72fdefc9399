import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

/** A whole-screen message (page not found, no permission) with the way back to the start. */
export function MessagePage({ title, text }: { title: string; text: string }) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, textAlign: 'center' }}
    >
      <div>
        <Typography component="h1" variant="h4" gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary">{text}</Typography>
        <Button component={Link} to="/dashboard" variant="contained" sx={{ mt: 3 }}>
          Ir para o início
        </Button>
      </div>
    </Box>
  );
}
