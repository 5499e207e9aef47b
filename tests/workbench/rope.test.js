// The RoPE workbench's WebAssembly module computes what the native build
// of the same entry point computes: the same C++
// (book/workbench/rope/rope.cpp and the book's library), compiled once by
// g++ and once by Emscripten.
//
// Runs the chapter's query and key, the positions of the demo's table and
// seeded random queries, keys and positions, with the key rotated and
// not, through both: the native program (workbench_rope_native,
// stdin/stdout) and the published module (rope-module.js) under Node.js.
//
// Equality: Rope::apply multiplies each pair by a cosine and a sine from
// its tables and adds; the score is a dot product summed in index order.
// All of that is IEEE-754 arithmetic done in the same order by both builds
// (-ffp-contract=off, and WebAssembly has no fused multiply-add), and the
// frequencies 10000^(-2k/8) come out the same (k/4 is exact, and pow
// rounds these four alike). What differs is cos and sin, from glibc
// natively and from musl in Emscripten: both are faithful (within one
// unit in the last place of the exact value), so their results differ by
// at most one unit, and they do differ for a few hundred of the 2048
// positions times four pairs. So the test
//   - reads both builds' tables in full (the vector 1 0 1 0 1 0 1 0
//     rotated for position p gives cos and sin of p * theta_k exactly:
//     1 * c - 0 * s = c) and requires every entry within one unit;
//   - requires every result of a case whose two positions have the same
//     table rows in both builds to be bitwise equal (nothing else
//     differs); this includes the chapter's fixture, m = 1 and n = 0;
//   - bounds every other result. One unit in c or s (|c|, |s| <= 1) moves
//     a rotated feature a c - b s by at most eps (|a| + |b|) before
//     rounding and by less than another eps (|a| + |b|) through the two
//     products and the subtraction, so within 4 eps |x| (|x| the vector's
//     length, |a| + |b| <= sqrt(2) |x|), allowed 16 eps |x|. The score
//     sums eight products of such features: at most 4 eps |q| |k| from
//     each of the two vectors (Cauchy-Schwarz over the moved features),
//     eps |q| |k| from the roundings of the eight products and 8 eps
//     |q| |k| from those of the additions, which may now fall
//     differently: 17 eps |q| |k| in all, allowed 64 eps |q| |k|. A real
//     difference (a wrong sign, a wrong pair, a wrong position) moves a
//     score in its first digits.
// The test prints how many results are bitwise equal and the largest
// difference found (when written: 496 of the 16,384 table entries
// differ, at 445 positions; the largest differences are about one eps
// |x| in a feature and one eps |q| |k| in a score).
//
// usage: node tests/workbench/rope.test.js NATIVE_EXE MODULE_JS
//        (CTest: workbench-rope-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("path");
const { xorshift, bits } = require("./numbers.js");
const { EPS, nativeAnswers, doublesOf, exact, errorOf, doublesAt, loadModule } = require("./builds.js");

const [nativeExe, modulePath] = process.argv.slice(2).map((p) => p && path.resolve(p));
const DIM = 8, PAIRS = DIM / 2, CAPACITY = 2048;
const FEATURE_ULPS = 16, SCORE_ULPS = 64;

// The demo's query and key (chapters/24-rope.md, relative()).
const Q = [0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 1.0, -0.5];
const K = [1.0, 0.5, -1.5, 0.25, 2.0, -1.0, 0.5, 0.75];
const UNIT = [1, 0, 1, 0, 1, 0, 1, 0];

function cases() {
  const list = [{ name: "fixture", m: 1, n: 0, rotate: 1, q: Q, k: K }];
  // The rows of the demo's table (distances 1 and 5 from n = 0, 3, 100,
  // 1000), the same positions (a score equal to q . k), the key after
  // the query, the last position the tables hold.
  for (const d of [1, 5]) {
    for (const n of [0, 3, 100, 1000]) list.push({ name: `demo row m=${n + d} n=${n}`, m: n + d, n, rotate: 1, q: Q, k: K });
  }
  list.push({ name: "same position", m: 7, n: 7, rotate: 1, q: Q, k: Q });
  list.push({ name: "key after the query", m: 0, n: 100, rotate: 1, q: Q, k: K });
  list.push({ name: "last position", m: CAPACITY - 1, n: CAPACITY - 1, rotate: 1, q: Q, k: K });
  list.push({ name: "key unrotated", m: 1, n: 0, rotate: 0, q: Q, k: K });
  const random = xorshift(20261224);
  for (let i = 0; i < 300; ++i) {
    const scale = [1, 10, 1e-3][i % 3];
    const feature = () => (random() * 2 - 1) * scale;
    list.push({
      name: `random ${i}`,
      m: Math.floor(random() * CAPACITY),
      n: Math.floor(random() * CAPACITY),
      rotate: i % 4 === 3 ? 0 : 1,
      q: Array.from({ length: DIM }, feature),
      k: Array.from({ length: DIM }, feature),
    });
  }
  // Refused: past the tables, a negative position, a score that overflows.
  list.push({ name: "past the tables", m: CAPACITY, n: 0, rotate: 1, q: Q, k: K });
  list.push({ name: "negative position", m: 0, n: -1, rotate: 1, q: Q, k: K });
  list.push({ name: "overflow", m: 3, n: 0, rotate: 1, q: Q.map((v) => v * 1e200), k: K.map((v) => v * 1e200) });
  return list;
}

