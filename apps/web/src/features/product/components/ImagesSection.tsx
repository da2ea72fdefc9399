import type { Product } from '@balcao/core/product';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import DeleteIcon from '@mui/icons-material/Delete';
import StarIcon from '@mui/icons-material/Star';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Feedback } from '../../../components/FeedbackSnackbar.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useDeleteImage, useReorderImages, useUploadImage } from '../api.ts';

const MAX_BYTES = 5 * 1024 * 1024;

/** Product pictures: upload (JPEG, PNG or WebP up to 5 MB), delete, choose the cover (the first). */
export function ImagesSection({
  product,
  canWrite,
  onFeedback,
}: {
  product: Product;
  canWrite: boolean;
  onFeedback: (f: Feedback) => void;
}) {
  const upload = useUploadImage();
  const remove = useDeleteImage();
  const reorder = useReorderImages();
  const busy = upload.isPending || remove.isPending || reorder.isPending;

  const send = async (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      if (file.size > MAX_BYTES) {
        onFeedback({
          severity: 'error',
          title: `Erro ao enviar ${file.name}`,
          message: 'A imagem deve ter no máximo 5 MB',
        });
        continue;
      }
      try {
        await upload.mutateAsync({ params: { id: product.id }, file });
        onFeedback({ severity: 'success', title: 'Imagem adicionada' });
      } catch (error) {
        onFeedback({ severity: 'error', title: `Erro ao enviar ${file.name}`, message: errorMessage(error) });
      }
    }
  };

  const makeCover = (imageId: number) =>
    reorder.mutate(
      {
        params: { id: product.id },
        body: { imageIds: [imageId, ...product.images.map((i) => i.id).filter((id) => id !== imageId)] },
      },
      {
        onError: (error) =>
          onFeedback({ severity: 'error', title: 'Erro ao definir a capa', message: errorMessage(error) }),
      },
    );

  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-label="Imagens">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1 }}>
        <Box>
          <Typography component="h2" variant="h6">
            Imagens
          </Typography>
          <Typography variant="body2" color="text.secondary">
            JPEG, PNG ou WebP até 5 MB. A primeira é a capa.
          </Typography>
        </Box>
        {canWrite && (
          <Button
            component="label"
            variant="outlined"
            startIcon={<AddPhotoAlternateIcon />}
            disabled={busy || product.images.length >= 10}
          >
            Adicionar imagem
            <Box
              component="input"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              aria-label="Arquivo de imagem"
              data-testid="image-file"
              sx={{ display: 'none' }}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
                void send(e.target.files);
                e.target.value = '';
              }}
            />
          </Button>
        )}
      </Stack>
      <Box sx={{ height: 4, mb: 1 }}>{busy && <LinearProgress aria-label="Enviando" />}</Box>
      {product.images.length === 0 ? (
        <Typography color="text.secondary">Nenhuma imagem.</Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))' }}>
          {product.images.map((image, index) => (
            <Box
              key={image.id}
              sx={{
                position: 'relative',
                border: 1,
                borderColor: 'divider',
                borderRadius: 2,
                overflow: 'hidden',
              }}
              data-testid="product-image"
            >
              <Box
                component="img"
                src={image.thumbUrl}
                alt={`Imagem ${index + 1} de ${product.name}`}
                loading="lazy"
                sx={{
                  width: '100%',
                  aspectRatio: '1',
                  objectFit: 'contain',
                  display: 'block',
                  bgcolor: 'action.hover',
                }}
              />
              {index === 0 && (
                <Chip
                  label="Capa"
                  size="small"
                  color="primary"
                  sx={{ position: 'absolute', top: 6, left: 6 }}
                />
              )}
              {canWrite && (
                <Stack direction="row" sx={{ justifyContent: 'flex-end', p: 0.5 }}>
                  {index > 0 && (
                    <Tooltip title="Usar como capa">
                      <IconButton
                        size="small"
                        onClick={() => makeCover(image.id)}
                        disabled={busy}
                        aria-label={`Usar imagem ${index + 1} como capa`}
                      >
                        <StarIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title="Excluir">
                    <IconButton
                      size="small"
                      onClick={() =>
                        remove.mutate(
                          { params: { id: product.id, imageId: image.id } },
                          {
                            onError: (error) =>
                              onFeedback({
                                severity: 'error',
                                title: 'Erro ao excluir a imagem',
                                message: errorMessage(error),
                              }),
                          },
                        )
                      }
                      disabled={busy}
                      aria-label={`Excluir imagem ${index + 1}`}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Stack>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
