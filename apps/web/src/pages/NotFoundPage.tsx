import { MessagePage } from './MessagePage.tsx';

export default function NotFoundPage() {
  return (
    <MessagePage title="Ops! Página não encontrada" text="O endereço acessado não existe ou foi movido." />
  );
}