// The tables, read through the entry point: position p's rotation of UNIT.
const tableCases = () =>
  Array.from({ length: CAPACITY }, (_, p) => ({ name: `tables at ${p}`, m: p, n: p, rotate: 1, q: UNIT, k: UNIT }));

function runNative(all) {
  const input = all.map((c) => [c.m, c.n, c.rotate, ...c.q.map(exact), ...c.k.map(exact)].join(" "));
  return nativeAnswers(nativeExe, input).map((r) => {
    if (r.error) return r;
    const v = doublesOf(r.ok);
    return { rotated: v.slice(0, 2 * DIM), scores: v.slice(2 * DIM) };
  });
}

async function wasmRope() {
  const m = await loadModule(modulePath);
  const qPtr = m._malloc(8 * DIM), kPtr = m._malloc(8 * DIM);
  const outPtr = m._malloc(8 * 2 * DIM), scoresPtr = m._malloc(8 * 2);
  return (c) => {
    m.HEAPF64.set(c.q, qPtr / 8);
    m.HEAPF64.set(c.k, kPtr / 8);
    if (m._wb_rope(qPtr, kPtr, c.m, c.n, c.rotate, outPtr, scoresPtr) !== 0) return { error: errorOf(m) };
    return { rotated: doublesAt(m, outPtr, 2 * DIM), scores: doublesAt(m, scoresPtr, 2) };
  };
}

const ulpsApart = (x, y) => {
  const a = new BigInt64Array(new Float64Array([x]).buffer)[0], b = new BigInt64Array(new Float64Array([y]).buffer)[0];
  return Number(a > b ? a - b : b - a); // same sign: the count of doubles between
};
const length = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

// Both builds' tables; which positions' rows differ.
async function tables(wasm) {
  const all = tableCases();
  const native = runNative(all);
  const differ = new Set(), problems = [];
  let entries = 0, differing = 0;
  all.forEach((c, p) => {
    const a = native[p].rotated.slice(0, DIM), b = wasm(c).rotated.slice(0, DIM);
    a.forEach((x, j) => {
      ++entries;
      if (bits(x) === bits(b[j])) return;
      ++differing;
      differ.add(p);
      const u = ulpsApart(x, b[j]);
      if (!(u <= 1) || Math.sign(x) !== Math.sign(b[j])) {
        problems.push(`${j % 2 ? "sin" : "cos"}(${p} theta_${j >> 1}): native ${x}, wasm ${b[j]} (${u} units apart)`);
      }
    });
  });
  return { differ, problems, entries, differing };
}

