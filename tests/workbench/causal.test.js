// The causal workbench's WebAssembly module computes what the native build
// of the same entry point computes: the same C++
// (book/workbench/causal/causal.cpp and the book's library), compiled once
// by g++ and once by Emscripten.
//
// Runs the chapter's fixture (four tokens), the demo's replaced last token,
// and 255 seeded random token sets of one to five tokens, each with the
// three mask settings (before the softmax, off, after the softmax), through
// both: the native program (workbench_causal_native, stdin/stdout) and the
// published module (causal-module.js) under Node.js.
//
// Equality: the scores are products of the tokens with matrices of 0 and
// 1, summed in order and halved (1 / sqrt(4) is exactly 1/2); those are
// IEEE-754 operations done in the same order by both builds
// (-ffp-contract=off, and WebAssembly has no fused multiply-add), so the
// scores, and the scores the softmax reads (the same, or -inf), must be
// bitwise equal in every case. The weights go through exp, which comes
// from two C libraries (glibc natively, musl in Emscripten), each within
// one unit in the last place, not always rounded alike. So:
//   - every result of the fixture and of the demo's replaced token is
//     bitwise equal;
//   - every other weight within 16 units in the last place of 1 (one unit
//     of difference in one exponential moves a weight by about two units:
//     numerator and sum), and every output within 16 units of the largest
//     token coordinate (an output is a weighted sum of value rows, which
//     are token rows here, W_V = I);
//   - an exact zero above the diagonal is an exact zero in both (the mask
//     before or after the softmax writes it; exp(-inf) is 0 in both).
//
// It also checks, on the module alone, the chapter's numbers worked out
// here by hand, and prefix invariance: with the mask before the softmax,
// the rows of a sequence's first T - 1 tokens are bit for bit the rows of
// those tokens run alone.
//
// usage: node tests/workbench/causal.test.js NATIVE_EXE MODULE_JS
//        (CTest: workbench-causal-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("path");
const { xorshift, bits } = require("./numbers.js");
const { EPS, nativeAnswers, doublesOf, exact, errorOf, doublesAt, loadModule, compareBuilds } = require("./builds.js");

const [nativeExe, modulePath] = process.argv.slice(2).map((p) => p && path.resolve(p));
const MODEL = 4, MAX_TOKENS = 8;
const MASKS = { before: 0, off: 1, after: 2 };
const ULPS = 16;

// The chapter's fixture (its demo's four tokens) and the demo's other
// last token.
const FIXTURE = [1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0];
const OTHER3 = [2, -1, 0.5, 3];

function cases() {
  const list = [
    { name: "fixture", tokens: FIXTURE, exact: true },
    { name: "demo's other token 3", tokens: [...FIXTURE.slice(0, 12), ...OTHER3], exact: true },
  ];
  const random = xorshift(20261223);
  for (let n = 0; n < 255; ++n) {
    const t = 1 + (n % 5);
    const scale = [1, 3, 10][n % 3];
    list.push({ name: `random ${n} (${t} tokens)`, tokens: Array.from({ length: t * MODEL }, () => (random() * 2 - 1) * scale) });
  }
  const out = [];
  for (const c of list) {
    for (const mask of Object.keys(MASKS)) out.push({ ...c, mask });
  }
  return out;
}

const count = (c) => c.tokens.length / MODEL;

function split(values, t) {
  const tt = t * t;
  return {
    scores: values.slice(0, tt),
    fed: values.slice(tt, 2 * tt),
    probs: values.slice(2 * tt, 3 * tt),
    out: values.slice(3 * tt),
  };
}

function runNative(all) {
  const input = all.map((c) => [MASKS[c.mask], count(c), ...c.tokens.map(exact)].join(" "));
  return nativeAnswers(nativeExe, input).map((r, i) => (r.error ? r : split(doublesOf(r.ok), count(all[i]))));
}

async function wasmCausal() {
  const m = await loadModule(modulePath);
  const rows = MAX_TOKENS * MODEL, tt = MAX_TOKENS * MAX_TOKENS;
  const x = m._malloc(8 * rows), s = m._malloc(8 * tt), f = m._malloc(8 * tt), p = m._malloc(8 * tt), o = m._malloc(8 * rows);
  return (c) => {
    const t = count(c);
    m.HEAPF64.set(c.tokens, x / 8);
    if (m._wb_causal(x, t, MASKS[c.mask], s, f, p, o) !== 0) return { error: errorOf(m) };
    return { scores: doublesAt(m, s, t * t), fed: doublesAt(m, f, t * t), probs: doublesAt(m, p, t * t), out: doublesAt(m, o, t * MODEL) };
  };
}

