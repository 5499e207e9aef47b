/* The sampling workbench of chapter 32: the trained model's next-token
 * distribution after a prompt, reshaped by a temperature, top-k and top-p,
 * and the token one seeded draw picks.
 *
 * Fills the chapter's <section class="workbench" data-workbench="sampling">
 * with a prompt and the settings (temperature, top-k, top-p, seed), and
 * shows the most probable next tokens with the model's raw probability
 * (T = 1, no cut) beside the sampling distribution the settings give, how
 * many tokens survive and their mass, the entropy, and the drawn token;
 * a button appends the drawn token to the prompt. The model is chapter
 * 34's checkpoint, from the script the generating workbench also loads
 * (generate-checkpoint.js, window.BOOK_MODEL_CHECKPOINT; the page does not
 * hold it twice), which holds the parameters and tokenizer of chapter
 * 32's demo: read as the demo reads the prompt (the first setting), the
 * chapter's prompt gives the chapter's distribution; read after the BOS
 * token, as `tinyllm generate` reads it, the draw is the first token that
 * command writes. The numbers come from the book's own C++
 * (llm::next_token_logits, llm::sampling_distribution, llm::sample_token)
 * compiled to WebAssembly: sampling-module.js defines
 * createSamplingWorkbench(), which common.js's BookWorkbench.start loads.
 * A change of a setting recomputes the distribution; a change of the
 * prompt runs the model again.
 *
 * Events (book.yaml), whenever the settings in effect give them: cooled
 * (0 < T < 1), heated (T > 1), greedy (T = 0), top-k-cut (1 <= k < V),
 * top-p-cut (p < 1).
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el;
  var PROMPT = "And God said";  /* the prompt of the chapter's demo */
  var MODEL = { temperature: 1, topK: 0, topP: 1, seed: 1 };  /* the model's own distribution */
  var FIELDS = [
    ["temperature", "Temperature", "number", 0, 100],
    ["topK", "Top-k", "whole", 0, 100000],
    ["topP", "Top-p", "number", 1e-9, 1],
    ["seed", "Seed", "whole", 0, 2147483647]
  ];
  var SHOWN = 12;  /* rows: the most probable tokens */
  var uid = 0;

  /* A probability: six decimals as in the chapter's tables, a tiny
     nonzero one in exponent form, and an exact zero as 0. */
  function prob(v) {
    if (v === 0) return "0";
    if (v < 5e-7) return v.toExponential(2);
    return W.fixed(v);
  }

  function build(section, m) {
    W.withCheckpoint(section, m, "model", function (app, bytes) { sampler(section, app, m, bytes); });
  }

  function sampler(section, app, m, checkpointBytes) {
    var id = "wb-sampling" + (++uid);
    var V = m._wb_vocab();
    var prompt = el("textarea", { id: id + "-prompt", className: "workbench-input workbench-prompt", rows: "2", spellcheck: "false" });
    prompt.value = prompt.defaultValue = PROMPT;
    var typed = W.settings(id, FIELDS, MODEL), inputs = typed.inputs, settings = typed.block;
    var bos = el("input", { type: "checkbox", id: id + "-bos", "data-field": "bos" });
    var bosSwitch = el("label", { className: "workbench-switch", "for": bos.id }, [bos,
      document.createTextNode("Read a BOS token first, as tinyllm generate does")]);
    var append = el("button", { type: "button", className: "workbench-reset workbench-append", text: "Append the drawn token" });
    var reset = el("button", { type: "button", className: "workbench-reset workbench-model", text: "Model's distribution" });
    var again = el("button", { type: "button", className: "workbench-reset workbench-chapter-prompt", text: "Chapter's prompt" });
    var message = W.message(section);

    var caption = el("caption", { text: "The " + SHOWN + " most probable next tokens" });
    var head = el("tr", null, [
      el("th", { scope: "col", className: "num", text: "rank" }),
      el("th", { scope: "col", text: "token" }),
      el("th", { scope: "col", className: "num", text: "id" }),
      el("th", { scope: "col", className: "num", text: "model (T = 1)" }),
      el("th", { scope: "col", className: "num", text: "sampling" })
    ]);
    var body = el("tbody");
    var table = el("figure", { className: "book-table workbench-table workbench-sampling" }, [
      el("div", { className: "table-wrap" }, [el("table", null, [caption, el("thead", null, [head]), body])])
    ]);
    var summary = el("dl", { className: "workbench-legend workbench-summary" });
    var fields = {};
    [["read", "Tokens read"], ["kept", "Tokens kept"], ["mass", "Their mass (model)"],
     ["entropy", "Entropy (nats)"], ["drawn", "The draw"]].forEach(function (f) {
      fields[f[0]] = el("dd", { "data-summary": f[0] });
      summary.appendChild(el("div", null, [el("dt", { text: f[1] }), fields[f[0]]]));
    });

    var form = el("form", { className: "workbench-form", novalidate: "", "aria-label": "Prompt and sampling settings" }, [
      el("div", { className: "workbench-field" }, [el("label", { "for": prompt.id, text: "Prompt" }), prompt]),
      el("fieldset", { className: "workbench-token" }, [el("legend", { text: "Sampling" }), settings]),
      el("p", { className: "workbench-legend", text:
        "Temperature 0 is greedy; top-k 0 keeps every token; top-p 1 cuts nothing." }),
      el("div", { className: "workbench-switches" }, [bosSwitch]),
      el("div", { className: "workbench-switches" }, [append, reset, again])
    ]);
    app.appendChild(form);
    app.appendChild(message.node);
    app.appendChild(summary);
    app.appendChild(el("div", { className: "workbench-results" }, [table]));
    app.appendChild(el("p", { className: "workbench-legend", text:
      "A token is shown as its bytes: \u2423 is a space, \u21b5 a line break, <XX> a byte that is not a whole " +
      "character. A hatched cell is a token the settings cut; the outlined row is the drawn token." }));
    app.appendChild(el("p", { className: "workbench-legend", text:
      "The model is the checkpoint of the end-to-end chapter (" + checkpointBytes + " bytes): the parameters " +
      "the training chapter trained and the tokenizer this chapter's demo uses. Read as the demo reads it, the " +
      "chapter's prompt gives the distribution of the settings table; read after a BOS token, the draw is the " +
      "first token tinyllm generate writes with the same prompt, seed and settings." }));

    var last = null;

    var read = typed.read;

    var token = function (t) { return m.UTF8ToString(m._wb_token(t)); };

    var row = function (t, q, raw, drawn, note) {
      var cut = q[t] === 0 && raw[t] > 0;
      var tr = el("tr", { "data-id": String(t) });
      if (note) tr.classList.add("workbench-extra");
      var cells = [
        el("td", { className: "num", text: String(m._wb_rank_of(t) + 1) }),
        el("td", { className: "workbench-tok" }, [el("code", { text: token(t) })]),
        el("td", { className: "num", text: String(t) }),
        el("td", { className: "num", "data-value": String(raw[t]), text: prob(raw[t]) }),
        el("td", { className: "num", "data-value": String(q[t]), text: prob(q[t]) })
      ];
      if (cut) {
        cells[4].classList.add("blocked");
        cells[4].appendChild(el("span", { className: "cell-mark", text: "cut" }));
      }
      if (t === drawn) {
        cells.forEach(function (c) { c.classList.add("diagonal"); });
        cells[1].appendChild(el("span", { className: "cell-mark", text: "drawn" }));
        tr.setAttribute("data-drawn", "true");
      }
      cells.forEach(function (c) { tr.appendChild(c); });
      body.appendChild(tr);
    };

    var update = function () {
      var s = read();
      if (s.bad) { message.show("Not a setting: " + s.bad.join("; ") + ". The table still shows the last result."); return; }
      var size = m.lengthBytesUTF8(prompt.value) + 1, ptr = m._malloc(size);
      m.stringToUTF8(prompt.value, ptr, size);
      var r = m._wb_read(ptr, bos.checked ? 1 : 0);
      m._free(ptr);
      if (r === 0) r = m._wb_sample(s.temperature, s.topK, s.topP, s.seed);
      if (r !== 0) { message.show("The library refused this: " + m.UTF8ToString(m._wb_error()) + ". The table still shows the last result."); return; }
      message.show("");
      var raw = W.doubles(m, m._wb_raw(), V), q = W.doubles(m, m._wb_dist(), V);
      var drawn = m._wb_drawn(), kept = m._wb_kept();
      body.textContent = "";
      for (var i = 0; i < SHOWN && i < V; ++i) row(m._wb_ranked(i), q, raw, drawn, false);
      if (m._wb_rank_of(drawn) >= SHOWN) row(drawn, q, raw, drawn, true);
      var n = m._wb_read_ids();
      fields.read.textContent = String(n) + (bos.checked ? " (with BOS)" : "") +
        (m._wb_was_cut() ? ", cut to the context" : "");
      fields.kept.textContent = kept + " of " + V;
      fields.mass.textContent = W.fixed(m._wb_kept_mass());
      fields.entropy.textContent = W.fixed(m._wb_entropy(), 3) + " (the model: " + W.fixed(m._wb_raw_entropy(), 3) +
        "; uniform: " + W.fixed(Math.log(V), 3) + ")";
      fields.drawn.textContent = "";
      fields.drawn.appendChild(el("code", { text: token(drawn) }));
      fields.drawn.appendChild(document.createTextNode(" (id " + drawn + ", rank " + (m._wb_rank_of(drawn) + 1) +
        ", probability " + prob(q[drawn]) + ")"));
      append.disabled = token(drawn) === "<EOS>" || token(drawn) === "<BOS>";
      section.dataset.drawn = String(drawn);
      last = s;
      var events = [];
      if (s.temperature === 0) events.push("greedy");
      if (s.temperature > 0 && s.temperature < 1) events.push("cooled");
      if (s.temperature > 1) events.push("heated");
      if (s.topK >= 1 && s.topK < V) events.push("top-k-cut");
      if (s.topP < 1) events.push("top-p-cut");
      W.report(section, events);
    };

    form.addEventListener("submit", function (e) { e.preventDefault(); });
    prompt.addEventListener("input", update);
    bos.addEventListener("change", update);
    FIELDS.forEach(function (f) { inputs[f[0]].addEventListener("input", update); });
    append.addEventListener("click", function () {
      if (!last) return;
      if (m._wb_append() !== 0) { message.show("Nothing appended: " + m.UTF8ToString(m._wb_error()) + "."); return; }
      prompt.value = m.UTF8ToString(m._wb_text());
      update();
    });
    reset.addEventListener("click", function () {
      FIELDS.forEach(function (f) { inputs[f[0]].value = inputs[f[0]].defaultValue; });
      update();
    });
    again.addEventListener("click", function () {
      prompt.value = prompt.defaultValue;
      bos.checked = false;
      update();
    });
    update();
  }

  W.start("sampling", build);
})();
