import { ACTION, can } from '@balcao/core/routes';
import Button from '@mui/material/Button';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/client.ts';
import { useSession } from '../auth/index.ts';
import { useOpenDrawer } from './api.ts';

/**
 * "Abrir gaveta" (issue 36): the drawer kick through the receipt printer's print agent, logged on the
 * register. Only for who may (ACTION.openDrawer); a cash sale and a sangria open it by themselves.
 */
export function OpenDrawerButton() {
  const { user } = useSession();
  const open = useOpenDrawer();
  const feedback = useFeedback();
  if (!can(user?.userType.id, ACTION.openDrawer)) return null;
  return (
    <>
      <Button
        size="small"
        disabled={open.isPending}
        onClick={() =>
          open.mutate(
            { body: { idempotencyKey: newIdempotencyKey() } },
            {
              onSuccess: () => feedback.show({ severity: 'success', title: 'Gaveta aberta' }),
              onError: (error) =>
                feedback.show({
                  severity: 'error',
                  title: 'A gaveta não abriu',
                  message: errorMessage(error),
                }),
            },
          )
        }
      >
        Abrir gaveta
      </Button>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </>
  );
}
