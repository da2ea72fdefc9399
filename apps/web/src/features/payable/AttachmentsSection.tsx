import { payableApi } from '@balcao/core/endpoints/payable';
import {
  MAX_PAYABLE_ATTACHMENTS,
  PAYABLE_ATTACHMENT_UPLOAD,
  type PayableAttachment,
} from '@balcao/core/payable';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Feedback } from '../../components/FeedbackSnackbar.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useAddAttachment, useRemoveAttachment } from './api.ts';

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** A payable's files (issue 34): the boleto's PDF, a photo of the invoice; added, downloaded, removed. */
export function AttachmentsSection({
  payableId,
  attachments,
  canWrite,
  onChange,
  onFeedback,
}: {
  payableId: number;
  attachments: PayableAttachment[];
  canWrite: boolean;
  onChange: (attachments: PayableAttachment[]) => void;
  onFeedback: (f: Feedback) => void;
}) {
  const add = useAddAttachment();
  const remove = useRemoveAttachment();
  const busy = add.isPending || remove.isPending;

  const send = async (files: FileList | null) => {
    let list = attachments;
    for (const file of Array.from(files ?? [])) {
      if (file.size > PAYABLE_ATTACHMENT_UPLOAD.maxBytes) {
        onFeedback({
          severity: 'error',
          title: `Erro ao anexar ${file.name}`,
          message: PAYABLE_ATTACHMENT_UPLOAD.tooLarge,
        });
        continue;
      }
      try {
        list = [...list, await add.mutateAsync({ params: { id: payableId }, file })];
        onChange(list);
        onFeedback({ severity: 'success', title: 'Anexo adicionado' });
      } catch (error) {
        onFeedback({ severity: 'error', title: `Erro ao anexar ${file.name}`, message: errorMessage(error) });
      }
    }
  };

  return (
    <Paper sx={{ p: 2 }} component="section" aria-label="Anexos">
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <Box>
          <Typography component="h2" variant="h6">
            Anexos
          </Typography>
          <Typography variant="body2" color="text.secondary">
            PDF ou imagem (JPEG, PNG, WebP) até 5 MB.
          </Typography>
        </Box>
        {canWrite && (
          <Button
            component="label"
            variant="outlined"
            startIcon={<AttachFileIcon />}
            disabled={busy || attachments.length >= MAX_PAYABLE_ATTACHMENTS}
          >
            Anexar arquivo
            <Box
              component="input"
              type="file"
              accept="application/pdf,image/jpeg,image/png,image/webp"
              multiple
              aria-label="Arquivo do anexo"
              data-testid="attachment-file"
              sx={{ display: 'none' }}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
                void send(e.target.files);
                e.target.value = '';
              }}
            />
          </Button>
        )}
      </Stack>
      <Box sx={{ height: 4, my: 1 }}>{busy && <LinearProgress aria-label="Enviando" />}</Box>
      {attachments.length === 0 ? (
        <Typography color="text.secondary">Nenhum anexo.</Typography>
      ) : (
        <List dense aria-label="Anexos da conta">
          {attachments.map((a) => (
            <ListItem
              key={a.id}
              disableGutters
              secondaryAction={
                <Stack direction="row" spacing={1}>
                  <Button
                    size="small"
                    aria-label={`Baixar ${a.name}`}
                    onClick={() =>
                      download(
                        payableApi.attachmentFile,
                        { params: { id: payableId, attachmentId: a.id } },
                        a.name,
                      ).catch((error) =>
                        onFeedback({
                          severity: 'error',
                          title: 'Erro ao baixar',
                          message: errorMessage(error),
                        }),
                      )
                    }
                  >
                    Baixar
                  </Button>
                  {canWrite && (
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Remover ${a.name}`}
                      disabled={busy}
                      onClick={async () => {
                        try {
                          await remove.mutateAsync({ params: { id: payableId, attachmentId: a.id } });
                          onChange(attachments.filter((x) => x.id !== a.id));
                          onFeedback({ severity: 'success', title: 'Anexo removido' });
                        } catch (error) {
                          onFeedback({
                            severity: 'error',
                            title: 'Erro ao remover',
                            message: errorMessage(error),
                          });
                        }
                      }}
                    >
                      Remover
                    </Button>
                  )}
                </Stack>
              }
              sx={{ pr: canWrite ? 20 : 10 }}
            >
              <ListItemText
                primary={a.name}
                secondary={`${sizeText(a.sizeBytes)} · ${formatDateTime(a.createdAt)}`}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
