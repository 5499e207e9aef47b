// The tokenizer workbench's WebAssembly module computes what the native
// build of the same entry point computes (book/workbench/bpe/bpe.cpp and
// the book's library, compiled once by g++ and once by Emscripten), on
// the trained checkpoint's tokenizer. Tokenizing is integer work only (no
// floating point), so the two must agree exactly: the same JSON, byte for
// byte. The native program also checks every text against
// Tokenizer::encode.
//
// Independent checks of what the steps say, on every text: the tokens'
// bytes concatenated are the text; each merged token's bytes are its left
// and right parts' bytes; within a word the merges applied have
// increasing ids (the merge applied is the earliest learned of those
// available, and a pair a merge makes has a later merge, if any); and the
// chapter's sentence gets the ids chapter 04's demo printed
// (OUT/04-bpe-tokenizer/tables/sentence.json) when its tokenizer is the
// checkpoint's (both learn 768 merges with train_bpe from the same
// training split).
//
// usage: node tests/workbench/bpe.test.js NATIVE_EXE MODULE_JS BUILD_DIR
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { nativeAnswers, toLine, errorOf, withString, loadModule } = require("./builds.js");

const [nativeExe, modulePath, buildDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
const checkpoint = buildDir && path.join(buildDir, "out", "34-end-to-end", "artifacts", "tinyllm.ckpt");
const SENTENCE = "The kettle sang, and the cat slept.";

const TEXTS = [
  SENTENCE,
  "In the beginning God created the heaven and the earth.",
  "unbelievableness antidisestablishment",
  "Numbers: 12345, 3.14159 and 1000000.",
  "  two spaces,\ttab\nnewline\n\nblank line",
  "Caf\u00e9 na\u00efve \u00fcber \u2014 \u201cquoted\u201d \u{1F600}",
  "",
  "a",
  "the the the the the",
  "And God said, Let there be light: and there was light. ".repeat(20),
];

function runNative(texts) {
  return nativeAnswers(nativeExe, texts.map(toLine), [checkpoint]).map((r) => (r.error ? r : { json: r.ok }));
}

async function wasmEncode() {
  const m = await loadModule(modulePath, checkpoint);
  return (text) =>
    withString(m, text, (p) => (m._wb_encode(p) === 0 ? { json: m.UTF8ToString(m._wb_result()) } : { error: errorOf(m) }));
}

test("the module and the native build take the same steps; the steps are right", async () => {
  assert.ok(nativeExe && modulePath && buildDir, "usage: bpe.test.js NATIVE_EXE MODULE_JS BUILD_DIR");
  const native = runNative(TEXTS);
  const wasm = await wasmEncode();
  let steps = 0, tokens = 0;
  TEXTS.forEach((text, i) => {
    const b = wasm(text);
    assert.equal(b.error, undefined, `text ${i}: ${b.error}`);
    assert.equal(b.json, native[i].json, `text ${i}: the module and the native build differ`);
    const r = JSON.parse(b.json);
    const bytesOf = (id) => r.pieces[String(id)];
    assert.deepEqual(Buffer.from(r.tokens.flatMap(bytesOf)), Buffer.from(text, "utf8"), `text ${i}: tokens do not spell the text`);
    assert.equal(r.bytes, Buffer.byteLength(text, "utf8"));
    r.words.forEach((w) => {
      let last = -1;
      w.steps.forEach((s) => {
        assert.ok(s.id > last, `text ${i}: merge ${s.id} after ${last}`);
        last = s.id;
        assert.deepEqual(bytesOf(s.id), bytesOf(s.left).concat(bytesOf(s.right)));
        assert.ok(s.replaced >= 1);
        ++steps;
      });
    });
    tokens += r.tokens.length;
  });
  // Over 4096 bytes: refused, with the same message in both.
  const long = "x".repeat(5000);
  assert.match(wasm(long).error, /the text has 5000 bytes; the workbench takes at most 4096/);
  assert.equal(runNative([long])[0].error, wasm(long).error);
  console.log(`${TEXTS.length} texts, ${tokens} tokens, ${steps} merges applied: the same JSON in the module and the native build`);
});

test("the chapter's sentence gets the ids the chapter printed", async () => {
  const wasm = await wasmEncode();
  const table = JSON.parse(fs.readFileSync(path.join(buildDir, "out", "04-bpe-tokenizer", "tables", "sentence.json"), "utf8"));
  const printed = table.rows.map((row) => Number(row[1].text)).slice(1, -1); // without BOS and EOS
  assert.deepEqual(JSON.parse(wasm(SENTENCE).json).tokens, printed);
});
