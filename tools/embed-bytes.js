// Writes a file's bytes into a script the book's pages can load from
// file:// (where a page may not fetch): `window.NAME = "BASE64";`.
// Used by the build for the checkpoint the generating workbench reads
// (book/workbench/generate/generate.cmake). Writes through OUT.tmp and a
// rename, so that OUT is the old script or the new one, never a part.
//
// usage: node tools/embed-bytes.js IN OUT NAME
"use strict";

const fs = require("fs");

const [input, output, name] = process.argv.slice(2);
if (!input || !output || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name || "")) {
  console.error("usage: node tools/embed-bytes.js IN OUT NAME (NAME a JavaScript identifier)");
  process.exit(2);
}
let bytes;
try {
  bytes = fs.readFileSync(input);
} catch (e) {
  console.error(`embed-bytes: cannot read ${input}: ${e.message}`);
  process.exit(1);
}
if (bytes.length === 0) {
  console.error(`embed-bytes: ${input} is empty`);
  process.exit(1);
}
const text = `// ${bytes.length} bytes, base64; written by tools/embed-bytes.js.\n` +
             `window.${name} = "${bytes.toString("base64")}";\n`;
fs.writeFileSync(output + ".tmp", text);
fs.renameSync(output + ".tmp", output);