test("the WebAssembly module computes what the native build computes", async () => {
  assert.ok(nativeExe && modulePath, "usage: rope.test.js NATIVE_EXE MODULE_JS");
  const wasm = await wasmRope();
  const t = await tables(wasm);
  console.log(`tables: ${t.entries} cosines and sines, ${t.differing} differ by one unit in the last place ` +
              `(at ${t.differ.size} of ${CAPACITY} positions)`);
  assert.deepEqual(t.problems, [], t.problems.join("\n"));

  const all = cases();
  const native = runNative(all);
  const problems = [];
  let values = 0, sameBits = 0, mustBeEqual = 0, worstFeature = 0, worstScore = 0;
  all.forEach((c, i) => {
    const label = `${c.name} (m ${c.m}, n ${c.n}, key ${c.rotate ? "rotated" : "unrotated"})`;
    const a = native[i], b = wasm(c);
    if (a.error || b.error) {
      if (a.error !== b.error) problems.push(`${label}: native '${a.error ?? "ok"}', wasm '${b.error ?? "ok"}'`);
      return;
    }
    const exact = !t.differ.has(c.m) && !(c.rotate && t.differ.has(c.n));
    if (c.name === "fixture") assert.ok(exact, "the fixture's positions 1 and 0 have equal tables in both builds");
    const bounds = [...Array(DIM).fill(FEATURE_ULPS * EPS * length(c.q)), ...Array(DIM).fill(FEATURE_ULPS * EPS * length(c.k)),
                    SCORE_ULPS * EPS * length(c.q) * length(c.k), SCORE_ULPS * EPS * length(c.q) * length(c.k)];
    [...a.rotated, ...a.scores].forEach((x, j) => {
      const y = [...b.rotated, ...b.scores][j];
      ++values;
      if (exact) ++mustBeEqual;
      if (bits(x) === bits(y)) {
        ++sameBits;
        return;
      }
      const units = Math.abs(x - y) / bounds[j]; // a fraction of the allowance
      if (j < 2 * DIM) worstFeature = Math.max(worstFeature, units * FEATURE_ULPS);
      else worstScore = Math.max(worstScore, units * SCORE_ULPS);
      if (exact) problems.push(`${label}: result ${j} native ${x}, wasm ${y} (equal tables: must be bitwise equal)`);
      else if (!(units <= 1)) problems.push(`${label}: result ${j} native ${x}, wasm ${y} (${(units * 100).toFixed(0)}% of the bound)`);
    });
  });
  console.log(`${all.length} cases, ${values} results: ${sameBits} bitwise equal (${mustBeEqual} required to be); ` +
              `largest difference ${worstFeature.toFixed(2)} eps |x| in a feature (allowed ${FEATURE_ULPS}), ` +
              `${worstScore.toFixed(2)} eps |q| |k| in a score (allowed ${SCORE_ULPS})`);
  assert.deepEqual(problems, [], problems.join("\n"));
});

test("the module gives the chapter's numbers and its refusals", async () => {
  const wasm = await wasmRope();
  const r = wasm({ m: 1, n: 0, rotate: 1, q: Q, k: K });
  // q . k by hand: 0.5 - 0.5 - 0.375 + 0.5 - 1.5 - 1.5 + 0.5 - 0.375.
  assert.equal(r.scores[0], -2.75);
  // The rotated score is q^T R_(n-m) k: here each pair of k turned by
  // -theta_j = -10^-j and dotted with q's pair, computed independently.
  let expected = 0;
  for (let j = 0; j < PAIRS; ++j) {
    const a = -1 * 10 ** -j, c = Math.cos(a), s = Math.sin(a);
    const [k0, k1] = [K[2 * j], K[2 * j + 1]];
    expected += Q[2 * j] * (c * k0 - s * k1) + Q[2 * j + 1] * (s * k0 + c * k1);
  }
  assert.ok(Math.abs(r.scores[1] - expected) < 1e-14, `score ${r.scores[1]}, expected ${expected}`);
  assert.equal(r.scores[1].toFixed(6), "-1.414396");
  // A rotation keeps the length (up to rounding).
  assert.ok(Math.abs(length(r.rotated.slice(0, DIM)) - length(Q)) < 1e-15);
  // At positions 0 and 0 nothing turns: cos 0 = 1 and sin 0 = 0 exactly.
  const zero = wasm({ m: 0, n: 0, rotate: 1, q: Q, k: K });
  assert.deepEqual(zero.rotated, [...Q, ...K]);
  assert.equal(zero.scores[1], -2.75);
  // The key left unrotated: the score follows the query's position alone.
  const at0 = wasm({ m: 1, n: 0, rotate: 0, q: Q, k: K }), at500 = wasm({ m: 1, n: 500, rotate: 0, q: Q, k: K });
  assert.equal(bits(at0.scores[1]), bits(at500.scores[1]));
  assert.notEqual(at0.scores[1].toFixed(6), wasm({ m: 4, n: 3, rotate: 0, q: Q, k: K }).scores[1].toFixed(6));
  // Refused, with the library's message where the library refuses.
  assert.equal(wasm({ m: 2048, n: 0, rotate: 1, q: Q, k: K }).error,
               "rope: positions offset 2048 + T 1 = 2049 exceed capacity 2048");
  assert.match(wasm({ m: 0, n: -3, rotate: 1, q: Q, k: K }).error, /a position is a whole number from 0, got -3/);
  assert.match(wasm({ m: 0, n: 0, rotate: 1, q: [Infinity, ...Q.slice(1)], k: K }).error, /finite number/);
  assert.match(wasm({ m: 0, n: 0, rotate: 1, q: Q.map((v) => v * 1e200), k: K.map((v) => v * 1e200) }).error, /too large/);
});
