// End-to-end tests against the release build, served from dist/ by a plain static server
// (python3 -m http.server): at the root on :4173, and under /some/sub/path/ on :4174.
// tools/test.sh builds both before running these.
const { defineConfig } = require('@playwright/test');

const root = require('path').resolve(__dirname, '../..');
// Ports can be moved (E2E_PORT, E2E_SUB_PORT) so that two checkouts can test at once.
const port = Number(process.env.E2E_PORT || 4173);
const subPort = Number(process.env.E2E_SUB_PORT || port + 1);
process.env.E2E_ORIGIN = `http://127.0.0.1:${port}`;
process.env.E2E_SUB_ORIGIN = `http://127.0.0.1:${subPort}`;

module.exports = defineConfig({
  testDir: './specs',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Debian's Chromium; Playwright never downloads a browser here.
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: `python3 -m http.server ${port} --bind 127.0.0.1 --directory ${root}/dist`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
    },
    {
      command: `python3 -m http.server ${subPort} --bind 127.0.0.1 --directory ${root}/target/e2e-sub`,
      url: `http://127.0.0.1:${subPort}/some/sub/path/`,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
    },
  ],
});
