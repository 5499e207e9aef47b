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
// A sample from the model mid-run (wb_sample: llm::generate_cached with
// the tokenizer the ids were made with) is the same text in both builds,
// byte for byte, and leaves the run as it was: the steps after it are
// those of a run that never sampled. The tokenizer shipped with the ids
// is chapter 34's, byte for byte the one in the checkpoint the
// generating workbench loads.
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
const { nativeAnswers, doublesOf, errorOf, loadModule, refusedAlike, toLine, withString } = require("./builds.js");
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

// The page's sample (train.js's SAMPLE: chapter 34's first sample's
// settings) and others, each after `take` steps and followed by `after`.
const SAMPLE = { prompt: "And God said", sampleSeed: 34, tokens: 40, temperature: 0.7, topK: 40, topP: 1 };
const SAMPLES = [
  { name: "the page's sample after 200 steps", ...CHAPTER, take: 200, ...SAMPLE, after: 20 },
  { name: "a sample before any step", ...CHAPTER, take: 0, ...SAMPLE, after: 5 },
  { name: "a greedy sample of a prompt longer than the context, with a newline", ...CHAPTER, take: 60, ...SAMPLE,
    prompt: "In the beginning God created the heaven and the earth.\nAnd the earth was without form, and void; " +
            "and darkness was upon the face of the deep.", temperature: 0, sampleSeed: 1, tokens: 60, after: 3 },
  { name: "a hot sample of many tokens", ...CHAPTER, take: 30, ...SAMPLE, temperature: 1.5, topK: 0, tokens: 200, after: 2 },
  { name: "a sample of 0 tokens", ...CHAPTER, take: 2, ...SAMPLE, tokens: 0, after: 0,
    refused: /^the token count must be a whole number from 1 to 1000$/ },
  { name: "a negative temperature", ...CHAPTER, take: 2, ...SAMPLE, temperature: -1, after: 0,
    refused: /^the temperature must be a number from 0 to 100$/ },
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

const sampleLine = (c) => [line(c), c.sampleSeed, c.tokens, c.temperature, c.topK, c.topP, c.after].join(" ") +
  "\t" + toLine(c.prompt);

// A sampled run in the module, its numbers as the native program prints
// them: the steps before, the sample's byte count and bytes, the steps
// after, the validation loss and the fingerprint.
function wasmSampled(m, c) {
  if (m._wb_start(c.lr, c.warmup, c.batch, c.clip, c.seed, c.steps) !== 0) return { error: errorOf(m) };
  const numbers = [];
  const step = (n) => {
    for (let i = 0; i < n; ++i) {
      if (m._wb_step() !== 1) return false;
      numbers.push(m._wb_loss(), m._wb_grad_norm(), m._wb_lr());
    }
    return true;
  };
  if (!step(c.take)) return { error: errorOf(m) };
  const r = withString(m, c.prompt, (ptr) => m._wb_sample(ptr, c.tokens, c.sampleSeed, c.temperature, c.topK, c.topP));
  if (r !== 0) return { error: errorOf(m) };
  const ptr = m._wb_sample_text(), text = [];
  for (let i = ptr; m.HEAPU8[i] !== 0; ++i) text.push(m.HEAPU8[i]);
  numbers.push(text.length, ...text);
  if (!step(c.after)) return { error: errorOf(m) };
  numbers.push(m._wb_validation(), m._wb_fingerprint_low() >>> 0, m._wb_fingerprint_high() >>> 0);
  return { numbers, text: m.UTF8ToString(ptr), drawn: m._wb_sample_drawn() };
}

test("a sample mid-run is the native build's text, byte for byte, and leaves the run as it was", async () => {
  assert.ok(nativeExe && modulePath && buildDir, "usage: train.test.js NATIVE_EXE MODULE_JS BUILD_DIR");
  const native = nativeAnswers(nativeExe, SAMPLES.map(sampleLine), [data]);
  const m = await loadModule(modulePath);
  const bytes = require("fs").readFileSync(data);
  const ptr = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, ptr);
  assert.equal(m._wb_load_data(ptr, bytes.length), 0, errorOf(m));
  m._free(ptr);
  assert.equal(m._wb_sample(0, 1, 1, 1, 0, 1), 1, "a sample before any run");
  assert.equal(errorOf(m), "no run is started");

  let page = null;
  for (const [i, c] of SAMPLES.entries()) {
    const a = native[i], b = wasmSampled(m, c);
    if (refusedAlike(c, a, b)) continue;
    const xs = doublesOf(a.ok);
    assert.equal(xs.length, b.numbers.length, `${c.name}: how many numbers`);
    xs.forEach((x, j) => assert.equal(bits(b.numbers[j]), bits(x), `${c.name}: number ${j}: native ${x}, wasm ${b.numbers[j]}`));
    const n = xs[3 * c.take], text = Buffer.from(xs.slice(3 * c.take + 1, 3 * c.take + 1 + n)).toString("utf8");
    assert.equal(b.text, text, `${c.name}: the text`);
    assert.ok(b.drawn >= 1, `${c.name}: ${b.drawn} tokens drawn`);
    if (c.prompt.length < 40) assert.ok(text.startsWith(c.prompt), `${c.name}: ${JSON.stringify(text)}`);
    if (i === 0) page = b;

    // The run after the sample is the run without it.
    const [plain] = nativeAnswers(nativeExe, [line({ ...c, take: c.take + c.after })], [data]);
    const ys = doublesOf(plain.ok), steps = [...xs.slice(0, 3 * c.take), ...xs.slice(3 * c.take + 1 + n)];
    assert.deepEqual(steps.map(bits), ys.map(bits), `${c.name}: the sample changed the run`);
  }

  // The tokenizer is chapter 34's: its bytes (the end of the token data)
  // are in the checkpoint the generating workbench loads.
  const size = m._wb_tokenizer_bytes(), tokenizer = bytes.subarray(bytes.length - size);
  assert.equal(bytes.readUInt32LE(bytes.length - size - 4), size);
  const checkpoint = path.join(buildDir, "out", "34-end-to-end", "artifacts", "tinyllm.ckpt");
  assert.ok(require("fs").readFileSync(checkpoint).indexOf(tokenizer) >= 0,
            `the token data's tokenizer (${size} bytes) is not the one in ${checkpoint}`);
  console.log(`${SAMPLES.length} samples agree byte for byte and leave the run as it was; the tokenizer ` +
              `(${size} bytes, ${m._wb_vocab()} tokens) is chapter 34's; after 200 steps: ${JSON.stringify(page.text)}`);
});

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
