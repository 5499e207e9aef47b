/* The causal-masking workbench of chapter 23.
 *
 * Fills the chapter's <section class="workbench" data-workbench="causal">
 * with one to five editable four-dimensional tokens (the chapter's four to
 * start) and a choice of where the mask acts: before the softmax (the
 * chapter's causal head), nowhere, or after the softmax (the chapter's
 * wrong order). It shows the scores, the scores the softmax reads, the
 * weights with their row sums, and the outputs, each output row compared
 * bit for bit with the same row for the chapter's four tokens under the
 * same mask. The numbers come from the chapter's own C++
 * (llm::causal_self_attention, llm::self_attention) compiled to
 * WebAssembly: causal-module.js defines createCausalWorkbench(), which
 * common.js's BookWorkbench.start loads. Every edit recomputes; a
 * coordinate that is not a number is reported and the tables keep the
 * last result.
 *
 * Events (book.yaml), each with the mask before the softmax unless it
 * names another setting: first-token-edited (only token 0 differs from
 * the chapter's tokens), future-edited (only the last token differs),
 * token-appended (a fifth token after the chapter's four), mask-off,
 * mask-after.
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el, fixed = W.fixed;
  var MODEL = 4, MAX = 5, MIN = 1, CHAPTER = 4;
  /* The chapter's four tokens, and the one a fifth position starts with. */
  var START = [[1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 1, 1], [0, 0, 1, 0], [0, 0, 0, 1]];
  var MASKS = [
    { key: "before", code: 0, label: "Before the softmax (the chapter\u2019s causal head)" },
    { key: "off", code: 1, label: "Off: every query sees every key" },
    { key: "after", code: 2, label: "After the softmax: the future weights set to 0 (the wrong order)" }
  ];
  var MARKS = { allowed: "seen", diagonal: "self", blocked: "blocked" };
  var uid = 0;

  /* Wraps the module's C function wb_causal. */
  function makeCompute(m) {
    var rows = MAX * MODEL, tt = MAX * MAX;
    var x = m._malloc(8 * rows), s = m._malloc(8 * tt), f = m._malloc(8 * tt);
    var p = m._malloc(8 * tt), o = m._malloc(8 * rows);
    return function (tokens, mask) {
      var t = tokens.length / MODEL;
      m.HEAPF64.set(tokens, x / 8);
      if (m._wb_causal(x, t, mask.code, s, f, p, o) !== 0) return { error: m.UTF8ToString(m._wb_error()) };
      return {
        t: t, scores: W.doubles(m, s, t * t), fed: W.doubles(m, f, t * t),
        probs: W.doubles(m, p, t * t), out: W.doubles(m, o, t * MODEL)
      };
    };
  }

  function shown(v) {
    if (v === -Infinity) return "-inf";
    return fixed(v);
  }

  var bits = function (v) { return new BigUint64Array(new Float64Array([v]).buffer)[0]; };

  /* An empty table in a figure; fill() replaces its head and body. */
  function figure(kind, captionText) {
    var caption = el("caption", { text: captionText });
    var thead = el("thead"), tbody = el("tbody");
    var fig = el("figure", { className: "book-table workbench-table workbench-" + kind, "data-table": kind }, [
      el("div", { className: "table-wrap" }, [el("table", null, [caption, thead, tbody])])
    ]);
    return { figure: fig, caption: caption, thead: thead, tbody: tbody };
  }

  /* The header row: `first` over the row names (a blank corner when
     null), a numeric column for each of `names`, then `last`, a text
     column, if given. */
  function headRow(table, first, names, last) {
    var tr = el("tr", null, [first ? el("th", { scope: "col", text: first }) : el("td", { className: "workbench-corner" })]);
    names.forEach(function (n) { tr.appendChild(el("th", { scope: "col", className: "num", text: n })); });
    if (last) tr.appendChild(el("th", { scope: "col", text: last }));
    table.thead.textContent = "";
    table.thead.appendChild(tr);
  }

  function Workbench(section, compute) {
    this.section = section;
    this.compute = compute;
    this.id = "wb-causal" + (++uid);
    this.tokens = [];  // one entry per token: its fieldset and its four fields
    var app = section.querySelector(".workbench-app");
    var self = this;

    this.tokenBox = el("div", { className: "workbench-tokens" });
    this.mask = el("div", { className: "workbench-switches workbench-mask", role: "radiogroup", "aria-label": "Where the causal mask acts" });
    this.mask.appendChild(el("span", { className: "workbench-block-title", text: "Causal mask" }));
    this.radios = MASKS.map(function (mk, i) {
      var input = el("input", { type: "radio", name: self.id + "-mask", id: self.id + "-mask-" + mk.key, value: mk.key,
                                className: "workbench-mask-" + mk.key });
      input.checked = input.defaultChecked = i === 0;
      input.addEventListener("change", function () { self.update(); });
      self.mask.appendChild(el("label", { className: "workbench-switch", "for": input.id },
                               [input, document.createTextNode(" " + mk.label)]));
      return input;
    });
    this.append = el("button", { type: "button", className: "workbench-reset workbench-append", text: "Append a token" });
    this.remove = el("button", { type: "button", className: "workbench-reset workbench-remove", text: "Remove the last token" });
    var reset = el("button", { type: "button", className: "workbench-reset workbench-chapter", text: "Chapter\u2019s tokens" });
    this.message = W.message(section);

    this.scores = figure("scores", "");
    this.fed = figure("fed", "");
    this.probs = figure("probs", "");
    this.out = figure("out", "Outputs y_i = \u03a3_j w_ij v_j (v_j = x_j), against the same rows for the chapter\u2019s four tokens");
    var legend = el("p", { className: "workbench-legend" });
    legend.innerHTML =
      "Rows are queries, columns keys. " +
      "<span class=\"workbench-key diagonal\">self</span>: the query\u2019s own position; " +
      "<span class=\"workbench-key\">seen</span>: an earlier key; " +
      "<span class=\"workbench-key blocked\">blocked</span>: a later key, which the mask hides " +
      "(a weight of exactly zero shows as 0). W_Q = W_V = I, and W_K exchanges features 0 and 1, and 2 and 3, " +
      "as in the chapter; the scores are q_i \u00b7 k_j / \u221a4.";

    app.appendChild(el("form", { className: "workbench-form", novalidate: "", "aria-label": "Workbench inputs" }, [
      this.tokenBox,
      this.mask,
      el("div", { className: "workbench-switches" }, [this.append, this.remove, reset])
    ]));
    app.appendChild(this.message.node);
    app.appendChild(el("div", { className: "workbench-results" }, [this.scores.figure, this.fed.figure]));
    app.appendChild(el("div", { className: "workbench-results" }, [this.probs.figure, this.out.figure]));
    app.appendChild(legend);

    app.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });
    this.append.addEventListener("click", function () {
      self.addToken(START[self.tokens.length]);
      self.update();
    });
    this.remove.addEventListener("click", function () {
      self.tokenBox.removeChild(self.tokens.pop().fieldset);
      self.update();
    });
    reset.addEventListener("click", function () { self.setTokens(START.slice(0, CHAPTER)); });
    this.setTokens(START.slice(0, CHAPTER));
  }

  Workbench.prototype.addToken = function (values) {
    var self = this, t = this.tokens.length;
    var fields = el("div", { className: "workbench-fields" });
    var inputs = values.map(function (v, f) {
      var input = el("input", {
        type: "text", id: self.id + "-t" + t + "f" + f, inputmode: "decimal", autocomplete: "off",
        spellcheck: "false", className: "workbench-input", "data-token": String(t), "data-feature": String(f)
      });
      input.value = input.defaultValue = String(v);
      input.addEventListener("input", function () { self.update(); });
      fields.appendChild(el("div", { className: "workbench-field" }, [el("label", { "for": input.id, text: "feature " + f }), input]));
      return input;
    });
    var fieldset = el("fieldset", { className: "workbench-token", "data-token": String(t) }, [
      el("legend", { text: "Token " + t + " (position " + t + ")" }), fields
    ]);
    this.tokenBox.appendChild(fieldset);
    this.tokens.push({ fieldset: fieldset, inputs: inputs });
  };

  Workbench.prototype.setTokens = function (rows) {
    this.tokenBox.textContent = "";
    this.tokens = [];
    rows.forEach(this.addToken, this);
    this.update();
  };

  Workbench.prototype.maskSetting = function () {
    for (var i = 0; i < MASKS.length; ++i) if (this.radios[i].checked) return MASKS[i];
    return MASKS[0];
  };

  /* Reads the fields; recomputes, or reports what is wrong and keeps the
     last result. */
  Workbench.prototype.update = function () {
    var t = this.tokens.length, values = [], bad = [];
    this.append.disabled = t >= MAX;
    this.remove.disabled = t <= MIN;
    this.tokens.forEach(function (tok, i) {
      tok.inputs.forEach(function (input, f) {
        var v = W.parseNumber(input.value);
        input.setAttribute("aria-invalid", v === null ? "true" : "false");
        if (v === null) bad.push("token " + i + ", feature " + f + " (\u201c" + input.value + "\u201d)");
        else values.push(v);
      });
    });
    if (bad.length) {
      this.message.show("Not a number: " + bad.join("; ") + ". The tables still show the last valid tokens.");
      return;
    }
    var mask = this.maskSetting();
    var r = this.compute(values, mask);
    if (r.error) {
      this.message.show("The head refused these tokens: " + r.error + ". The tables still show the last result.");
      return;
    }
    var reference = this.compute([].concat.apply([], START.slice(0, CHAPTER)), mask);
    this.message.show("");
    this.render(r, reference, mask);
    this.report(values, mask);
  };

  /* A query-by-key table of t x t values, each cell marked by what the
     mask does there; `sums` adds a row-sum column. */
  Workbench.prototype.grid = function (table, r, values, mask, show, sums) {
    var t = r.t, names = [];
    for (var k = 0; k < t; ++k) names.push("key " + k);
    if (sums) names.push("row sum");
    headRow(table, null, names);
    table.tbody.textContent = "";
    for (var q = 0; q < t; ++q) {
      var tr = el("tr", null, [el("th", { scope: "row", text: "query " + q })]);
      var total = 0;
      for (k = 0; k < t; ++k) {
        var v = values[q * t + k];
        total += v;
        var kind = mask.key !== "off" && k > q ? "blocked" : k === q ? "diagonal" : "allowed";
        var cell = el("td", { className: "num " + (kind === "diagonal" ? "allowed diagonal" : kind) }, [
          el("span", { className: "workbench-value", text: show(v) }),
          el("span", { className: "cell-mark", text: MARKS[kind] })
        ]);
        cell.dataset.value = String(v);
        cell.dataset.kind = kind;
        tr.appendChild(cell);
      }
      if (sums) {
        var sum = el("td", { className: "num workbench-sum", text: fixed(total) });
        sum.dataset.value = String(total);
        tr.appendChild(sum);
      }
      table.tbody.appendChild(tr);
    }
  };

  Workbench.prototype.render = function (r, reference, mask) {
    var before = mask.key === "before";
    this.scores.caption.textContent = "Scores q_i \u00b7 k_j / \u221ad, before any mask";
    this.fed.caption.textContent = before ? "Masked scores: what the softmax reads (\u2212\u221e over every later key)"
                                          : "What the softmax reads: every score, " +
                                            (mask.key === "off" ? "for there is no mask" : "for the mask acts afterwards");
    this.probs.caption.textContent = "Attention weights" +
      (before ? "" : mask.key === "off" ? ", no mask" : ", the later keys set to 0 after the softmax");
    this.grid(this.scores, r, r.scores, mask, shown, false);
    this.grid(this.fed, r, r.fed, mask, shown, false);
    this.grid(this.probs, r, r.probs, mask, function (v) { return v === 0 ? "0" : fixed(v); }, true);

    var names = [];
    for (var f = 0; f < MODEL; ++f) names.push("feature " + f);
    headRow(this.out, "token", names, "against the chapter\u2019s tokens");
    this.out.tbody.textContent = "";
    for (var i = 0; i < r.t; ++i) {
      var tr = el("tr", null, [el("th", { scope: "row", text: String(i) })]);
      var moved = 0, same = true;
      for (f = 0; f < MODEL; ++f) {
        var v = r.out[i * MODEL + f];
        var cell = el("td", { className: "num", text: fixed(v) });
        cell.dataset.value = String(v);
        tr.appendChild(cell);
        if (i < CHAPTER) {
          var w = reference.out[i * MODEL + f];
          same = same && bits(v) === bits(w);
          moved = Math.max(moved, Math.abs(v - w));
        }
      }
      var verdict = i >= CHAPTER ? "a new row" : same ? "same bits" : "moved by up to " + fixed(moved);
      var note = el("td", { className: "workbench-verdict", text: verdict });
      note.dataset.same = i >= CHAPTER ? "new" : same ? "true" : "false";
      note.dataset.moved = String(moved);
      tr.appendChild(note);
      this.out.tbody.appendChild(tr);
    }
  };

  /* Tells the page's progress script what the reader has done, as the
     names an experiment step waits for (see chapters/README.md). */
  Workbench.prototype.report = function (values, mask) {
    var t = this.tokens.length, changed = [];
    for (var i = 0; i < t; ++i) {
      changed.push(START[i].some(function (v, f) { return values[i * MODEL + f] !== v; }));
    }
    var onlyChanged = function (which) {
      return t >= 2 && changed.every(function (c, i) { return c === (i === which); });
    };
    var events = [];
    if (mask.key === "off") events.push("mask-off");
    if (mask.key === "after") events.push("mask-after");
    if (mask.key === "before") {
      if (onlyChanged(0)) events.push("first-token-edited");
      if (onlyChanged(t - 1)) events.push("future-edited");
      if (t > CHAPTER && changed.slice(0, CHAPTER).every(function (c) { return !c; })) events.push("token-appended");
    }
    W.report(this.section, events);
  };

  W.start("causal", function (section, m) { new Workbench(section, makeCompute(m)); });
})();
