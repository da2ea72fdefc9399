import ConstructionIcon from '@mui/icons-material/Construction';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** Shown by routes whose domain a later issue builds: a clear state, never a broken page. */
export function UnderConstruction({ title }: { title: string }) {
  return (
    <Paper sx={{ p: 4, textAlign: 'center', maxWidth: 560, mx: 'auto', mt: 4 }}>
      <ConstructionIcon color="primary" sx={{ fontSize: 48 }} aria-hidden />
      <Typography component="h1" variant="h5" sx={{ mt: 1 }}>
        {title}
      </Typography>
      <Typography variant="h6" component="p" sx={{ mt: 1 }}>
        Em construção
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Esta área do Balcão está sendo preparada e ficará disponível em breve.
      </Typography>
    </Paper>
  );
}
