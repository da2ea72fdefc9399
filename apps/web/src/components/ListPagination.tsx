import TablePagination from '@mui/material/TablePagination';

const n = (value: number) => value.toLocaleString('pt-BR');

/** Server-side pagination of a list (DESIGN.md list contract), in Portuguese. */
export function ListPagination({
  total,
  page,
  pageSize,
  onPage,
  onPageSize,
  sizes = [10, 20, 50, 100],
  capped = false,
}: {
  /** Exact, or a cap when `capped` ("1–20 de mais de 1.000"). */
  total: number;
  /** 1-based, as the API counts. */
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
  /** The page sizes offered. */
  sizes?: number[];
  /** The answer counted only up to `total` (a broad search): there are more. */
  capped?: boolean;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.max(0, page - 1)}
      rowsPerPage={pageSize}
      rowsPerPageOptions={sizes}
      onPageChange={(_, p) => onPage(p + 1)}
      onRowsPerPageChange={(e) => onPageSize(Number(e.target.value))}
      labelRowsPerPage="Itens por página"
      // Phones: page arrows and "1–20 de 100" only.
      sx={{
        '& .MuiTablePagination-selectLabel, & .MuiTablePagination-input': {
          display: { xs: 'none', sm: 'flex' },
        },
      }}
      labelDisplayedRows={({ from, to, count }) =>
        `${n(from)}–${n(to)} de ${capped ? 'mais de ' : ''}${n(count)}`
      }
      getItemAriaLabel={(type) =>
        ({
          first: 'Primeira página',
          last: 'Última página',
          next: 'Próxima página',
          previous: 'Página anterior',
        })[type]
      }
    />
  );
}
