import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The routing fallback of the spec: "Unexpected Application Error!" with the status or message. */
export function ErrorFallback() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Box component="main" sx={{ p: 4 }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Unexpected Application Error!
      </Typography>
      <Typography component="h2" variant="h6" sx={{ fontStyle: 'italic' }}>
        {detail}
      </Typography>
      <Button variant="contained" sx={{ mt: 3 }} onClick={() => window.location.assign('/dashboard')}>
        Voltar ao início
      </Button>
    </Box>
  );
}
