#!/usr/bin/env node
// Keeps the pages' subresource integrity true when the build rewrites a file Trunk wrote
// (tools/postbuild.sh minifies main.css after Trunk has put its hash into index.html, and the
// prerender has copied that page into every lesson's):
//
//   node tools/rehash.mjs --hash FILE...            prints FILE=sha384-… for each, before the change
//   node tools/rehash.mjs --replace DIR FILE=HASH…   after it: every page under DIR that names FILE
//                                                    with HASH gets the file's new hash
//
// It fails when a page names a file with any other hash: a stale hash makes the browser refuse
// the file, and a page without its stylesheet must not ship.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const sri = (file) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
const pages = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? pages(join(dir, e.name)) : e.name.endsWith('.html') ? [join(dir, e.name)] : []);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const [mode, ...rest] = process.argv.slice(2);
if (mode === '--hash') {
  console.log(rest.map((f) => `${f}=${sri(f)}`).join(' '));
} else if (mode === '--replace') {
  const [dir, ...pairs] = rest;
  const files = dir ? pages(dir) : [];
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=sha384-');
    const [file, old] = [pair.slice(0, at), pair.slice(at + 1)];
    const now = sri(file);
    // `href="…/main-….css" integrity="sha384-…"`, as Trunk writes it.
    const named = new RegExp(`(${escape(basename(file))}"\\s+integrity=")(sha384-[A-Za-z0-9+/=]+)"`, 'g');
    let seen = 0;
    for (const page of files) {
      const html = readFileSync(page, 'utf8');
      let wrong = null;
      const next = html.replace(named, (_, head, hash) => {
        seen += 1;
        if (hash !== old && hash !== now) wrong = hash;
        return `${head}${now}"`;
      });
      if (wrong) {
        console.error(`rehash: ${page} names ${basename(file)} with ${wrong}, neither its old hash nor its new one`);
        process.exit(1);
      }
      if (next !== html) writeFileSync(page, next);
    }
    console.error(`rehash: ${basename(file)}: ${seen} page${seen === 1 ? '' : 's'} now name ${now.slice(0, 20)}…`);
  }
} else {
  console.error('usage: rehash.mjs --hash FILE... | --replace DIR FILE=HASH...');
  process.exit(2);
}
