// The softmax workbench's WebAssembly module computes what the native
// build of the same entry point computes: the same C++
// (book/workbench/softmax/softmax.cpp and the book's library), compiled
// once by g++ and once by Emscripten.
//
// Runs the chapter's rows and seeded random rows at several temperatures
// through both: the native program (workbench_softmax_native,
// stdin/stdout) and the published module (softmax-module.js) under
// Node.js.
//
// Equality: the softmax is a division by the temperature, a subtraction,
// exp, a sum in order, a division and (for the log-softmax) a log. All but
// exp and log are IEEE-754 operations done in the same order by both
// builds (-ffp-contract=off, and WebAssembly has no fused multiply-add).
// exp and log come from two C libraries (glibc natively, musl in
// Emscripten), each within one unit in the last place, not always
// rounded alike. So:
//   - the chapter's row 1 2 3 at T = 1 must be bitwise equal;
//   - every other probability and every value of the formula as written
//     within 16 units in the last place of 1 (one unit of difference in
//     one exponential moves a probability by about two units), and a
//     log-probability within 16 units of the largest magnitude among it
//     and the scaled logits (log's own rounding, plus the shift);
//   - an infinity or NaN of the formula as written the same in both.
//
// usage: node tests/workbench/softmax.test.js NATIVE_EXE MODULE_JS
//        (CTest: workbench-softmax-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("path");
const { xorshift, bits } = require("./numbers.js");
const { EPS, nativeAnswers, doublesOf, exact, errorOf, doublesAt, loadModule, compareBuilds } = require("./builds.js");

const [nativeExe, modulePath] = process.argv.slice(2).map((p) => p && path.resolve(p));
const ULPS = 16;

function cases() {
  const list = [
    { name: "fixture", t: 1, x: [1, 2, 3] },
    { name: "shifted by 1000", t: 1, x: [1001, 1002, 1003] },
    { name: "very negative", t: 1, x: [-1000, -999, -998] },
    { name: "far apart", t: 1, x: [0, -800] },
    { name: "one logit", t: 1, x: [5] },
    { name: "cold", t: 0.01, x: [1, 2, 3] },
    { name: "too cold for the formula", t: 0.004, x: [1, 2, 3] },
    { name: "hot", t: 100, x: [1, 2, 3, 4] },
    { name: "eight", t: 1, x: [1, 2, 3, 4, 5, 6, 7, 8] },
  ];
  const random = xorshift(20261202);
  for (let i = 0; i < 400; ++i) {
    const n = 1 + (i % 4);
    const scale = [1, 10, 300, 1000][i % 4];
    const t = [1, 0.5, 2, 0.1, 7][i % 5];
    list.push({ name: `random ${i}`, t, x: Array.from({ length: n }, () => (random() * 2 - 1) * scale) });
  }
  return list;
}

function runNative(all) {
  const input = all.map((c) => [exact(c.t), c.x.length, ...c.x.map(exact)].join(" "));
  return nativeAnswers(nativeExe, input).map((r, i) => {
    if (r.error) return r;
    const v = doublesOf(r.ok), n = all[i].x.length;
    return { probs: v.slice(0, n), logProbs: v.slice(n, 2 * n), naive: v.slice(2 * n) };
  });
}

async function wasmSoftmax() {
  const m = await loadModule(modulePath);
  const max = 8;
  const xPtr = m._malloc(8 * max), pPtr = m._malloc(8 * max), lpPtr = m._malloc(8 * max), wPtr = m._malloc(8 * max);
  return (c) => {
    const n = c.x.length;
    m.HEAPF64.set(c.x, xPtr / 8);
    if (m._wb_softmax(xPtr, n, c.t, pPtr, lpPtr, wPtr) !== 0) return { error: errorOf(m) };
    return { probs: doublesAt(m, pPtr, n), logProbs: doublesAt(m, lpPtr, n), naive: doublesAt(m, wPtr, n) };
  };
}

test("the WebAssembly module computes what the native build computes", async () => {
  assert.ok(nativeExe && modulePath, "usage: softmax.test.js NATIVE_EXE MODULE_JS");
  compareBuilds({
    all: cases(),
    native: runNative,
    wasm: await wasmSoftmax(),
    ulps: ULPS,
    label: (c) => `${c.name} (T = ${c.t})`,
    check: (diff, label, a, b, c) => {
      const largest = Math.max(1, ...c.x.map((v) => Math.abs(v / c.t)));
      const fixture = c.name === "fixture";
      diff.compare(label, "probs", a.probs, b.probs, { exact: fixture });
      diff.compare(label, "log-probs", a.logProbs, b.logProbs, { bound: (v) => Math.max(largest, Math.abs(v)), exact: fixture });
      diff.compare(label, "as written", a.naive, b.naive, { exact: fixture });
    },
  });
});

test("the module gives the chapter's numbers and its failures", async () => {
  const wasm = await wasmSoftmax();
  // 1 2 3: e^(k-3) / (e^-2 + e^-1 + 1), computed here independently.
  const z = Math.exp(-2) + Math.exp(-1) + 1;
  const expected = [Math.exp(-2) / z, Math.exp(-1) / z, 1 / z];
  const r = wasm({ t: 1, x: [1, 2, 3] });
  r.probs.forEach((p, k) => assert.ok(Math.abs(p - expected[k]) < 4 * EPS, `p[${k}] = ${p}, expected ${expected[k]}`));
  assert.deepEqual(r.probs.map((p) => p.toFixed(6)), ["0.090031", "0.244728", "0.665241"]);
  // A shift changes no probability, bit for bit; the formula as written
  // overflows at 1001 (e^1001 > DBL_MAX, e^709.78 being the limit).
  const shifted = wasm({ t: 1, x: [1001, 1002, 1003] });
  assert.deepEqual(shifted.probs.map(bits), r.probs.map(bits));
  assert.ok(shifted.naive.every(Number.isNaN), `as written: ${shifted.naive}`);
  // At T = 0.004 the scaled logits reach 750: the formula overflows, the
  // library does not; at T = 0.01 (300 at most) both agree.
  assert.ok(wasm({ t: 0.004, x: [1, 2, 3] }).naive.some((v) => !Number.isFinite(v)));
  assert.deepEqual(wasm({ t: 0.01, x: [1, 2, 3] }).naive.map((v) => v.toFixed(6)), ["0.000000", "0.000000", "1.000000"]);
  // Bad input changes nothing and says why.
  assert.match(wasm({ t: 0, x: [1, 2] }).error, /temperature must be a positive number/);
  assert.match(wasm({ t: 1, x: [] }).error, /a row has 1 to 8 logits, got 0/);
});
