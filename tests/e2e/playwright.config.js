// End-to-end tests against the release build, served from dist/ by a plain static server
// (python3 -m http.server): at the root on :4173, and under /some/sub/path/ on :4174.
// tools/test.sh builds both before running these.
const { defineConfig } = require('@playwright/test');

const root = require('path').resolve(__dirname, '../..');

module.exports = defineConfig({
  testDir: './specs',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173',
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
      command: `python3 -m http.server 4173 --bind 127.0.0.1 --directory ${root}/dist`,
      url: 'http://127.0.0.1:4173/',
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
    },
    {
      command: `python3 -m http.server 4174 --bind 127.0.0.1 --directory ${root}/target/e2e-sub`,
      url: 'http://127.0.0.1:4174/some/sub/path/',
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
    },
  ],
});
