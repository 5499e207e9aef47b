/* The generating workbench of chapter 34: the book's trained model writes
 * in the page.
 *
 * Fills the chapter's <section class="workbench" data-workbench="generate">
 * with a prompt, the sampling settings of `tinyllm generate` (tokens,
 * temperature, top-k, top-p, seed) and a Write button, and shows the
 * continuation a token at a time as the model draws it. The model is the
 * checkpoint the build trained (generate-checkpoint.js, loaded through
 * common.js's BookWorkbench.withCheckpoint, holds
 * its bytes); the numbers come from the book's own C++ compiled to
 * WebAssembly: generate-module.js defines createGenerateWorkbench(), which
 * common.js's BookWorkbench.start loads. The same settings give the text
 * `tinyllm generate` prints; the page shows that command.
 *
 * Events (book.yaml), each when a continuation ends: wrote (any),
 * reseeded (only the seed differs from the chapter's settings), greedy
 * (temperature 0), heated (temperature above 1).
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el;
  /* The chapter's settings: those of its demo's first sample. */
  var CHAPTER = { prompt: "And God said", tokens: 40, temperature: 0.7, topK: 40, topP: 1, seed: 34 };
  var FIELDS = [
    ["tokens", "Tokens", "whole", 1, 1000],
    ["temperature", "Temperature", "number", 0, 100],
    ["topK", "Top-k", "whole", 0, 100000],
    ["topP", "Top-p", "number", 1e-9, 1],
    ["seed", "Seed", "whole", 0, 2147483647]
  ];
  var uid = 0;

  /* The shell's quoting of one argument, for the command shown. */
  function quoted(s) {
    return /^[A-Za-z0-9_.,\/:=+-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
  }

  function build(section, m) {
    W.withCheckpoint(section, m, "model", function (app, bytes) { writer(section, app, m, bytes); });
  }

  function writer(section, app, m, checkpointBytes) {
    var id = "wb-generate" + (++uid);
    var prompt = el("textarea", { id: id + "-prompt", className: "workbench-input workbench-prompt", rows: "2", spellcheck: "false" });
    prompt.value = prompt.defaultValue = CHAPTER.prompt;
    var typed = W.settings(id, FIELDS, CHAPTER), inputs = typed.inputs, settings = typed.block;
    var write = el("button", { type: "submit", className: "workbench-reset workbench-write", text: "Write" });
    var stop = el("button", { type: "button", className: "workbench-reset workbench-stop", text: "Stop" });
    stop.disabled = true;
    var reset = el("button", { type: "button", className: "workbench-reset", text: "Chapter's settings" });
    var message = W.message(section);
    var output = el("pre", { className: "workbench-output", "aria-live": "polite", "aria-label": "The model's text", tabindex: "0" });
    var meter = el("p", { className: "workbench-legend workbench-meter" });
    var command = el("code", { className: "workbench-command" });

    var form = el("form", { className: "workbench-form", novalidate: "", "aria-label": "Prompt and sampling settings" }, [
      el("div", { className: "workbench-field" }, [el("label", { "for": prompt.id, text: "Prompt" }), prompt]),
      el("fieldset", { className: "workbench-token" }, [el("legend", { text: "Sampling" }), settings]),
      el("p", { className: "workbench-legend", text: "Temperature 0 takes the most probable token at every step (greedy); top-k 0 keeps every token." }),
      el("div", { className: "workbench-switches" }, [write, stop, reset])
    ]);
    app.appendChild(form);
    app.appendChild(message.node);
    app.appendChild(output);
    app.appendChild(meter);
    app.appendChild(el("p", { className: "workbench-legend" }, [
      document.createTextNode("The same text, from the command line: "), command
    ]));
    app.appendChild(el("p", { className: "workbench-legend", text:
      "The model is the checkpoint the book's build trained (" + checkpointBytes + " bytes), run by the book's C++ " +
      "compiled to WebAssembly, with the key/value cache, a token at a time." }));

    var running = null;

    /* The settings as typed, or a message naming each bad one. */
    var read = function () {
      var s = typed.read();
      if (!s.bad) s.prompt = prompt.value;
      return s;
    };

    var showCommand = function (s) {
      command.textContent = "build/tinyllm generate --checkpoint build/out/34-end-to-end/artifacts/tinyllm.ckpt" +
        " --prompt " + quoted(s.prompt) + " --tokens " + s.tokens + " --temperature " + s.temperature +
        " --top-k " + s.topK + " --top-p " + s.topP + " --seed " + s.seed;
    };

    var finish = function (s) {
      running = null;
      write.disabled = false;
      stop.disabled = true;
      section.classList.remove("workbench-running");
      var others = ["prompt", "tokens", "temperature", "topK", "topP"].every(function (k) { return s[k] === CHAPTER[k]; });
      var events = ["wrote"];
      if (others && s.seed !== CHAPTER.seed) events.push("reseeded");
      if (s.temperature === 0) events.push("greedy");
      if (s.temperature > 1) events.push("heated");
      W.report(section, events);
    };

    var start = function () {
      if (running) return;
      var s = read();
      if (s.bad) { message.show("Not a setting: " + s.bad.join("; ") + "."); return; }
      var size = m.lengthBytesUTF8(s.prompt) + 1, ptr = m._malloc(size);
      m.stringToUTF8(s.prompt, ptr, size);
      var r = m._wb_start(ptr, s.tokens, s.seed, s.temperature, s.topK, s.topP);
      m._free(ptr);
      if (r !== 0) { message.show("The model refused these settings: " + m.UTF8ToString(m._wb_error()) + "."); return; }
      message.show("");
      showCommand(s);
      output.textContent = s.prompt;
      write.disabled = true;
      stop.disabled = false;
      section.classList.add("workbench-running");
      var began = performance.now();
      running = { stop: false };
      var job = running;
      var tick = function () {
        if (job.stop) { meter.textContent += " (stopped)"; finish(s); return; }
        var more = m._wb_step();
        output.textContent = m.UTF8ToString(m._wb_text());
        var n = m._wb_drawn(), seconds = (performance.now() - began) / 1000;
        meter.textContent = n + (n === 1 ? " token" : " tokens") +
          (seconds > 0 ? ", " + (n / seconds).toFixed(0) + " tokens/s" : "");
        if (more < 0) { message.show("The model stopped: " + m.UTF8ToString(m._wb_error()) + "."); finish(s); return; }
        if (more === 0) { output.dataset.done = "true"; finish(s); return; }
        setTimeout(tick, 0);
      };
      delete output.dataset.done;
      setTimeout(tick, 0);
    };

    form.addEventListener("submit", function (e) { e.preventDefault(); start(); });
    stop.addEventListener("click", function () { if (running) running.stop = true; });
    reset.addEventListener("click", function () {
      prompt.value = prompt.defaultValue;
      FIELDS.forEach(function (f) { inputs[f[0]].value = inputs[f[0]].defaultValue; inputs[f[0]].setAttribute("aria-invalid", "false"); });
      message.show("");
    });
    showCommand(CHAPTER);
    output.textContent = "Press Write: the model continues the prompt.";
  }

  W.start("generate", build);
})();
