import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The spec's test page. */
export default function HelloPage() {
  return (
    <Box component="main" sx={{ p: 4 }}>
      <Typography component="h1" variant="h4">
        Hello
      </Typography>
      <Typography>Balcão está no ar.</Typography>
    </Box>
  );
}
