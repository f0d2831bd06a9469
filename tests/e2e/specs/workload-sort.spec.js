// Online or offline: sorting workloads by keyboard and by dragging, with feedback and a kept score.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');

const WORKLOADS = {
  'code-completion': 'online',
  chat: 'online',
  'voice-agent': 'online',
  'back-catalogue': 'offline',
  'document-embedding': 'offline',
  'training-corpus': 'offline',
  'whisper-dictation': 'online',
  'whisper-batch': 'offline',
};

async function openSorter(page) {
  await page.goto('/about-your-app/');
  await appReady(page);
  const card = page.locator('[data-widget="workload-sort"]');
  await card.scrollIntoViewIfNeeded();
  return card;
}

async function placeByKeyboard(page, card, id, side) {
  await card.getByTestId(`workload-${id}`).focus();
  await page.keyboard.press('Enter');
  await expect(card.getByTestId(`workload-${id}`)).toHaveAttribute('aria-pressed', 'true');
  await card.getByTestId(`sort-to-${side}`).focus();
  await page.keyboard.press('Enter');
}

test('sorts every workload by keyboard, with a reason each time, and keeps the score', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openSorter(page);
  await expect(card.getByTestId('sort-score')).toHaveText(/^0 of 8 on the right side/);
  for (const [id, side] of Object.entries(WORKLOADS)) {
    await placeByKeyboard(page, card, id, side);
    const zone = card.getByTestId(`sort-zone-${side}`);
    await expect(zone.getByTestId(`workload-${id}`)).toBeVisible();
    await expect(zone.getByTestId(`reason-${id}`)).toHaveText(/^Right: /);
    await expect(card.getByTestId('sort-feedback')).toContainText('Right:');
  }
  await expect(card.getByTestId('sort-score')).toHaveText('8 of 8 on the right side (8 right at the first try)');
  await expect(card.getByTestId('sort-status')).toContainText('All sorted');
  await expect(card.getByTestId('sort-tray').locator('.sort-card')).toHaveCount(0);
  // The score survives a reload.
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('sort-score')).toHaveText('8 of 8 on the right side (8 right at the first try)');
  expect(errors).toEqual([]);
});

test('a wrong side says why, the card can move, and the first try is remembered', async ({ page }) => {
  const card = await openSorter(page);
  await placeByKeyboard(page, card, 'whisper-batch', 'online');
  const reason = card.getByTestId('reason-whisper-batch');
  await expect(reason).toHaveText(/^Not quite: this one is offline, optimize throughput\./);
  await expect(reason).toContainText('throughput-tuned');
  await expect(card.getByTestId('sort-score')).toHaveText('0 of 8 on the right side (0 right at the first try)');
  await placeByKeyboard(page, card, 'whisper-batch', 'offline');
  await expect(card.getByTestId('sort-zone-offline').getByTestId('reason-whisper-batch')).toHaveText(/^Right: /);
  await expect(card.getByTestId('sort-score')).toHaveText('1 of 8 on the right side (0 right at the first try)');
  await card.getByTestId('sort-reset').click();
  await expect(card.getByTestId('sort-score')).toHaveText(/^0 of 8/);
  await expect(card.getByTestId('sort-tray').locator('.sort-card')).toHaveCount(8);
});

test('choosing a side with nothing selected asks for a workload first', async ({ page }) => {
  const card = await openSorter(page);
  await card.getByTestId('sort-to-offline').click();
  await expect(card.getByRole('alert').filter({ hasText: 'Choose a workload first' })).toBeVisible();
  await expect(card.getByTestId('sort-score')).toHaveText(/^0 of 8/);
});

test('workloads can be dragged onto a side', async ({ page }) => {
  // Tall enough that the whole card is on screen: no scrolling between pick-up and drop.
  await page.setViewportSize({ width: 1280, height: 2000 });
  const card = await openSorter(page);
  await card.getByTestId('workload-voice-agent').dragTo(card.getByTestId('sort-zone-online'));
  await expect(card.getByTestId('sort-zone-online').getByTestId('workload-voice-agent')).toBeVisible();
  await expect(card.getByTestId('reason-voice-agent')).toHaveText(/^Right: online/);
  await card.getByTestId('workload-training-corpus').dragTo(card.getByTestId('sort-zone-online'));
  await expect(card.getByTestId('reason-training-corpus')).toHaveText(/^Not quite/);
  await expect(card.getByTestId('sort-score')).toHaveText(/^1 of 8/);
});
