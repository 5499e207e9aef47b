// The sampling workbench computes what the library computes: the
// WebAssembly module (sampling-module.js, as the page runs it) and the
// native build of the same entry point (workbench_sampling_native) give
// the same next-token distributions and draws, and both agree with checks
// that do not use the entry point: the chapter's demo (its published
// values.json, for the chapter's prompt read as the demo reads it), the
// definitions of the three settings recomputed here from the raw
// distribution, the book's generator and inverse-CDF draw written again
// here, and `tinyllm generate` (its first token, for a prompt read after
// BOS).
//
// Module against native. Every operation of the model except exp, log,
// sin, cos and sqrt is an IEEE-754 operation done in the same order by
// both builds (-ffp-contract=off; WebAssembly has no fused multiply-add;
// sqrt is correctly rounded in both). exp, log, sin and cos come from two
// C libraries (glibc natively, musl in Emscripten) and may differ in the
// last bit for a few arguments, so a logit may differ in its last bits,
// and a probability with it. So the probabilities are compared with a
// relative bound, and everything discrete (the ranking, how many tokens
// survive, the drawn token) must be equal: it could change only if a
// probability, a running mass or the draw's uniform number sat within such
// a difference of a boundary, about one chance in 10^13 per comparison.
// The bound: a probability is exp(z - m) / S; a logit z that differs by a
// few units in the last place of |z| <= 64 moves z - m by at most about
// 1e-13, so exp(z - m) and S by a relative 1e-13, and the probability by
// 2e-13; at T = 0.05 the exponent is divided by T, 20 times that. The
// test allows 1e-11 relative (and 1e-300 absolute, for underflow), and
// prints the largest difference it saw.
//
// Native against the demo: the same library built by the same compiler
// with the same flags as the demo, on the same checkpoint's parameters
// and tokenizer, so the values must be equal to the last bit.
//
// usage: node tests/workbench/sampling.test.js NATIVE_EXE MODULE_JS BUILD_DIR
//        (CTest: workbench-sampling-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { nativeLines, answer, errorOf, doublesAt, withString, loadModule, refusedAlike } = require("./builds.js");

