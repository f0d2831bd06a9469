#!/usr/bin/env node
// Keeps the pages' subresource integrity true when the build rewrites a file Trunk wrote
// (tools/postbuild.sh minifies main.css after Trunk has put its hash into index.html, and the
// prerender has copied that page into every lesson's):
//
//   node tools/rehash.mjs DIR FILE...   every page under DIR that names FILE with an integrity
//                                       hash gets the file's hash as it is now
//
// It fails when a tag naming the file still carries another hash afterwards (a form it does not
// know): a stale hash makes the browser refuse the file, and a page without its stylesheet must
// not ship.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const sri = (file) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
const pages = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? pages(join(dir, e.name)) : e.name.endsWith('.html') ? [join(dir, e.name)] : []);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const [dir, ...files] = process.argv.slice(2);
if (!dir || files.length === 0) {
  console.error('usage: rehash.mjs DIR FILE...');
  process.exit(2);
}
const html = pages(dir);
for (const file of files) {
  const name = escape(basename(file)), now = sri(file);
  // The tags that name the file; in each, its integrity attribute (Trunk writes it after href).
  const tags = new RegExp(`<[^>]*${name}"[^>]*>`, 'g');
  let rewritten = 0;
  for (const page of html) {
    const text = readFileSync(page, 'utf8');
    const next = text.replace(tags, (tag) => tag.replace(/integrity="sha384-[A-Za-z0-9+/=]+"/, () => {
      rewritten += 1;
      return `integrity="${now}"`;
    }));
    const stale = (next.match(tags) ?? []).find((tag) => /integrity="/.test(tag) && !tag.includes(`integrity="${now}"`));
    if (stale) {
      console.error(`rehash: ${page} names ${basename(file)} with an integrity it cannot rewrite: ${stale}`);
      process.exit(1);
    }
    if (next !== text) writeFileSync(page, next);
  }
  console.error(`rehash: ${basename(file)}: ${rewritten} page tag${rewritten === 1 ? '' : 's'} now name ${now.slice(0, 20)}…`);
}
