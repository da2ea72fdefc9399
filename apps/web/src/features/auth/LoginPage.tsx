import { LOGIN_FAILED_MESSAGE, loginInputSchema } from '@balcao/core/auth';
import { homeFor } from '@balcao/core/routes';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { useSession } from './session.tsx';

export default function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});

  if (session.isLogged && session.user && !sending) return <Navigate to="/dashboard" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = loginInputSchema.safeParse({ email, password });
    if (!parsed.success) {
      const errors: { email?: string; password?: string } = {};
      for (const issue of parsed.error.issues) errors[issue.path[0] as 'email' | 'password'] = issue.message;
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    setFailed(false);
    setSending(true);
    try {
      const payload = await session.login(parsed.data);
      navigate(homeFor(payload.user.userType.id), { replace: true });
    } catch {
      setFailed(true);
      setSending(false);
    }
  }

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}
    >
      <Paper
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 400 }}
      >
        <Typography component="p" variant="h6" color="primary" sx={{ fontWeight: 700 }}>
          Balcão
        </Typography>
        <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
          Área Restrita
        </Typography>
        {failed && (
          <Alert severity="error" sx={{ mb: 2 }}>
            <AlertTitle>Ops!</AlertTitle>
            {LOGIN_FAILED_MESSAGE}
          </Alert>
        )}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          fullWidth
          margin="normal"
          value={email}
          disabled={sending}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(fieldErrors.email)}
          helperText={fieldErrors.email}
          autoFocus
        />
        <TextField
          label="Senha"
          name="password"
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          fullWidth
          margin="normal"
          value={password}
          disabled={sending}
          onChange={(e) => setPassword(e.target.value)}
          error={Boolean(fieldErrors.password)}
          helperText={fieldErrors.password}
          slotProps={{
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={showPassword ? 'Ocultar senha' : 'Mostrar senha'}
                    onClick={() => setShowPassword((v) => !v)}
                    edge="end"
                    disabled={sending}
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={sending}>
          {sending ? <CircularProgress size={24} color="inherit" aria-label="Entrando" /> : 'Entrar'}
        </Button>
        <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
          Ainda não tem conta?{' '}
          <Link component={RouterLink} to="/criar-conta">
            Criar conta
          </Link>
        </Typography>
      </Paper>
    </Box>
  );
}
