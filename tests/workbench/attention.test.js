// The workbench's WebAssembly module computes what the native build of the
// same entry point computes: the same C++ (book/workbench/attention/attention.cpp
// and the book's library), compiled once by g++ and once by Emscripten.
//
// Runs the chapter's fixture and other tokens, each with all four settings
// of the two switches (causal mask, broken head split), through both: the
// native program (attention_native, stdin/stdout) and the published module
// (attention-module.js) under Node.js.
//
// Equality: every operation of the layer except exp, sin and cos is an
// IEEE-754 addition, multiplication, division or square root done in the
// same order by both builds (-ffp-contract=off, and WebAssembly has no
// fused multiply-add), so it gives the same bits. exp, sin and cos come
// from two different C libraries (glibc natively, musl in Emscripten).
// Both are accurate to within one unit in the last place, yet they do not
// always round the same way: exp differs by one unit for about one
// argument in 1,500. RoPE's sines and cosines here are of the fixed angles
// 0, 1 and 2 (positions 0-2, one pair per head), which agree; exp runs on
// the scores and so depends on the tokens. Hence:
//   - the fixture's results must be bitwise equal (they are);
//   - every other result must be within 16 units in the last place of the
//     largest magnitude it can have: 1 for a probability, and the largest
//     token coordinate for an output (a head's output is a weighted
//     average of value rows, which here are token coordinates). One unit
//     of difference in an exp moves a probability by about two units
//     (numerator and sum), and an output by about as many units of the
//     largest value, so 16 leaves room without hiding a real difference
//     (a wrong mask or head changes results in the first digits).
// Measured with 3,000 random token sets (12,024 runs): 129 of 360,720
// results were not bitwise equal, the largest difference half a unit of
// the bound. The test prints how many of its results are bitwise equal.
//
// usage: node tests/workbench/attention.test.js NATIVE_EXE MODULE_JS
//        (CTest: workbench-attention-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("path");
const { xorshift } = require("./numbers.js");
const { nativeAnswers, doublesOf, exact, errorOf, doublesAt, loadModule, compareBuilds } = require("./builds.js");

const [nativeExe, modulePath] = process.argv.slice(2).map((p) => p && path.resolve(p));
const TOKENS = 3, MODEL = 4, HEADS = 2;
const PROBS = HEADS * TOKENS * TOKENS, ROWS = TOKENS * MODEL;
const ULPS = 16;

// The chapter's fixture: token t is [cos t, -sin t] in head 1's block.
const FIXTURE = [
  1, 0, 1, 0,
  Math.cos(1), -Math.sin(1), 0, 1,
  Math.cos(2), -Math.sin(2), 1, 1,
];

function cases() {
  const list = [
    { name: "fixture", tokens: FIXTURE },
    { name: "zeros", tokens: new Array(ROWS).fill(0) },
    { name: "equal tokens", tokens: [0.5, -1, 2, 0.25, 0.5, -1, 2, 0.25, 0.5, -1, 2, 0.25] },
    { name: "integers", tokens: [1, 2, 3, 4, -4, -3, -2, -1, 0, 5, -5, 1] },
    { name: "large scores", tokens: [30, -20, 25, 10, -30, 15, 40, -35, 12, 28, -18, 33] },
    { name: "tiny", tokens: [1e-9, -2e-9, 3e-9, 1e-12, 5e-10, 0, -1e-9, 2e-9, 0, 1e-9, 1e-9, -3e-9] },
  ];
  const random = xorshift(20250125);
  for (let n = 0; n < 250; ++n) {
    const scale = [1, 3, 10][n % 3];
    list.push({ name: `random ${n}`, tokens: Array.from({ length: ROWS }, () => (random() * 2 - 1) * scale) });
  }
  const out = [];
  for (const c of list) {
    for (const causal of [1, 0]) {
      for (const reuse of [0, 1]) out.push({ ...c, causal, reuse });
    }
  }
  return out;
}

function runNative(all) {
  const input = all.map((c) => [c.causal, c.reuse, ...c.tokens.map(exact)].join(" "));
  return nativeAnswers(nativeExe, input).map((r) => {
    if (r.error) return r;
    const values = doublesOf(r.ok);
    return { probs: values.slice(0, PROBS), concat: values.slice(PROBS) };
  });
}

async function wasmAttention() {
  const m = await loadModule(modulePath);
  const tokensPtr = m._malloc(8 * ROWS), probsPtr = m._malloc(8 * PROBS), concatPtr = m._malloc(8 * ROWS);
  return (c) => {
    m.HEAPF64.set(c.tokens, tokensPtr / 8);
    if (m._wb_attention(tokensPtr, c.causal, c.reuse, probsPtr, concatPtr) !== 0) return { error: errorOf(m) };
    return { probs: doublesAt(m, probsPtr, PROBS), concat: doublesAt(m, concatPtr, ROWS) };
  };
}

test("the WebAssembly module computes what the native build computes", async () => {
  assert.ok(nativeExe && modulePath, "usage: attention.test.js NATIVE_EXE MODULE_JS");
  compareBuilds({
    all: cases(),
    native: runNative,
    wasm: await wasmAttention(),
    ulps: ULPS,
    label: (c) => `${c.name}, mask ${c.causal ? "on" : "off"}, head split ${c.reuse ? "broken" : "correct"}`,
    check: (diff, label, a, b, c) => {
      const fixture = c.name === "fixture";
      diff.compare(label, "probs", a.probs, b.probs, { exact: fixture });
      diff.compare(label, "concat", a.concat, b.concat, { bound: Math.max(1, ...c.tokens.map(Math.abs)), exact: fixture });
    },
  });
});

test("the fixture gives the chapter's numbers in the module", async () => {
  const wasm = await wasmAttention();
  const r = wasm({ tokens: FIXTURE, causal: 1, reuse: 0 });
  assert.equal(r.error, undefined);
  const round = (xs) => xs.map((x) => Number(x.toFixed(6)) + 0);
  // Head 1 (first block): uniform over the visible keys.
  assert.deepEqual(round(r.probs.slice(0, 9)), [1, 0, 0, 0.5, 0.5, 0, 0.333333, 0.333333, 0.333333]);
  // Head 2, query 1: [0.213809, 0.786191, 0]; nothing above the diagonal.
  assert.deepEqual(round(r.probs.slice(12, 15)), [0.213809, 0.786191, 0]);
  for (const h of [0, 1]) {
    for (const q of [0, 1, 2]) {
      for (let k = q + 1; k < 3; ++k) assert.equal(r.probs[h * 9 + q * 3 + k], 0);
    }
  }
  // The concatenated row at position 1.
  assert.deepEqual(round(r.concat.slice(4, 8)), [0.770151, -0.420735, 0.213809, 0.786191]);
});
