import { PRINTER_STATE_LABELS, type PrintAgent } from '@balcao/core/printAgent';
import type { PrintingSettings } from '@balcao/core/printing';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../auth/index.ts';
import { useAgents, useCreateAgent, useRevokeAgent } from './api.ts';

type Pairing = { code: string; expiresAt: string; name: string; installCommand: string; printer: string };

/** The one command to paste on the printer PC (from the API, on PUBLIC_URL), with its printer if given. */
const commandOf = (pairing: Pairing) =>
  pairing.printer ? `${pairing.installCommand} --printer ${pairing.printer}` : pairing.installCommand;

const STATE_COLORS: Record<PrintAgent['printerState'], 'success' | 'error' | 'warning' | 'default'> = {
  ok: 'success',
  paper_out: 'error',
  cover_open: 'error',
  offline: 'error',
  error: 'error',
  unknown: 'default',
};

/**
 * The print agents (issue 36): a program on the PC next to the printers prints this shop's jobs
 * straight to the thermal printer, with no dialog. Each agent is paired by a code made here; its
 * card shows whether it is connected and its printer's state (paper out keeps the jobs waiting).
 */
export function AgentsCard({ settings }: { settings: PrintingSettings }) {
  const { user } = useSession();
  const canEdit = can(user?.userType.id, WRITE.settings);
  const agents = useAgents();
  const create = useCreateAgent();
  const revoke = useRevokeAgent();
  const [name, setName] = useState('Computador do caixa');
  const [picked, setPicked] = useState<number[]>([]);
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [printer, setPrinter] = useState('');
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<PrintAgent | null>(null);
  // The form opens on demand: its profile boxes would otherwise sit beside the station's, same names.
  const [adding, setAdding] = useState(false);
  const profileName = (id: number) => settings.profiles.find((p) => p.id === id)?.name ?? `#${id}`;

  return (
    <Card variant="outlined" data-testid="agents-card">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Agente de impressão
          </Typography>
          <Typography variant="body2" color="text.secondary">
            O agente é um programa no computador ligado às impressoras térmicas: imprime cupons e comandas
            direto na impressora (rede, USB ou fila do sistema), sem janela de impressão, e abre a gaveta. Sem
            agente, a estação do navegador continua imprimindo.
          </Typography>
          {canEdit && settings.profiles.length > 0 && !adding && (
            <Box>
              <Button variant="outlined" onClick={() => setAdding(true)}>
                Parear um agente
              </Button>
            </Box>
          )}
          {canEdit && settings.profiles.length > 0 && adding && (
            <Stack spacing={1}>
              <TextField
                label="Nome do agente"
                size="small"
                value={name}
                onChange={(e) => setName(e.target.value)}
                sx={{ maxWidth: 360 }}
              />
              <TextField
                label="Impressora neste computador (opcional)"
                size="small"
                placeholder="tcp://192.168.0.50:9100"
                helperText="Rede: tcp://IP:9100 · USB: file:///dev/usb/lp0 · Fila do sistema: cups://FILA"
                value={printer}
                onChange={(e) => setPrinter(e.target.value.trim())}
                sx={{ maxWidth: 480 }}
              />
              <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
                {settings.profiles.map((p) => (
                  <FormControlLabel
                    key={p.id}
                    label={`${p.name} (${p.paperWidth} mm)`}
                    control={
                      <Checkbox
                        checked={picked.includes(p.id)}
                        onChange={(e) =>
                          setPicked((list) =>
                            e.target.checked ? [...list, p.id] : list.filter((id) => id !== p.id),
                          )
                        }
                      />
                    }
                  />
                ))}
              </Stack>
              {create.isError && <Alert severity="error">{errorMessage(create.error)}</Alert>}
              <Box>
                <Button
                  variant="contained"
                  disabled={create.isPending || picked.length === 0 || name.trim() === ''}
                  onClick={() =>
                    create.mutate(
                      { body: { name: name.trim(), profileIds: picked } },
                      {
                        onSuccess: (answer) => {
                          setPairing({
                            code: answer.code,
                            expiresAt: answer.expiresAt,
                            name: answer.agent.name,
                            installCommand: answer.installCommand,
                            printer,
                          });
                          setCopied(false);
                          setAdding(false);
                          setPicked([]);
                        },
                      },
                    )
                  }
                >
                  Gerar código de pareamento
                </Button>
                <Button sx={{ ml: 1 }} onClick={() => setAdding(false)}>
                  Cancelar
                </Button>
              </Box>
            </Stack>
          )}
          {pairing && (
            <Alert severity="info" onClose={() => setPairing(null)} data-testid="pairing-code">
              <Typography variant="body2">
                Código de <b>{pairing.name}</b>, válido até {formatDateTime(pairing.expiresAt)}:
              </Typography>
              <Typography
                component="p"
                sx={{ fontFamily: 'monospace', fontSize: 28, letterSpacing: 4, my: 1 }}
                data-testid="pairing-code-value"
              >
                {pairing.code}
              </Typography>
              <Typography variant="body2">
                No computador das impressoras (com Node.js 20 ou mais novo), cole no terminal este comando:
                ele instala o agente, pareia e começa a imprimir.
              </Typography>
              <Box
                component="code"
                data-testid="install-command"
                sx={{ display: 'block', whiteSpace: 'pre-wrap', wordBreak: 'break-all', my: 0.5 }}
              >
                {commandOf(pairing)}
              </Box>
              <Button
                size="small"
                variant="outlined"
                onClick={() =>
                  navigator.clipboard?.writeText(commandOf(pairing)).then(
                    () => setCopied(true),
                    () => undefined,
                  )
                }
              >
                {copied ? 'Comando copiado' : 'Copiar comando'}
              </Button>
              <Typography variant="body2" sx={{ mt: 1 }}>
                Acrescente <code>--service</code> para ele iniciar sozinho com o computador (Linux e Windows).
              </Typography>
            </Alert>
          )}
          {agents.data?.length ? (
            <Stack spacing={1}>
              {agents.data.map((agent) => (
                <Paper key={agent.id} variant="outlined" sx={{ p: 1.5 }} data-testid="agent">
                  <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    spacing={1}
                    sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
                  >
                    <Box>
                      <Typography sx={{ fontWeight: 500 }}>{agent.name}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {agent.profileIds.map(profileName).join(', ')}
                        {agent.lastSeenAt ? ` · visto em ${formatDateTime(agent.lastSeenAt)}` : ''}
                      </Typography>
                    </Box>
                    <Stack
                      direction="row"
                      spacing={1}
                      sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}
                    >
                      <Chip
                        size="small"
                        color={agent.connected ? 'success' : 'default'}
                        label={
                          agent.status === 'pairing'
                            ? 'Aguardando pareamento'
                            : agent.connected
                              ? 'Conectado'
                              : 'Desconectado'
                        }
                      />
                      {agent.status === 'paired' && agent.printerState !== 'unknown' && (
                        <Chip
                          size="small"
                          color={STATE_COLORS[agent.printerState]}
                          label={`Impressora: ${PRINTER_STATE_LABELS[agent.printerState]}`}
                          data-testid="agent-printer-state"
                        />
                      )}
                      {agent.heldJobs > 0 && (
                        <Chip
                          size="small"
                          color="warning"
                          label={
                            agent.heldJobs === 1
                              ? '1 impressão aguardando'
                              : `${agent.heldJobs} impressões aguardando`
                          }
                        />
                      )}
                      {canEdit && (
                        <Button size="small" color="error" onClick={() => setRevoking(agent)}>
                          Revogar
                        </Button>
                      )}
                    </Stack>
                  </Stack>
                  {agent.printerMessage && agent.printerState !== 'ok' && (
                    <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
                      {agent.printerMessage}
                    </Typography>
                  )}
                </Paper>
              ))}
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Nenhum agente pareado.
            </Typography>
          )}
          {revoke.isError && <Alert severity="error">{errorMessage(revoke.error)}</Alert>}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={revoking !== null}
        title="Revogar agente"
        message={`O agente "${revoking?.name ?? ''}" deixa de imprimir; as impressões que ele não imprimiu voltam para a fila. Para usá-lo de novo, gere outro código.`}
        confirmLabel="Revogar"
        destructive
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) revoke.mutate({ params: { id: revoking.id } });
          setRevoking(null);
        }}
      />
    </Card>
  );
}
