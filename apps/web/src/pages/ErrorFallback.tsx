import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Component, type ErrorInfo, type ReactNode } from 'react';

/** The routing fallback of the spec: "Unexpected Application Error!" with the status or message. */
function ErrorFallback({ error }: { error: unknown }) {
  const status = (error as { status?: number })?.status;
  const detail = status
    ? `${status} ${(error as { statusText?: string }).statusText ?? ''}`.trim()
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

type State = { error: unknown; hasError: boolean };

/** Shows the fallback on an error until `resetKey` (the path) changes. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  state: State = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  componentDidUpdate(previous: { resetKey?: string }) {
    if (this.state.hasError && previous.resetKey !== this.props.resetKey)
      this.setState({ error: null, hasError: false });
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unexpected application error', error, info.componentStack);
  }

  render() {
    return this.state.hasError ? <ErrorFallback error={this.state.error} /> : this.props.children;
  }
}
