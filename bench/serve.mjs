// A static server for the benchmark: serves a built site from 127.0.0.1 the way a static host
// with compression does (brotli when the browser asks for it, gzip otherwise), so that load
// timings and Lighthouse see the bytes a reader's browser would receive.
//   import { serve } from './serve.mjs';  const { origin, close } = await serve('dist');
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync, readdirSync } from 'node:fs';
import { join, extname, normalize } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.webmanifest', '.svg', '.txt']);

/** Starts serving `dist`; resolves to its origin and a close function. */
export function serve(dist, port = 0) {
  const cache = new Map();
  const encoded = (file, encoding) => {
    const key = `${encoding}:${file}`;
    if (!cache.has(key)) {
      const body = readFileSync(file);
      cache.set(key, encoding === 'br'
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        : encoding === 'gzip' ? gzipSync(body, { level: 9 }) : body);
    }
    return cache.get(key);
  };
  // Compress everything up front: brotli at quality 11 takes seconds for a large wasm, and
  // that must not be timed as part of a page load.
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  for (const file of walk(dist)) {
    if (COMPRESSIBLE.has(extname(file))) { encoded(file, 'br'); encoded(file, 'gzip'); }
  }
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(dist, path));
    if (!file.startsWith(normalize(dist))) { res.writeHead(403).end(); return; }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    let status = 200;
    if (!existsSync(file)) { status = 404; file = join(dist, '404.html'); }
    if (!existsSync(file)) { res.writeHead(404).end('not found'); return; }
    const ext = extname(file);
    const accepts = String(req.headers['accept-encoding'] || '');
    const encoding = !COMPRESSIBLE.has(ext) ? null : /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    const body = encoded(file, encoding);
    const headers = { 'content-type': TYPES[ext] || 'application/octet-stream', 'content-length': body.length, 'cache-control': 'no-cache', vary: 'accept-encoding' };
    if (encoding) headers['content-encoding'] = encoding;
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ origin, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

// Run on its own: node bench/serve.mjs dist 8090
if (import.meta.url === `file://${process.argv[1]}`) {
  const { origin } = await serve(process.argv[2] || 'dist', Number(process.argv[3] || 0));
  console.log(`serving ${process.argv[2] || 'dist'} at ${origin}/`);
}
