/* The training workbench of chapter 29: the reader trains a small model of
 * the book's architecture in the page and watches the loss fall.
 *
 * Fills the chapter's <section class="workbench" data-workbench="train">
 * with the run's settings (learning rate, warm-up, batch size, clipping
 * threshold, seed), Start / Pause / Reset, a live chart of the training
 * loss of every step and the validation loss every VALIDATE_EVERY steps,
 * a chart of the learning-rate schedule with the current step marked, and
 * the speed. The numbers come from the book's own C++ compiled to
 * WebAssembly: train-module.js defines createTrainWorkbench(), whose
 * wb_step is llm::train_step on a batch from llm::sample_batch at the
 * rate of llm::learning_rate, as in the chapter's demo. The tokens are a
 * slice of the training and validation splits (train-data.js,
 * window.BOOK_TRAIN_DATA, loaded as a script so that the page works from
 * file://).
 *
 * The steps run in slices of about SLICE_MS between animation frames, so
 * the page stays responsive. While the page is hidden (another tab, the
 * phone's screen off) no slice runs: the run waits, its time is not
 * counted in the speed, and it carries on from the same step when the
 * reader returns.
 *
 * Paused or finished, Sample writes a continuation of a prompt with the
 * parameters as they are (wb_sample: llm::generate_cached, as chapter
 * 34's generating workbench, with SAMPLE's settings, those of that
 * chapter's first sample), decoded by the tokenizer the training ids were
 * made with, which train-data.js carries after them. Sampling leaves the
 * run as it was.
 *
 * For the tests, the section's trainRun property holds the run's numbers
 * (losses, validation [step, loss] pairs, samples [step, text] pairs).
 *
 * Events (book.yaml): started (a run began), paused, reset, lr-tenfold (a
 * run began at ten times the chapter's learning rate or more), sampled (a
 * sample was written).
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el;
  /* The chapter's demo's settings, with a warm-up scaled to the shorter
     run. */
  var CHAPTER = { lr: 0.006, warmup: 50, batch: 8, clip: 1, seed: 29 };
  var STEPS = 1500, VALIDATE_EVERY = 50, SLICE_MS = 12;
  /* Chapter 34's first sample's settings. */
  var SAMPLE = { prompt: "And God said", tokens: 40, temperature: 0.7, topK: 40, topP: 1, seed: 34 };
  var FIELDS = [
    ["lr", "Learning rate", "number", 1e-6, 1],
    ["warmup", "Warm-up steps", "whole", 0, STEPS],
    ["batch", "Batch size", "whole", 1, 64],
    ["clip", "Clipping threshold", "number", 1e-6, 1e6],
    ["seed", "Seed", "whole", 0, 2147483647]
  ];
  var SVG = "http://www.w3.org/2000/svg";
  var uid = 0;

  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  /* A chart of 600 x h user units: axes, a y range, and polylines
     the caller fills. */
  function chart(label, yMax, yLabel, h) {
    var w = 600, left = 44, bottom = 22, top = 8, right = 8;
    var root = svg("svg", { viewBox: "0 0 " + w + " " + h, role: "img", "aria-label": label, "class": "workbench-chart" });
    var x = function (step) { return left + (w - left - right) * step / STEPS; };
    var y = function (v) { return top + (h - top - bottom) * (1 - Math.min(v, yMax) / yMax); };
    root.appendChild(svg("line", { x1: left, y1: y(0), x2: w - right, y2: y(0), "class": "workbench-axis" }));
    root.appendChild(svg("line", { x1: left, y1: top, x2: left, y2: y(0), "class": "workbench-axis" }));
    [0, yMax / 2, yMax].forEach(function (v) {
      var t = svg("text", { x: left - 4, y: y(v) + 4, "text-anchor": "end", "class": "workbench-tick" });
      t.textContent = yLabel(v);
      root.appendChild(t);
    });
    [0, STEPS / 2, STEPS].forEach(function (s) {
      var t = svg("text", { x: x(s), y: h - 6, "text-anchor": s === 0 ? "start" : s === STEPS ? "end" : "middle", "class": "workbench-tick" });
      t.textContent = s === STEPS ? "step " + s : String(s);
      root.appendChild(t);
    });
    return { node: root, x: x, y: y };
  }

  function points(c, xs, ys) {
    var out = [];
    for (var i = 0; i < xs.length; ++i) out.push(c.x(xs[i]).toFixed(1) + "," + c.y(ys[i]).toFixed(1));
    return out.join(" ");
  }

  function build(section, m) {
    var app = section.querySelector(".workbench-app");
    var status = el("p", { className: "workbench-status", role: "status", text: "Loading the training tokens\u2026" });
    app.appendChild(status);
    var loaded = function () {
      var raw = atob(window.BOOK_TRAIN_DATA), bytes = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; ++i) bytes[i] = raw.charCodeAt(i);
      var ptr = m._malloc(bytes.length);
      m.HEAPU8.set(bytes, ptr);
      var failed = m._wb_load_data(ptr, bytes.length) !== 0;
      m._free(ptr);
      if (failed) { status.textContent = "The workbench could not load its tokens: " + m.UTF8ToString(m._wb_error()) + "."; return; }
      app.textContent = "";
      trainer(section, app, m, bytes.length);
    };
    if (window.BOOK_TRAIN_DATA) { loaded(); return; }
    var script = document.createElement("script");
    script.src = "workbench/train-data.js";
    script.onload = loaded;
    script.onerror = function () { status.textContent = "The workbench could not start: the token script did not load."; };
    document.head.appendChild(script);
  }

  function trainer(section, app, m, dataBytes) {
    var id = "wb-train" + (++uid);
    var typed = W.settings(id, FIELDS, CHAPTER), inputs = typed.inputs;
    var start = el("button", { type: "submit", className: "workbench-reset workbench-start", text: "Start" });
    var pause = el("button", { type: "button", className: "workbench-reset workbench-pause", text: "Pause" });
    var reset = el("button", { type: "button", className: "workbench-reset workbench-clear", text: "Reset" });
    var message = W.message(section);
    var meter = el("p", { className: "workbench-legend workbench-meter", "aria-live": "off" });
    var logV = Math.log(m._wb_vocab());
    var lossChart = chart("Training loss of each step and validation loss, against the step", 8, function (v) { return v.toFixed(0); }, 200);
    var lrChart = chart("The learning rate of each step", 1, function () { return ""; }, 110);
    var trainLine = svg("polyline", { "class": "workbench-curve workbench-curve-train", fill: "none" });
    var valLine = svg("polyline", { "class": "workbench-curve workbench-curve-validation", fill: "none" });
    var lrLine = svg("polyline", { "class": "workbench-curve workbench-curve-lr", fill: "none" });
    var lrNow = svg("line", { "class": "workbench-now" });
    var uniform = svg("line", { x1: lossChart.x(0), x2: lossChart.x(STEPS), y1: lossChart.y(logV), y2: lossChart.y(logV), "class": "workbench-guide" });
    lossChart.node.appendChild(uniform);
    lossChart.node.appendChild(trainLine);
    lossChart.node.appendChild(valLine);
    lrChart.node.appendChild(lrLine);
    lrChart.node.appendChild(lrNow);
    var lrMax = el("span");
    var prompt = el("textarea", { id: id + "-prompt", className: "workbench-input workbench-prompt", rows: "2", spellcheck: "false" });
    prompt.value = prompt.defaultValue = SAMPLE.prompt;
    var sample = el("button", { type: "button", className: "workbench-reset workbench-sample", text: "Sample" });
    var sampled = el("pre", { className: "workbench-output workbench-sample-text", "aria-live": "polite", "aria-label": "The trained model's text", tabindex: "0" });

    var form = el("form", { className: "workbench-form", novalidate: "", "aria-label": "Training settings" }, [
      el("fieldset", { className: "workbench-token" }, [el("legend", { text: "Settings (fixed once a run starts)" }), typed.block]),
      el("div", { className: "workbench-switches" }, [start, pause, reset])
    ]);
    app.appendChild(form);
    app.appendChild(message.node);
    app.appendChild(meter);
    app.appendChild(el("figure", { className: "workbench-figure" }, [lossChart.node,
      el("figcaption", { className: "workbench-legend", text: "Loss in nats per token: the training batch of each step (solid), the validation windows every " +
        VALIDATE_EVERY + " steps (dashed), and the loss of a uniform guess, log V (dotted)." })]));
    app.appendChild(el("figure", { className: "workbench-figure" }, [lrChart.node,
      el("figcaption", { className: "workbench-legend" }, [document.createTextNode("The learning rate of each step, from 0 to the peak "), lrMax,
        document.createTextNode("; the vertical line is the step the run has reached.")])]));
    app.appendChild(el("p", { className: "workbench-legend", text:
      "A model of the book's architecture, smaller than the chapter's (" + m._wb_parameter_count() + " parameters, a context of " +
      m._wb_context() + " tokens), trained for " + STEPS + " steps on the first documents of the training split (" +
      (dataBytes - m._wb_tokenizer_bytes() - 4) + " bytes of token ids) by the chapter's own C++ compiled to WebAssembly." }));
    app.appendChild(el("fieldset", { className: "workbench-token workbench-sampler" }, [
      el("legend", { text: "Sample from the model (paused or finished)" }),
      el("div", { className: "workbench-field" }, [el("label", { "for": prompt.id, text: "Prompt" }), prompt]),
      el("div", { className: "workbench-switches" }, [sample]),
      sampled,
      el("p", { className: "workbench-legend", text: "Up to " + SAMPLE.tokens + " tokens at temperature " + SAMPLE.temperature +
        ", top-k " + SAMPLE.topK + ", seed " + SAMPLE.seed + " (chapter 34's first sample), drawn by its generate_cached " +
        "from the parameters as they are now, and decoded by the tokenizer the training ids were made with (" +
        m._wb_vocab() + " tokens, " + m._wb_tokenizer_bytes() + " bytes). Sampling does not change the run." })
    ]));

    /* The run: null before Start and after Reset. */
    var run = null;
    section.trainRun = null;

    var setState = function (state) {
      section.dataset.state = state;
      start.textContent = state === "paused" ? "Resume" : "Start";
      start.disabled = state === "running" || state === "done";
      pause.disabled = state !== "running";
      FIELDS.forEach(function (f) { inputs[f[0]].disabled = state !== "idle"; });
      sample.disabled = state !== "paused" && state !== "done";
      section.classList.toggle("workbench-running", state === "running");
    };

    var draw = function () {
      var xs = [], ys = [];
      for (var i = 0; i < run.losses.length; ++i) { xs.push(i + 1); ys.push(run.losses[i]); }
      trainLine.setAttribute("points", points(lossChart, xs, ys));
      valLine.setAttribute("points", points(lossChart, run.validation.map(function (p) { return p[0]; }),
                                            run.validation.map(function (p) { return p[1]; })));
      var x = lrChart.x(run.losses.length);
      lrNow.setAttribute("x1", x); lrNow.setAttribute("x2", x);
      lrNow.setAttribute("y1", lrChart.y(0)); lrNow.setAttribute("y2", lrChart.y(1));
      var n = run.losses.length, last = n ? run.losses[n - 1] : NaN;
      var v = run.validation.length ? run.validation[run.validation.length - 1] : null;
      var perSecond = run.wall > 0 ? n / run.wall : 0;
      meter.textContent = "Step " + n + " of " + STEPS +
        (n ? ": loss " + W.fixed(last, 3) : "") +
        (v ? ", validation " + W.fixed(v[1], 3) + " after step " + v[0] : "") +
        ", " + m._wb_clipped() + " clipped; " + perSecond.toFixed(1) + " steps/s, " +
        (perSecond * m._wb_tokens_per_step()).toFixed(0) + " tokens/s";
    };

    var validate = function () {
      var v = m._wb_validation();
      run.validation.push([run.losses.length, v]);
    };

    var begin = function () {
      var s = typed.read();
      if (s.bad) { message.show("Not a setting: " + s.bad.join("; ") + "."); return; }
      if (m._wb_start(s.lr, s.warmup, s.batch, s.clip, s.seed, STEPS) !== 0) {
        message.show("The run refused these settings: " + m.UTF8ToString(m._wb_error()) + ".");
        return;
      }
      message.show("");
      run = { settings: s, losses: [], validation: [], samples: [], seconds: 0, wall: 0, mark: 0, job: 0 };
      section.trainRun = run;
      var lx = [], ly = [], peak = 0;
      for (var i = 0; i < STEPS; ++i) peak = Math.max(peak, m._wb_schedule(i));
      for (var j = 0; j < STEPS; ++j) { lx.push(j + 1); ly.push(m._wb_schedule(j) / peak); }
      lrLine.setAttribute("points", points(lrChart, lx, ly));
      lrMax.textContent = String(s.lr);
      validate();
      var events = ["started"];
      if (s.lr >= 10 * CHAPTER.lr) events.push("lr-tenfold");
      W.report(section, events);
    };

    /* The time spent since the last mark: in the steps (seconds) and
       on the clock while running (wall, which the speed shown uses). */
    var account = function (began) {
      var now = performance.now();
      run.seconds += (now - began) / 1000;
      run.wall += (now - run.mark) / 1000;
      run.mark = now;
    };

    /* Steps for about SLICE_MS, then a drawing, then the next frame. */
    var slice = function (job) {
      if (!run || run.job !== job || section.dataset.state !== "running") return;
      if (document.hidden) return;  /* away: the return starts a new job */
      var began = performance.now();
      while (performance.now() - began < SLICE_MS) {
        var r = m._wb_step();
        if (r !== 1) {
          if (r < 0) message.show("The run stopped: " + m.UTF8ToString(m._wb_error()) + ".");
          account(began);
          draw();
          setState("done");
          return;
        }
        run.losses.push(m._wb_loss());
        if (run.losses.length % VALIDATE_EVERY === 0 || run.losses.length === STEPS) validate();
      }
      account(began);
      draw();
      requestAnimationFrame(function () { slice(job); });
    };

    /* Leaving: the slices stop (a hidden page gets no frames anyway) and
       the time away is not the run's. Returning: a new job from the
       same step. */
    document.addEventListener("visibilitychange", function () {
      if (!run || section.dataset.state !== "running") return;
      if (document.hidden) { ++run.job; return; }
      run.mark = performance.now();
      var job = ++run.job;
      requestAnimationFrame(function () { slice(job); });
    });

    var write = function () {
      if (!run || (section.dataset.state !== "paused" && section.dataset.state !== "done")) return;
      var text = prompt.value, size = m.lengthBytesUTF8(text) + 1, ptr = m._malloc(size);
      m.stringToUTF8(text, ptr, size);
      var r = m._wb_sample(ptr, SAMPLE.tokens, SAMPLE.seed, SAMPLE.temperature, SAMPLE.topK, SAMPLE.topP);
      m._free(ptr);
      if (r !== 0) { message.show("The model could not sample: " + m.UTF8ToString(m._wb_error()) + "."); return; }
      message.show("");
      var out = m.UTF8ToString(m._wb_sample_text());
      run.samples.push([run.losses.length, out]);
      sampled.textContent = out;
      sampled.dataset.step = String(run.losses.length);
      sampled.setAttribute("aria-label", "The model's text after step " + run.losses.length);
      W.report(section, ["sampled"]);
    };

    var go = function () {
      if (!run) {
        begin();
        if (!run) return;
      }
      setState("running");
      run.mark = performance.now();
      var job = ++run.job;
      requestAnimationFrame(function () { slice(job); });
    };

    form.addEventListener("submit", function (e) { e.preventDefault(); go(); });
    sample.addEventListener("click", write);
    pause.addEventListener("click", function () {
      if (section.dataset.state !== "running") return;
      setState("paused");
      W.report(section, ["paused"]);
    });
    reset.addEventListener("click", function () {
      if (run) run.job = -1;
      run = null;
      section.trainRun = null;
      trainLine.setAttribute("points", "");
      valLine.setAttribute("points", "");
      lrLine.setAttribute("points", "");
      lrNow.removeAttribute("x1");
      meter.textContent = "Press Start: the model begins from fresh parameters.";
      sampled.textContent = "Pause the run, then press Sample: the model continues the prompt.";
      delete sampled.dataset.step;
      message.show("");
      setState("idle");
      W.report(section, ["reset"]);
    });
    meter.textContent = "Press Start: the model begins from fresh parameters.";
    sampled.textContent = "Pause the run, then press Sample: the model continues the prompt.";
    setState("idle");
  }

  W.start("train", build);
})();