test("the WebAssembly module computes what the native build computes", async () => {
  assert.ok(nativeExe && modulePath, "usage: causal.test.js NATIVE_EXE MODULE_JS");
  compareBuilds({
    all: cases(),
    native: runNative,
    wasm: await wasmCausal(),
    ulps: ULPS,
    label: (c) => `${c.name}, mask ${c.mask}`,
    check: (diff, label, a, b, c) => {
      diff.compare(label, "scores", a.scores, b.scores, { exact: true });
      diff.compare(label, "fed", a.fed, b.fed, { exact: true });
      diff.compare(label, "probs", a.probs, b.probs, { exact: c.exact });
      diff.compare(label, "out", a.out, b.out, { bound: Math.max(1, ...c.tokens.map(Math.abs)), exact: c.exact });
    },
  });
});

test("the module gives the chapter's numbers, worked out by hand", async () => {
  const wasm = await wasmCausal();
  const near = (got, want, what) => assert.ok(Math.abs(got - want) <= 4 * EPS, `${what}: ${got}, expected ${want}`);
  // q_i = x_i, k_j = x_j with features 0<->1 and 2<->3 exchanged; scores
  // q_i . k_j / 2.
  const S = [[0, 0.5, 0.5, 0], [0.5, 0, 0.5, 0], [0.5, 0.5, 2, 0.5], [0, 0, 0.5, 0]];
  const before = wasm({ tokens: FIXTURE, mask: "before" });
  assert.deepEqual(before.scores, S.flat());
  assert.deepEqual(before.fed, S.flat().map((v, n) => (n % 4 > Math.floor(n / 4) ? -Infinity : v)));
  // Row 0 sees only itself; row 1 splits (e^1/2, 1) / (1 + e^1/2).
  assert.deepEqual(before.probs.slice(0, 4), [1, 0, 0, 0]);
  assert.deepEqual(before.out.slice(0, 4), [1, 0, 0, 0]);
  const e = Math.exp(0.5);
  near(before.probs[4], e / (1 + e), "row 1, key 0");
  near(before.probs[5], 1 / (1 + e), "row 1, key 1");
  // Six exact zeros above the diagonal; the same zeros after the softmax.
  const zeros = (p) => p.filter((v, n) => n % 4 > Math.floor(n / 4) && v === 0).length;
  assert.equal(zeros(before.probs), 6);
  const after = wasm({ tokens: FIXTURE, mask: "after" });
  assert.equal(zeros(after.probs), 6);
  // The wrong order: row 0 keeps e^0 / (2 e^0 + 2 e^1/2) of its weight,
  // row 1 half, the last row all of it.
  const sum = (p, i) => p.slice(4 * i, 4 * i + 4).reduce((a, b) => a + b, 0);
  near(sum(after.probs, 0), 1 / (2 + 2 * e), "row sum 0 after the softmax");
  near(sum(after.probs, 1), 0.5, "row sum 1 after the softmax");
  near(sum(after.probs, 3), 1, "row sum 3 after the softmax");
  // Off: nothing is blocked, and the last row is the same in every mode.
  const off = wasm({ tokens: FIXTURE, mask: "off" });
  assert.equal(off.probs.filter((v) => v === 0).length, 0);
  assert.deepEqual(off.probs.slice(12), before.probs.slice(12));
  assert.deepEqual(after.probs.slice(12), before.probs.slice(12));
  // Bad input changes nothing and says why.
  assert.match(wasm({ tokens: [], mask: "before" }).error, /a sequence has 1 to 8 tokens, got 0/);
  assert.match(wasm({ tokens: [1e200, 0, 0, 0, 0, 1e200, 0, 0], mask: "off" }).error, /too large/);
});

test("prefix invariance in the module: a later token never moves an earlier row", async () => {
  const wasm = await wasmCausal();
  const random = xorshift(23);
  let checked = 0;
  for (let n = 0; n < 100; ++n) {
    const t = 2 + (n % 4);
    const tokens = Array.from({ length: t * MODEL }, () => (random() * 2 - 1) * 3);
    const whole = wasm({ tokens, mask: "before" });
    const prefix = wasm({ tokens: tokens.slice(0, (t - 1) * MODEL), mask: "before" });
    for (let i = 0; i < t - 1; ++i) {
      assert.deepEqual(whole.probs.slice(i * t, i * t + t - 1).map(bits), prefix.probs.slice(i * (t - 1), (i + 1) * (t - 1)).map(bits));
      assert.equal(whole.probs[i * t + t - 1], 0);
    }
    assert.deepEqual(whole.out.slice(0, (t - 1) * MODEL).map(bits), prefix.out.map(bits));
    // Off, the last token reaches every row.
    const openWhole = wasm({ tokens, mask: "off" }), openPrefix = wasm({ tokens: tokens.slice(0, (t - 1) * MODEL), mask: "off" });
    assert.notDeepEqual(openWhole.out.slice(0, MODEL), openPrefix.out.slice(0, MODEL));
    ++checked;
  }
  console.log(`${checked} sequences: every earlier row bitwise equal to its prefix's`);
});
