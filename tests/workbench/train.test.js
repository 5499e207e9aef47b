// The training workbench trains as the native build does: the
// WebAssembly module (train-module.js, as the page runs it) and the
// native build of the same entry point (workbench_train_native) give the
// same losses, gradient norms and rates, step for step, the same
// validation loss and the same parameters (their fingerprint), bit for
// bit, for the same token slice and settings. The entry point's steps are
// the library's (llm::sample_batch, llm::learning_rate, llm::train_step,
// llm::evaluate_loss), so the page runs the chapter's code.
//
// Why bit for bit: every operation of a step is an IEEE-754 operation done
// in the same order by both builds (-ffp-contract=off; WebAssembly has no
// fused multiply-add), and the native program computes exp, log, pow,
// sin, cos and tanh with musl's sources, which the module's C library is
// (book/workbench/train/train.cmake says why glibc's would not do). A
// difference is a fault: a setting passed wrongly, a batch drawn
// differently, an uninitialised value.
//
// Also: the loss falls over the first steps; a whole run at ten times the
// rate ends higher with fewer steps clipped (chapter 29's guided step says
// so); and the settings the
// entry point refuses (batch 0, a learning rate of NaN, negative values)
// are refused by both builds in the same words, naming the setting.
//
// usage: node tests/workbench/train.test.js NATIVE_EXE MODULE_JS BUILD_DIR
//        (CTest: workbench-train-wasm-equals-native, label book)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("path");
const { nativeAnswers, doublesOf, errorOf, loadModule, refusedAlike } = require("./builds.js");
const { bits } = require("./numbers.js");

