// The generating workbench writes what `tinyllm generate` writes: the
// WebAssembly module (generate-module.js, as the page runs it), the native
// build of the same entry point (workbench_generate_native), the reader's
// program (build/tinyllm) and the chapter's demo (its published samples)
// give the same text for the same checkpoint, prompt, seed and settings.
//
// Why the same text, and not only close numbers: every operation of the
// model except exp, log, sin, cos and sqrt is an IEEE-754 operation done
// in the same order by both builds (-ffp-contract=off; WebAssembly has no
// fused multiply-add; sqrt is correctly rounded in both). exp, log, sin and
// cos come from two C libraries (glibc natively, musl in Emscripten) and
// may differ in the last bit for a few arguments, so a logit may differ in
// its last bits. A token changes only if the draw's uniform number falls
// within such a difference of a boundary of the cumulative distribution,
// about one chance in 10^15 a draw, or if two logits tie for greedy
// decoding within it. So the texts must be equal, and a difference is a
// real fault (a setting passed wrongly, the cache rebuilt differently, the
// prompt cut differently).
//
// The cases cover the chapter's six samples, greedy decoding, top-k and
// top-p, a continuation long enough to fill the key/value cache (which is
// then rebuilt from the last half of the positions), a prompt longer than
// the context (cut to its last ids), an empty prompt, text outside ASCII,
// and settings the entry point refuses.
//
// usage: node tests/workbench/generate.test.js NATIVE_EXE MODULE_JS BUILD_DIR
//        (CTest: workbench-generate-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { nativeAnswers, fromLine, errorOf, withString, loadModule, refusedAlike } = require("./builds.js");

const [nativeExe, modulePath, buildDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
const checkpoint = buildDir && path.join(buildDir, "out", "34-end-to-end", "artifacts", "tinyllm.ckpt");
const tinyllm = buildDir && path.join(buildDir, "tinyllm");

const CHAPTER = { tokens: 40, temperature: 0.7, topK: 40, topP: 1 };
const PROMPTS = ["And God said", "In the beginning", "The LORD is my"];

function cases() {
  const list = [];
  // The demo's samples: prompt i with seed 34 + i, at 0.7 and 1.0.
  for (const [t, key] of [[0.7, "words.t07"], [1.0, "words.t10"]]) {
    PROMPTS.forEach((prompt, i) =>
      list.push({ name: `${key}.sample${i}`, prompt, ...CHAPTER, temperature: t, seed: 34 + i, sample: `${key}.sample${i}` }));
  }
  const more = [
    { name: "greedy", prompt: "And God said", tokens: 60, temperature: 0, topK: 0, topP: 1, seed: 1 },
    { name: "greedy, another seed", prompt: "And God said", tokens: 60, temperature: 0, topK: 0, topP: 1, seed: 99 },
    { name: "tinyllm's defaults", prompt: "In the beginning", tokens: 60, temperature: 0.8, topK: 40, topP: 1, seed: 1 },
    { name: "top-p", prompt: "The LORD", tokens: 50, temperature: 1, topK: 0, topP: 0.9, seed: 7 },
    { name: "top-k 1", prompt: "And", tokens: 30, temperature: 1.3, topK: 1, topP: 1, seed: 3 },
    { name: "hot", prompt: "And he said", tokens: 50, temperature: 1.5, topK: 0, topP: 1, seed: 11 },
    { name: "fills the cache", prompt: "And it came to pass", tokens: 300, temperature: 0.9, topK: 40, topP: 1, seed: 5 },
    { name: "a prompt longer than the context", prompt: "And God said, Let there be light: and there was light. ".repeat(12),
      tokens: 20, temperature: 0.7, topK: 40, topP: 1, seed: 2 },
    { name: "an empty prompt", prompt: "", tokens: 30, temperature: 0.8, topK: 40, topP: 1, seed: 4 },
    { name: "outside ASCII", prompt: "Caf\u00e9 \u00fcber \u201cquoted\u201d", tokens: 30, temperature: 0.8, topK: 40, topP: 1, seed: 6 },
    { name: "temperature too high", prompt: "x", tokens: 5, temperature: 101, topK: 0, topP: 1, seed: 1, refused: /temperature must be a number from 0 to 100/ },
    { name: "top-p of zero", prompt: "x", tokens: 5, temperature: 1, topK: 0, topP: 0, seed: 1, refused: /top-p must be a number above 0/ },
    { name: "no tokens", prompt: "x", tokens: 0, temperature: 1, topK: 0, topP: 1, seed: 1, refused: /token count must be a whole number from 1/ },
  ];
  return list.concat(more);
}

function runNative(all) {
  const input = all.map((c) => `${c.tokens} ${c.seed} ${c.temperature} ${c.topK} ${c.topP}\t${c.prompt}`);
  return nativeAnswers(nativeExe, input, [checkpoint]).map((r) => {
    if (r.error) return r;
    const space = r.ok.indexOf(" ");
    return { drawn: Number(r.ok.slice(0, space)), text: fromLine(r.ok.slice(space + 1)) };
  });
}

async function wasmGenerate() {
  const m = await loadModule(modulePath, checkpoint);
  return (c) => {
    const r = withString(m, c.prompt, (p) => m._wb_start(p, c.tokens, c.seed, c.temperature, c.topK, c.topP));
    if (r !== 0) return { error: errorOf(m) };
    let more;
    while ((more = m._wb_step()) === 1);
    if (more < 0) return { error: errorOf(m) };
    return { drawn: m._wb_drawn(), text: m.UTF8ToString(m._wb_text()) };
  };
}

function tinyllmText(c) {
  const r = spawnSync(tinyllm, ["generate", "--checkpoint", checkpoint, "--prompt", c.prompt,
    "--tokens", String(c.tokens), "--temperature", String(c.temperature), "--top-k", String(c.topK),
    "--top-p", String(c.topP), "--seed", String(c.seed)], { encoding: "utf8" });
  assert.equal(r.status, 0, `tinyllm generate failed for ${c.name}:\n${r.stderr}`);
  return r.stdout.replace(/\n$/, "");
}

test("the module, the native build, tinyllm and the demo write the same text", async () => {
  assert.ok(nativeExe && modulePath && buildDir, "usage: generate.test.js NATIVE_EXE MODULE_JS BUILD_DIR");
  const values = JSON.parse(fs.readFileSync(path.join(buildDir, "out", "34-end-to-end", "values.json"), "utf8"));
  const all = cases();
  const native = runNative(all);
  const wasm = await wasmGenerate();
  let tokens = 0;
  all.forEach((c, i) => {
    const a = native[i], b = wasm(c);
    if (refusedAlike(c, a, b)) return;
    assert.equal(b.text, a.text, `${c.name}: the module and the native build differ`);
    assert.equal(b.drawn, a.drawn, `${c.name}: tokens drawn`);
    assert.equal(tinyllmText(c), a.text, `${c.name}: tinyllm generate prints another text`);
    if (c.sample) assert.equal(a.text.replace(/\n/g, "/"), values[c.sample].text, `${c.name}: the demo printed another sample`);
    tokens += a.drawn;
  });
  const long = native[all.findIndex((c) => c.name === "fills the cache")];
  assert.ok(long.drawn > 200, `the long case drew only ${long.drawn} tokens; it must fill the cache`);
  console.log(`${all.length} cases, ${tokens} tokens drawn: the same text in the module, the native build and tinyllm`);
});
