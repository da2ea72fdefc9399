import { BACKUP_KIND_LABELS, BACKUP_STATUS_LABELS, type Backup, formatBytes } from '@balcao/core/backup';
import BackupIcon from '@mui/icons-material/Backup';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { downloadBackup, useBackups, useTakeBackup } from './api.ts';

function StatusChip({ backup }: { backup: Backup }) {
  if (backup.status !== 'ok')
    return (
      <Chip
        size="small"
        color="error"
        label={BACKUP_STATUS_LABELS[backup.status]}
        title={backup.error ?? ''}
      />
    );
  return <Chip size="small" color="success" label={BACKUP_STATUS_LABELS.ok} />;
}

/** Backups (issue 37, Administrador of the instance's first shop): list, take now, download, restore. */
export default function BackupPage() {
  const backups = useBackups();
  const take = useTakeBackup();
  const feedback = useFeedback();

  if (backups.isPending) return <Loading />;
  if (backups.isError)
    return (
      <LoadError
        what="Não foi possível carregar os backups."
        error={backups.error}
        onRetry={() => backups.refetch()}
      />
    );
  const { data } = backups;

  const takeNow = () =>
    take.mutate(
      {},
      {
        onSuccess: (backup) =>
          backup.status === 'ok'
            ? feedback.show({
                severity: 'success',
                title: 'Backup concluído',
                message: backup.verified
                  ? `Verificado: ${backup.tables} tabelas, ${backup.rows} linhas conferidas.`
                  : undefined,
              })
            : feedback.show({
                severity: 'error',
                title: 'O backup falhou',
                message: backup.error ?? undefined,
              }),
        onError: (error) =>
          feedback.show({ severity: 'error', title: 'O backup falhou', message: error.message }),
      },
    );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Backups
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 640 }}>
          {data.perShop
            ? 'Os dados e arquivos desta loja (as outras lojas do servidor têm seus próprios backups) são copiados sem parar as vendas, conferidos numa cópia de teste e guardados'
            : 'O banco inteiro da instância é copiado sem parar as vendas, conferido numa cópia de teste e guardado'}{' '}
          em <code>{data.folder}</code>
          {data.s3 ? ' e no bucket S3 configurado' : ''}. Ficam os backups dos últimos 7 dias, 4 semanas e 12
          meses.
        </Typography>
        <Button
          variant="contained"
          startIcon={<BackupIcon />}
          disabled={take.isPending || Boolean(data.unavailable)}
          onClick={takeNow}
          sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' }, flexShrink: 0 }}
        >
          {take.isPending ? 'Fazendo backup...' : 'Fazer backup agora'}
        </Button>
      </Stack>

      {data.unavailable && <Alert severity="warning">{data.unavailable}</Alert>}
      {data.lowDisk && <Alert severity="error">{data.lowDisk}</Alert>}

      {data.backups.length === 0 ? (
        <Paper sx={{ p: 6, textAlign: 'center' }}>
          <BackupIcon color="disabled" sx={{ fontSize: 48 }} aria-hidden />
          <Typography sx={{ mt: 1 }}>Nenhum backup foi feito ainda</Typography>
        </Paper>
      ) : (
        <TableContainer component={Paper}>
          <Table size="small" aria-label="Backups">
            <TableHead>
              <TableRow>
                <TableCell>Data</TableCell>
                <TableCell>Tipo</TableCell>
                <TableCell align="right">Tamanho</TableCell>
                <TableCell>Situação</TableCell>
                <TableCell>Verificado</TableCell>
                <TableCell align="right">Arquivo</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.backups.map((backup) => (
                <TableRow key={backup.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(backup.createdAt)}</TableCell>
                  <TableCell>{BACKUP_KIND_LABELS[backup.kind]}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {backup.status === 'ok' ? formatBytes(backup.sizeBytes) : '—'}
                  </TableCell>
                  <TableCell>
                    <StatusChip backup={backup} />
                  </TableCell>
                  <TableCell>
                    {backup.verified ? `Sim (${backup.rows} linhas)` : backup.status === 'ok' ? 'Não' : '—'}
                  </TableCell>
                  <TableCell align="right">
                    {backup.status === 'ok' && (
                      <Button
                        size="small"
                        startIcon={<DownloadIcon />}
                        onClick={() =>
                          downloadBackup(backup.id, backup.fileName).catch((error: Error) =>
                            feedback.show({
                              severity: 'error',
                              title: 'Falha no download',
                              message: error.message,
                            }),
                          )
                        }
                      >
                        Baixar
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <Paper component="section" aria-label="Como restaurar" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Como restaurar
        </Typography>
        <Box component="ol" sx={{ m: 0, pl: 3, '& li': { mb: 0.5 } }}>
          <li>Baixe o backup desejado e pare o servidor do Balcão.</li>
          <li>
            Na pasta do Balcão, rode <code>npm run restore -- ARQUIVO</code>. O banco é restaurado na pasta de
            dados (DATA_DIR, <code>./data</code> por padrão) ou, com DATABASE_URL, num banco PostgreSQL novo.
          </li>
          {data.perShop ? (
            <li>
              O backup desta loja (.zip) entra num banco que não tenha esta loja; se ela já estiver lá, o
              comando recusa, e <code>npm run restore -- ARQUIVO --force</code> substitui só os dados dela (as
              outras lojas não são tocadas).
            </li>
          ) : (
            <li>
              Se a pasta já tiver um banco com dados, o comando recusa; para substituí-lo use{' '}
              <code>npm run restore -- ARQUIVO --force</code> (o banco atual é guardado ao lado, não apagado).
            </li>
          )}
          <li>Inicie o servidor (npm start): as atualizações pendentes do banco rodam na partida.</li>
        </Box>
      </Paper>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}
