import { menuFor } from '@balcao/core/routes';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { useSession } from '../auth/session.tsx';

/** Home: a greeting and a shortcut to every area the user type may open. */
export default function HomePage() {
  const { user, settingsChecklist } = useSession();
  if (!user) return null;
  const groups = menuFor(user.userType.id, settingsChecklist);
  return (
    <>
      <Typography component="h1" variant="h5" gutterBottom>
        Olá, {user.name.split(' ')[0]}!
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {user.client.name} · {user.userType.name}
      </Typography>
      <Grid container spacing={2}>
        {groups.map(({ group, items }) => (
          <Grid key={group} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card>
              <CardActionArea component={Link} to={items[0].link}>
                <CardContent>
                  <Typography component="h2" variant="h6">
                    {group}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {items.map((item) => item.menuLabel ?? item.title).join(' · ')}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
