import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { useSession } from './session.tsx';

/** "Saindo...": revokes the token, clears cookies and persisted state, then goes to /login. */
export default function LogoutPage() {
  const { logout } = useSession();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logout().finally(() => navigate('/login', { replace: true }));
  }, [logout, navigate]);
  return (
    <main>
      <Loading text="Saindo..." />
    </main>
  );
}
