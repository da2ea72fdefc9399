const dateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'short',
});

/** An API timestamp in the shop's time zone: "05/01/2026, 09:05". */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