const [nativeExe, modulePath, buildDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
const data = buildDir && path.join(buildDir, "wasm", "train-data.bin");

// The page's first settings (train.js's CHAPTER) and run length.
const CHAPTER = { lr: 0.006, warmup: 50, batch: 8, clip: 1, seed: 29, steps: 1500 };

const CASES = [
  { name: "the chapter's settings", ...CHAPTER, take: 200 },
  { name: "ten times the rate", ...CHAPTER, lr: 0.06, take: 30 },
  { name: "another seed, batch and threshold", ...CHAPTER, seed: 7, batch: 3, clip: 0.25, take: 30 },
  { name: "no warm-up, a short run to its end", ...CHAPTER, warmup: 0, steps: 12, take: 12 },
  { name: "batch 0", ...CHAPTER, batch: 0, take: 1, refused: /^the batch size must be a whole number from 1 to 64$/ },
  { name: "a learning rate of NaN", ...CHAPTER, lr: NaN, take: 1, refused: /^the learning rate must be a number above 0/ },
  { name: "a negative learning rate", ...CHAPTER, lr: -0.001, take: 1, refused: /^the learning rate must be/ },
  { name: "a negative warm-up", ...CHAPTER, warmup: -1, take: 1, refused: /^the warm-up must be a whole number of steps from 0 to 1500$/ },
  { name: "a warm-up longer than the run", ...CHAPTER, warmup: 1501, take: 1, refused: /^the warm-up must be/ },
  { name: "a negative threshold", ...CHAPTER, clip: -1, take: 1, refused: /^the clipping threshold must be a number above 0$/ },
  { name: "a threshold of NaN", ...CHAPTER, clip: NaN, take: 1, refused: /^the clipping threshold must be/ },
  { name: "a negative seed", ...CHAPTER, seed: -1, take: 1, refused: /^the seed must be a whole number from 0/ },
];

const line = (c) => [c.lr, c.warmup, c.batch, c.clip, c.seed, c.steps, c.take].map((v) => (Number.isNaN(v) ? "nan" : String(v))).join(" ");

// One run in the module: each step's three numbers, then the validation
// loss and the fingerprint's halves, as the native program prints them.
function wasmRun(m, c) {
  if (m._wb_start(c.lr, c.warmup, c.batch, c.clip, c.seed, c.steps) !== 0) return { error: errorOf(m) };
  const numbers = [];
  for (let i = 0; i < c.take; ++i) {
    if (m._wb_step() !== 1) return { error: errorOf(m) };
    numbers.push(m._wb_loss(), m._wb_grad_norm(), m._wb_lr());
  }
  numbers.push(m._wb_validation(), m._wb_fingerprint_low() >>> 0, m._wb_fingerprint_high() >>> 0);
  return { numbers };
}

test("the module trains as the native build does, bit for bit", async () => {
  assert.ok(nativeExe && modulePath && buildDir, "usage: train.test.js NATIVE_EXE MODULE_JS BUILD_DIR");
  const native = nativeAnswers(nativeExe, CASES.map(line), [data]);
  const m = await loadModule(modulePath);
  const bytes = require("fs").readFileSync(data);
  const ptr = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, ptr);
  assert.equal(m._wb_load_data(ptr, bytes.length), 0, errorOf(m));
  m._free(ptr);

  let steps = 0;
  for (const [i, c] of CASES.entries()) {
    const a = native[i], b = wasmRun(m, c);
    if (refusedAlike(c, a, b)) continue;
    const xs = doublesOf(a.ok);
    assert.equal(xs.length, b.numbers.length, `${c.name}: how many numbers`);
    xs.forEach((x, j) => {
      const what = j < 3 * c.take ? `step ${Math.floor(j / 3)}'s ${["loss", "gradient norm", "rate"][j % 3]}` :
        ["validation loss", "fingerprint (low)", "fingerprint (high)"][j - 3 * c.take];
      assert.equal(bits(b.numbers[j]), bits(x), `${c.name}: ${what}: native ${x}, wasm ${b.numbers[j]}`);
    });
    steps += c.take;
  }

  // The loss falls: the chapter's run, its last 20 of 200 steps against
  // its first 20, and the validation loss below log V.
  const chapter = doublesOf(native[0].ok);
  const losses = chapter.slice(0, 3 * 200).filter((_, j) => j % 3 === 0);
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const first = mean(losses.slice(0, 20)), last = mean(losses.slice(-20));
  assert.ok(last < first - 1, `the loss fell only from ${first} to ${last} over 200 steps`);
  assert.ok(chapter[3 * 200] < Math.log(m._wb_vocab()) - 1, `validation ${chapter[3 * 200]} after 200 steps`);

  // The chapter's guided step, on the native build (the same bits): at
  // ten times the rate, a whole run ends with a higher loss (the mean of
  // its last 150 steps) and fewer steps clipped, as the prose says.
  const whole = (lr) => {
    const [r] = nativeAnswers(nativeExe, [line({ ...CHAPTER, lr, take: CHAPTER.steps })], [data]);
    const xs = doublesOf(r.ok).slice(0, 3 * CHAPTER.steps);
    const loss = xs.filter((_, j) => j % 3 === 0), norms = xs.filter((_, j) => j % 3 === 1);
    return { end: mean(loss.slice(-150)), clipped: norms.filter((g) => g > CHAPTER.clip).length };
  };
  const base = whole(CHAPTER.lr), tenfold = whole(10 * CHAPTER.lr);
  assert.ok(tenfold.end > base.end, `ten times the rate ends at ${tenfold.end}, the chapter's at ${base.end}`);
  assert.ok(tenfold.clipped < base.clipped, `clipped: ${tenfold.clipped} at ten times the rate, ${base.clipped} at the chapter's`);

  // No run before a start; none after its end.
  assert.equal(m._wb_start(0.01, 0, 1, 1, 1, 1), 0);
  assert.equal(m._wb_step(), 1);
  assert.equal(m._wb_step(), 0);
  console.log(`${CASES.length} cases, ${steps} steps: the module and the native build agree bit for bit; ` +
              `the chapter's loss fell from ${first.toFixed(3)} to ${last.toFixed(3)} over 200 steps; a whole run ends at ` +
              `${base.end.toFixed(3)} with ${base.clipped} steps clipped, at ten times the rate ${tenfold.end.toFixed(3)} with ${tenfold.clipped}`);
});
