// Runs the lab benchmark (bench.html → bench-worker.mjs → lab.mjs) in Debian's Chromium through
// Playwright (from tests/e2e), serving the repository on a local port.
//
//   node crates/lm/bench/browser-bench.mjs [--quick] [--l] [--port 4400]
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join, normalize, extname } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1]) || 4400;
const require = createRequire(join(root, 'tests', 'e2e', 'package.json'));
const { chromium } = require('playwright');

const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer(async (req, res) => {
  const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  if (!path.startsWith(root)) return res.writeHead(403).end();
  try {
    const body = await readFile(path);
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}).listen(port, '127.0.0.1');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  const query = [args.includes('--quick') && 'quick', args.includes('--l') && 'l'].filter(Boolean).join('&');
  await page.goto(`http://127.0.0.1:${port}/crates/lm/bench/bench.html?${query}`);
  await page.waitForFunction(() => document.title === 'done' || document.title === 'error', null, { timeout: 600_000 });
  console.log(await page.locator('#log').textContent());
  console.log(await page.evaluate(() => navigator.userAgent));
} finally {
  await browser.close();
  server.close();
}