const [nativeExe, modulePath, buildDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
const checkpoint = buildDir && path.join(buildDir, "out", "34-end-to-end", "artifacts", "tinyllm.ckpt");
const tinyllm = buildDir && path.join(buildDir, "tinyllm");
const EPS = 2 ** -52;

// The settings of the chapter's table (demo-32-table), on its prompt.
const TABLE = [
  ["greedy", 0, 0, 1], ["t05", 0.5, 0, 1], ["t1", 1, 0, 1], ["t15", 1.5, 0, 1],
  ["k5", 1, 5, 1], ["k50", 1, 50, 1], ["p05", 1, 0, 0.5], ["p09", 1, 0, 0.9],
  ["book", 0.8, 40, 1],
];

function cases() {
  const list = TABLE.map(([key, t, k, p]) =>
    ({ name: `the chapter's ${key}`, key, prompt: "And God said", t, k, p, seed: 1, appends: 0, bos: 0 }));
  const more = [
    { name: "after BOS", prompt: "And God said", t: 1, k: 0, p: 1, seed: 1 },
    { name: "after BOS, T = 0.8, top-k 40", prompt: "And God said", t: 0.8, k: 40, p: 1, seed: 34 },
    { name: "after BOS, top-p", prompt: "The LORD is my", t: 1, k: 0, p: 0.9, seed: 7 },
    { name: "after BOS, hot", prompt: "In the beginning", t: 1.5, k: 0, p: 1, seed: 11 },
    { name: "after BOS, greedy", prompt: "And he said", t: 0, k: 0, p: 1, seed: 5 },
    { name: "after BOS, top-k 1", prompt: "And", t: 1.3, k: 1, p: 1, seed: 3 },
    { name: "after BOS, both cuts", prompt: "And it came to pass", t: 0.9, k: 20, p: 0.8, seed: 2 },
    { name: "after BOS, an empty prompt", prompt: "", t: 1, k: 0, p: 1, seed: 4 },
    { name: "cold", prompt: "And God said", t: 0.05, k: 0, p: 1, seed: 9, bos: 0 },
    { name: "a tiny top-p", prompt: "Thus saith", t: 1, k: 0, p: 1e-9, seed: 6, bos: 0 },
    { name: "top-k above V", prompt: "Thus saith", t: 1, k: 5000, p: 1, seed: 8, bos: 0 },
    { name: "outside ASCII", prompt: "Caf\u00e9 \u00fcber \u201cquoted\u201d", t: 1, k: 0, p: 1, seed: 12 },
    { name: "a prompt longer than the context", prompt: "And God said, Let there be light: and there was light. ".repeat(12),
      t: 0.8, k: 40, p: 1, seed: 13, bos: 0 },
    { name: "the same, after BOS", prompt: "And God said, Let there be light: and there was light. ".repeat(12),
      t: 0.8, k: 40, p: 1, seed: 13 },
    { name: "five tokens appended", prompt: "And God said", t: 0.8, k: 40, p: 1, seed: 21, appends: 5, bos: 0 },
    { name: "five tokens appended after BOS", prompt: "And God said", t: 0.8, k: 40, p: 1, seed: 22, appends: 5 },
    { name: "appended past the context", prompt: "And God said, Let there be light: and there was light. ".repeat(5),
      t: 0.8, k: 40, p: 1, seed: 23, appends: 3 },
    { name: "an empty prompt without BOS", prompt: "", t: 1, k: 0, p: 1, seed: 1, bos: 0, refused: /empty prompt/ },
    { name: "temperature too high", prompt: "x", t: 101, k: 0, p: 1, seed: 1, refused: /temperature must be a number from 0 to 100/ },
    { name: "top-p of zero", prompt: "x", t: 1, k: 0, p: 0, seed: 1, refused: /top-p must be a number above 0/ },
    { name: "a negative seed", prompt: "x", t: 1, k: 0, p: 1, seed: -1, refused: /seed must be a whole number/ },
  ];
  return list.concat(more.map((c) => ({ appends: 0, bos: 1, ...c })));
}

const hexOf = (s) => Buffer.from(s, "utf8").toString("hex") || "-";

function runNative(all) {
  const input = all.map((c) => `${c.t} ${c.k} ${c.p} ${c.seed} ${c.appends} ${c.bos}\t${c.prompt}`);
  const lines = nativeLines(nativeExe, input, [checkpoint]);
  const out = [];
  for (let i = 0; i < lines.length; ++i) {
    const r = answer(lines[i]);
    if (r.error) { out.push(r); continue; }
    const f = r.ok.split(" ");
    const nums = (line, tag) => {
      const parts = line.split(" ");
      assert.equal(parts[0], tag);
      return parts.slice(1).map(Number);
    };
    out.push({
      V: Number(f[0]), read: Number(f[1]), cut: Number(f[2]), drawn: Number(f[3]), kept: Number(f[4]),
      mass: Number(f[5]), entropy: Number(f[6]), rawEntropy: Number(f[7]), text: f[8], drawnHex: f[9],
      raw: nums(lines[++i], "raw"), dist: nums(lines[++i], "dist"), ranked: nums(lines[++i], "ranked"),
    });
  }
  assert.equal(out.length, all.length, "the native program answered a different number of cases");
  return out;
}

async function wasmSampling() {
  const m = await loadModule(modulePath, checkpoint);
  return (c) => {
    let r = withString(m, c.prompt, (p) => m._wb_read(p, c.bos));
    if (r === 0) r = m._wb_sample(c.t, c.k, c.p, c.seed);
    for (let a = 0; r === 0 && a < c.appends; ++a) {
      r = m._wb_append();
      if (r === 0) r = m._wb_sample(c.t, c.k, c.p, c.seed);
    }
    if (r !== 0) return { error: errorOf(m) };
    const V = m._wb_vocab(), ranked = [];
    for (let i = 0; i < V; ++i) ranked.push(m._wb_ranked(i));
    // The text's bytes, read from memory (UTF8ToString would replace a
    // token cut inside a character).
    const t = m._wb_text();
    let end = t;
    while (m.HEAPU8[end] !== 0) ++end;
    return {
      V, read: m._wb_read_ids(), cut: m._wb_was_cut(), drawn: m._wb_drawn(), kept: m._wb_kept(),
      mass: m._wb_kept_mass(), entropy: m._wb_entropy(), rawEntropy: m._wb_raw_entropy(),
      text: Buffer.from(m.HEAPU8.subarray(t, end)).toString("hex") || "-",
      drawnHex: m.UTF8ToString(m._wb_token_hex(m._wb_drawn())) || "-",
      raw: doublesAt(m, m._wb_raw(), V), dist: doublesAt(m, m._wb_dist(), V), ranked,
    };
  };
}

// The book's generator (llm::Rng, chapter parameters-init), written again.
function uniform(seed) {
  const M = (1n << 64n) - 1n;
  let state = (BigInt(seed) + 0x9e3779b97f4a7c15n) & M;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
  z = z ^ (z >> 31n);
  return Number(z >> 11n) * 2 ** -53;
}

// The inverse-CDF draw of the chapter's formula, over the ids in order.
function draw(q, u) {
  const total = q.reduce((a, b) => a + b, 0);
  let running = 0, last = 0;
  for (let v = 0; v < q.length; ++v) if (q[v] > 0) last = v;
  for (let v = 0; v < q.length; ++v) {
    running += q[v];
    if (u * total < running) return v;
  }
  return last;
}

// The checks of one case that need neither build's other half.
function independent(c, r, values) {
  const V = r.V;
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  assert.ok(Math.abs(sum(r.raw) - 1) <= V * EPS, `${c.name}: the raw probabilities add up to ${sum(r.raw)}`);
  assert.ok(Math.abs(sum(r.dist) - 1) <= V * EPS, `${c.name}: the sampling probabilities add up to ${sum(r.dist)}`);
  // The ranking: decreasing raw probability, equal ones by id.
  for (let i = 1; i < V; ++i) {
    const a = r.ranked[i - 1], b = r.ranked[i];
    assert.ok(r.raw[a] > r.raw[b] || (r.raw[a] === r.raw[b] && a < b), `${c.name}: rank ${i}`);
  }
  const nonzero = r.dist.filter((x) => x > 0).length;
  assert.equal(r.kept, nonzero, `${c.name}: tokens kept`);
  let mass = 0;
  for (const v of r.ranked) if (r.dist[v] > 0) mass += r.raw[v];
  assert.equal(r.mass, mass, `${c.name}: the kept tokens' raw mass`);
  let h = 0;
  for (const x of r.dist) if (x > 0) h -= x * Math.log(x);
  assert.ok(Math.abs(r.entropy - h) <= 1e-12 * Math.max(1, h), `${c.name}: entropy ${r.entropy}, recomputed ${h}`);
  // The draw: the book's generator and the inverse CDF, written again.
  assert.equal(r.drawn, draw(r.dist, uniform(c.seed)), `${c.name}: the draw`);
  assert.ok(r.dist[r.drawn] > 0, `${c.name}: drew a token of probability 0`);
  const kEff = c.k === 0 ? V : Math.min(c.k, V);
  if (c.t === 0) {
    // Greedy: all the mass on the most probable token.
    assert.equal(r.dist[r.ranked[0]], 1, `${c.name}: greedy`);
    assert.equal(nonzero, 1, `${c.name}: greedy keeps one token`);
  } else if (c.t === 1 && c.p === 1 && kEff === V) {
    // No setting: the raw distribution itself, to the bit.
    assert.deepEqual(r.dist, r.raw, `${c.name}: T = 1 without cuts is the raw distribution`);
  } else if (c.t === 1) {
    // The cuts on the raw distribution, by their definitions: top-k's
    // prefix, then the fewest whose share of its mass reaches p.
    let prefix = 0;
    for (let i = 0; i < kEff; ++i) prefix += r.raw[r.ranked[i]];
    let n = kEff, running = 0;
    if (c.p < 1) {
      for (let i = 0; i < kEff; ++i) {
        running += r.raw[r.ranked[i]];
        if (running / prefix >= c.p) { n = i + 1; break; }
      }
    }
    assert.equal(nonzero, n, `${c.name}: tokens kept by the cuts`);
    for (let i = 0; i < V; ++i) {
      const v = r.ranked[i];
      assert.equal(r.dist[v] > 0, i < n, `${c.name}: rank ${i} is ${i < n ? "kept" : "cut"}`);
    }
    if (c.p < 1 && kEff === V) assert.ok(r.mass >= c.p * (1 - 1e-15), `${c.name}: top-p kept a mass below p`);
  } else if (c.p === 1) {
    // Temperature: q_v is p_v^(1/T) renormalised, over the top-k kept.
    const kept = r.ranked.slice(0, kEff);
    const powered = kept.map((v) => Math.pow(r.raw[v], 1 / c.t));
    const total = sum(powered);
    kept.forEach((v, i) => {
      const want = powered[i] / total;
      assert.ok(Math.abs(r.dist[v] - want) <= 1e-9 * want + 1e-300,
        `${c.name}: token ${v} has ${r.dist[v]}, p^(1/T) renormalised is ${want}`);
    });
    if (c.t >= 0.5) assert.equal(nonzero, kEff, `${c.name}: top-k keeps exactly k`);
  }
  if (c.key && values) {
    // The chapter's demo, on the same prompt and model.
    const value = (k) => values[`${c.key}.${k}`];
    assert.equal(r.kept, Number(value("left").value), `${c.name}: tokens left`);
    assert.equal(r.entropy, Number(value("entropy").value), `${c.name}: entropy`);
    // The demo's top token: the first largest q (the lower id among equals).
    let top = 0;
    for (let v = 1; v < V; ++v) if (r.dist[v] > r.dist[top]) top = v;
    assert.equal(top, r.ranked[0], `${c.name}: the most probable token is the raw ranking's first`);
    assert.equal(r.dist[top], Number(value("p1").value), `${c.name}: the top probability`);
    if (c.t === 0) assert.equal(r.drawnHex, hexOf(value("top1").text), `${c.name}: greedy draws the demo's top token`);
  }
}

function tinyllmFirst(c) {
  const r = spawnSync(tinyllm, ["generate", "--checkpoint", checkpoint, "--prompt", c.prompt, "--tokens", "1",
    "--temperature", String(c.t), "--top-k", String(c.k), "--top-p", String(c.p), "--seed", String(c.seed)]);
  assert.equal(r.status, 0, `tinyllm generate failed for ${c.name}:\n${r.stderr}`);
  return r.stdout.toString("hex");
}

test("the module equals the native build, and both equal the library's definitions and the demo", async () => {
  assert.ok(nativeExe && modulePath && buildDir, "usage: sampling.test.js NATIVE_EXE MODULE_JS BUILD_DIR");
  const values = JSON.parse(fs.readFileSync(path.join(buildDir, "out", "32-sampling", "values.json"), "utf8"));
  const all = cases();
  const native = runNative(all);
  const wasm = await wasmSampling();
  let compared = 0, bitwise = 0, worst = 0, generated = 0;
  all.forEach((c, i) => {
    const a = native[i], b = wasm(c);
    if (refusedAlike(c, a, b)) return;
    assert.equal(b.error, undefined, `${c.name}: the module refused it: ${b.error}`);
    for (const k of ["V", "read", "cut", "drawn", "kept", "text", "drawnHex"]) {
      assert.equal(b[k], a[k], `${c.name}: ${k} differs between the module and the native build`);
    }
    assert.deepEqual(b.ranked, a.ranked, `${c.name}: the ranking differs`);
    for (const k of ["raw", "dist"]) {
      a[k].forEach((x, v) => {
        const y = b[k][v], d = Math.abs(x - y);
        compared += 1;
        if (Object.is(x, y)) bitwise += 1;
        if (x > 0) worst = Math.max(worst, d / x);
        assert.ok(d <= 1e-11 * Math.abs(x) + 1e-300, `${c.name}: ${k}[${v}] is ${y} in the module, ${x} natively`);
      });
    }
    for (const k of ["mass", "entropy", "rawEntropy"]) {
      assert.ok(Math.abs(a[k] - b[k]) <= 1e-11 * Math.max(1, Math.abs(a[k])), `${c.name}: ${k}`);
    }
    independent(c, a, values);
    independent(c, b, null);  // the module's own result, by the same definitions
    if (c.bos && !c.appends) {
      // After BOS, the draw is the first token tinyllm generate writes:
      // it prints the prompt, that token's bytes (none for EOS) and a
      // newline.
      const want = Buffer.from(c.prompt, "utf8").toString("hex") + (a.drawnHex === "-" ? "" : a.drawnHex) + "0a";
      assert.equal(tinyllmFirst(c), want, `${c.name}: tinyllm generate writes another first token`);
      generated += 1;
    }
    if (c.appends) {
      assert.ok(a.text.startsWith(hexOf(c.prompt)), `${c.name}: the text keeps the prompt`);
      assert.ok(a.text.length > hexOf(c.prompt).length, `${c.name}: nothing was appended`);
    }
  });
  console.log(`${all.length} cases, ${compared} probabilities compared: ${bitwise} bitwise equal, the largest ` +
    `relative difference ${worst.toExponential(2)}; every draw, ranking and cut the same; ${generated} first tokens ` +
    `as tinyllm generate writes them; the chapter's ${TABLE.length} settings as the demo published them`);
});
