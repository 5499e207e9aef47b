#!/usr/bin/env node
// Watch mode for authors: rebuilds when a chapter (or the frame) is saved,
// prints the check results, and reloads the open page.
//
//   node tools/watch.js [--port 8000]
//
// Serves build/book on http://127.0.0.1:PORT/ and adds a tiny script to
// every page that reloads it after a successful rebuild. Uses only Node's
// standard library.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { spawn } = require('child_process');

const root = path.resolve(__dirname, '..');
const bookDir = path.join(root, 'build', 'book');
const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 8000;

const clients = new Set();
let building = false;
let again = false;

function notify() {
  for (const res of clients) res.write('data: reload\n\n');
}

function build(reason) {
  if (building) {
    again = true;
    return;
  }
  building = true;
  const started = Date.now();
  process.stdout.write(`\n[watch] ${reason}: rebuilding...\n`);
  const child = spawn('cmake', ['--build', 'build'], { cwd: root });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  child.on('close', (code) => {
    const seconds = ((Date.now() - started) / 1000).toFixed(2);
    const problems = output.split('\n').filter((l) =>
      /^(chapters|snippets|book)\/.*:\d*:? /.test(l) || /error:/.test(l));
    if (code === 0) {
      process.stdout.write(`[watch] ok in ${seconds} s; the page reloads\n`);
      notify();
    } else {
      process.stdout.write(`[watch] failed in ${seconds} s; ` +
                           'the book keeps its last good version\n');
      process.stdout.write((problems.length ? problems.join('\n')
                                            : output) + '\n');
    }
    building = false;
    if (again) {
      again = false;
      build('more changes');
    }
  });
}

const types = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css',
  '.js': 'text/javascript', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf',
};
const reloader =
  '<script>new EventSource("/__events").onmessage = () => location.reload();' +
  '</script>';

http.createServer((req, res) => {
  if (req.url === '/__events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream',
                         'Cache-Control': 'no-cache' });
    clients.add(res);
    req.on('close', () => clients.delete(res));
    return;
  }
  let rel = decodeURIComponent(req.url.split('?')[0]);
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.join(bookDir, path.normalize(rel));
  if (!file.startsWith(bookDir)) {
    res.writeHead(403).end();
    return;
  }
  fs.readFile(file, (err, data) => {
    if (err) {
      res.writeHead(404).end('not found');
      return;
    }
    const type = types[path.extname(file)] || 'application/octet-stream';
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    if (type.startsWith('text/html')) {
      res.end(data.toString().replace('</body>', reloader + '</body>'));
    } else {
      res.end(data);
    }
  });
}).listen(port, '127.0.0.1', () => {
  process.stdout.write(`[watch] serving the book at http://127.0.0.1:${port}/\n`);
});

let timer = null;
for (const dir of ['chapters', 'book']) {
  fs.watch(path.join(root, dir), (event, name) => {
    if (!name || name.startsWith('.') || name.endsWith('~')) return;
    clearTimeout(timer);
    timer = setTimeout(() => build(`${dir}/${name} changed`), 50);
  });
}
build('start');
