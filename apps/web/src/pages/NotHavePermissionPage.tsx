import { MessagePage } from './MessagePage.tsx';

export default function NotHavePermissionPage() {
  return (
    <MessagePage
      title="Sem permissão"
      text="Seu tipo de usuário não tem acesso a esta página. Fale com o administrador da loja."
    />
  );
}
