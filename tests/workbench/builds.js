// What the tests that compare a workbench's two builds share
// (tests/workbench/NAME.test.js): running the native program
// (workbench_NAME_native, one case a line on standard input, one answer a
// line on standard output; tests/workbench/native.hpp), calling the
// WebAssembly module under Node.js, and counting how the two builds'
// numbers differ. Each test keeps its own cases, bounds and checks.
"use strict";

const assert = require("node:assert/strict");
const fs = require("fs");
const { spawnSync } = require("child_process");
const { bits } = require("./numbers.js");

const EPS = Number.EPSILON; // one unit in the last place of 1

// The native program `exe` (with `args`) run on `lines`, one case each:
// the lines it printed. Fails the test if the program fails.
function nativeLines(exe, lines, args = []) {
  const r = spawnSync(exe, args, { input: lines.join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `${exe} failed:\n${r.stderr}`);
  return r.stdout.replace(/\n$/, "").split("\n");
}

// The answer of one line: { ok: what follows "ok " } or { error: MESSAGE }.
function answer(line) {
  const m = /^(ok|error) (.*)$/.exec(line);
  assert.ok(m, `the native program printed '${line}', not 'ok ...' or 'error ...'`);
  return m[1] === "ok" ? { ok: m[2] } : { error: m[2] };
}

// The native program's answers to `lines`, one line each.
function nativeAnswers(exe, lines, args = []) {
  const out = nativeLines(exe, lines, args);
  assert.equal(out.length, lines.length, "the native program answered a different number of cases");
  return out.map(answer);
}

// The numbers of an answer as the native program prints them: 17
// significant digits (which read back as the same double), inf, -inf, nan.
function doublesOf(text) {
  const named = { inf: Infinity, "-inf": -Infinity, nan: NaN, "-nan": NaN };
  return text.split(" ").map((s) => (s in named ? named[s] : Number(s)));
}

// A text as one line of a native program's input or output, and back:
// '\' written '\\' and a newline '\n' (native.hpp's to_line, from_line).
const toLine = (text) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const fromLine = (line) => line.replace(/\\(\\|n)/g, (_, c) => (c === "n" ? "\n" : "\\"));

// A double as a native program reads it back exactly.
const exact = (x) => x.toPrecision(17);

// The module's message for its last failed call (wb_error).
const errorOf = (m) => m.UTF8ToString(m._wb_error());

// `n` doubles of the module's memory from byte `ptr`.
const doublesAt = (m, ptr, n) => Array.from(m.HEAPF64.subarray(ptr / 8, ptr / 8 + n));

// `call(ptr)` with `text` as a NUL-terminated UTF-8 string at `ptr` in the
// module's memory, freed after; what `call` returns.
function withString(m, text, call) {
  const size = m.lengthBytesUTF8(text) + 1, ptr = m._malloc(size);
  m.stringToUTF8(text, ptr, size);
  try {
    return call(ptr);
  } finally {
    m._free(ptr);
  }
}

// The module of `modulePath`, instantiated, with the checkpoint file
// `checkpoint` loaded through its wb_load when one is given.
async function loadModule(modulePath, checkpoint) {
  const m = await require(modulePath)();
  if (checkpoint) {
    const bytes = fs.readFileSync(checkpoint);
    const ptr = m._malloc(bytes.length);
    m.HEAPU8.set(bytes, ptr);
    assert.equal(m._wb_load(ptr, bytes.length), 0, `${checkpoint}: ${errorOf(m)}`);
    m._free(ptr);
  }
  return m;
}

// Whether case `c` is one the entry point must refuse (`c.refused`, a
// pattern of its message): then both builds refused it, in the same words,
// which match; otherwise the native build accepted it.
function refusedAlike(c, a, b) {
  if (!c.refused) {
    assert.equal(a.error, undefined, `${c.name}: native refused it: ${a.error}`);
    return false;
  }
  assert.match(a.error ?? "", c.refused, `${c.name}: native`);
  assert.equal(b.error, a.error, `${c.name}: the module's message`);
  return true;
}

/**
 * The differences between the native build's results and the module's,
 * collected over the cases: `ulps` is how many units in the last place
 * of a result's bound a difference may have.
 */
function differences(ulps) {
  const problems = [];
  let values = 0, sameBits = 0, worst = 0;
  return {
    // Whether either build refused the case `label` (native answer `a`,
    // module answer `b`); a refusal must be both builds', in the same words.
    refused(label, a, b) {
      if (!a.error && !b.error) return false;
      if (a.error !== b.error) problems.push(`${label}: native '${a.error ?? "ok"}', wasm '${b.error ?? "ok"}'`);
      return true;
    },
    // Native `xs` against the module's `ys`: each pair the same bits (or
    // both NaN), or else both finite, neither zero, and within `ulps` units
    // of EPS * bound (a number, or a function of the native value); with
    // `exact`, the same bits only.
    compare(label, kind, xs, ys, { bound = 1, exact = false } = {}) {
      assert.equal(xs.length, ys.length, `${label}: ${kind} lengths`);
      xs.forEach((x, j) => {
        const y = ys[j];
        ++values;
        if (bits(x) === bits(y) || (Number.isNaN(x) && Number.isNaN(y))) {
          ++sameBits;
          return;
        }
        const where = `${label}: ${kind}[${j}] native ${x}, wasm ${y}`;
        const b = typeof bound === "function" ? bound(x) : bound;
        const units = Math.abs(x - y) / (EPS * b);
        if (Number.isFinite(units)) worst = Math.max(worst, units);
        if (exact || b === 0 || x === 0 || y === 0 || !Number.isFinite(x) || !Number.isFinite(y)) {
          problems.push(`${where} (must be bitwise equal)`);
        } else if (!(units <= ulps)) {
          problems.push(`${where} (${units.toFixed(1)} units apart)`);
        }
      });
    },
    // Prints how many of the results were bitwise equal and the largest
    // difference; fails the test on any problem.
    report(cases) {
      console.log(`${cases} cases, ${values} results: ${sameBits} bitwise equal; ` +
                  `largest difference ${worst.toFixed(2)} units in the last place (allowed ${ulps})`);
      assert.deepEqual(problems, [], problems.join("\n"));
    },
  };
}

/**
 * The comparison a workbench test makes: the native build's answers to
 * `all` (`native(all)`, one run) against the module's (`wasm(c)`, case by
 * case). A case either build refuses must be refused alike; any other is
 * handed to `check(diff, label, a, b, c)`, which compares its results with
 * `diff.compare`. `label(c)` names a case in the messages; the report
 * fails the test on any problem.
 */
function compareBuilds({ all, native, wasm, ulps, label, check }) {
  const diff = differences(ulps);
  const answers = native(all);
  all.forEach((c, i) => {
    const name = label(c);
    const a = answers[i], b = wasm(c);
    if (diff.refused(name, a, b)) return;
    check(diff, name, a, b, c);
  });
  diff.report(all.length);
}

module.exports = {
  EPS, nativeLines, answer, nativeAnswers, doublesOf, toLine, fromLine, exact, errorOf, doublesAt, withString, loadModule, refusedAlike, differences,
  compareBuilds,
};
