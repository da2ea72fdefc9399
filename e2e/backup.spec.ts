import AxeBuilder from '@axe-core/playwright';
import { UserType } from '@balcao/core/userTypes';
import { expect, test } from '@playwright/test';
import { loginAs } from './helpers';

test.describe('Backups (issue 37)', () => {
  test('the Administrador takes a backup now, sees it verified and downloads it', async ({ page }) => {
    await loginAs(page, UserType.ADMIN);
    await page.goto('/dashboard/settings/backup');
    await expect(page.getByRole('heading', { name: 'Como restaurar' })).toBeVisible();
    await expect(page.getByText('npm run restore -- ARQUIVO --force')).toBeVisible();

    await page.getByRole('button', { name: 'Fazer backup agora' }).click();
    await expect(page.getByText('Backup concluído')).toBeVisible({ timeout: 60_000 });
    const table = page.getByRole('table', { name: 'Backups' });
    const row = table.getByRole('row').nth(1);
    await expect(row).toContainText('Manual');
    await expect(row).toContainText('Concluído');
    await expect(row).toContainText(/Sim \(\d+ linhas\)/);
    await expect(row).toContainText(/\d+(,\d)? (KB|MB)/);

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Baixar' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^balcao-\d{8}t\d{6}z-manual\.tar\.gz$/);

    await page.screenshot({ path: test.info().outputPath('backup-1280.png'), fullPage: true });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('button', { name: 'Fazer backup agora' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('backup-390.png'), fullPage: true });
  });

  test('the nightly hour is set on Configurações > Sistema', async ({ page }) => {
    await loginAs(page, UserType.ADMIN);
    await page.goto('/dashboard/settings/system');
    const section = page.getByRole('region', { name: 'Backup automático' });
    await expect(section.getByLabel('Fazer backup todas as noites')).toBeChecked();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: test.info().outputPath('backup-schedule-1280.png') });
    await section.getByLabel('Horário').click();
    await page.getByRole('option', { name: '02:00' }).click();
    await section.getByRole('button', { name: 'Salvar horário' }).click();
    await expect(page.getByText('Horário do backup salvo')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('region', { name: 'Backup automático' }).getByLabel('Horário')).toHaveText(
      '02:00',
    );
    // Back to the default for other runs.
    await page.getByRole('region', { name: 'Backup automático' }).getByLabel('Horário').click();
    await page.getByRole('option', { name: '03:00' }).click();
    await page
      .getByRole('region', { name: 'Backup automático' })
      .getByRole('button', { name: 'Salvar horário' })
      .click();
    await expect(page.getByText('Horário do backup salvo')).toBeVisible();
  });

  test('a seller has no Backups page', async ({ page }) => {
    await loginAs(page, UserType.SELLER);
    await page.goto('/dashboard/settings/backup');
    // The route guard sends them home: the page never shows.
    await expect(page).not.toHaveURL(/\/dashboard\/settings\/backup/);
    await expect(page.getByRole('button', { name: 'Fazer backup agora' })).toHaveCount(0);
  });
});
