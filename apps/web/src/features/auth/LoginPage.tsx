import { LOGIN_FAILED_MESSAGE, REQUIRED } from '@balcao/core/messages';
import { homeFor } from '@balcao/core/routes';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import OutlinedInput from '@mui/material/OutlinedInput';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { useSession } from './session.tsx';

export default function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [sending, setSending] = useState(false);
  /** The alert's text: the generic failure, or the API's own message when it asks to wait (429). */
  const [failed, setFailed] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});

  if (session.isLogged && session.user && !sending) return <Navigate to="/dashboard" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Both required; the email is trimmed, the password never altered (the API validates with
    // loginInputSchema). Checked by hand here so /login does not download zod (JS budget 150 KB).
    const input = { email: email.trim(), password };
    const errors = {
      email: input.email ? undefined : REQUIRED,
      password: input.password ? undefined : REQUIRED,
    };
    if (errors.email || errors.password) {
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    setFailed(null);
    setSending(true);
    try {
      const payload = await session.login(input);
      navigate(homeFor(payload.user.userType.id), { replace: true });
    } catch (error) {
      setFailed(
        error instanceof ApiError && error.code === 'rate_limited' ? error.message : LOGIN_FAILED_MESSAGE,
      );
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
            {failed}
          </Alert>
        )}
        <FormControl fullWidth margin="normal" error={Boolean(fieldErrors.email)} disabled={sending}>
          <InputLabel htmlFor="login-email">Email</InputLabel>
          <OutlinedInput
            id="login-email"
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            // The lengths of loginInputSchema (core/auth.ts), kept literal so /login stays free of zod.
            inputProps={{ maxLength: 254 }}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-describedby={fieldErrors.email ? 'login-email-error' : undefined}
            autoFocus
          />
          {fieldErrors.email && <FormHelperText id="login-email-error">{fieldErrors.email}</FormHelperText>}
        </FormControl>
        <FormControl fullWidth margin="normal" error={Boolean(fieldErrors.password)} disabled={sending}>
          <InputLabel htmlFor="login-password">Senha</InputLabel>
          <OutlinedInput
            id="login-password"
            label="Senha"
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            inputProps={{ maxLength: 128 }}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby={fieldErrors.password ? 'login-password-error' : undefined}
            endAdornment={
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
            }
          />
          {fieldErrors.password && (
            <FormHelperText id="login-password-error">{fieldErrors.password}</FormHelperText>
          )}
        </FormControl>
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
