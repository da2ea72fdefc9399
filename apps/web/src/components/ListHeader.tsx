import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/**
 * A list page's title (h1) with its buttons on the right: `children` (import, export), then the add
 * button (`add`, given only when the user may write; a plus unless it names its `icon`). `roomy`: more
 * room below and between (the period lists: sales, budgets).
 */
export function ListHeader({
  title,
  add,
  roomy = false,
  children,
}: {
  title: string;
  add?: { to: string; label: string; icon?: ReactNode };
  roomy?: boolean;
  children?: ReactNode;
}) {
  return (
    <Stack
      direction="row"
      sx={{
        alignItems: 'center',
        justifyContent: 'space-between',
        mb: roomy ? 3 : 2,
        gap: roomy ? 2 : 1,
        flexWrap: 'wrap',
      }}
    >
      <Typography component="h1" variant="h5">
        {title}
      </Typography>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        {children}
        {add && (
          <Button component={RouterLink} to={add.to} variant="contained" startIcon={add.icon ?? <AddIcon />}>
            {add.label}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
