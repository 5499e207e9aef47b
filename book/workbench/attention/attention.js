/* The multi-head attention workbench of chapter 25.
 *
 * Fills the chapter's <section class="workbench" data-workbench="attention">
 * (litbook renders one for a ::: {.workbench name=attention} div) with three editable four-dimensional tokens, the
 * causal-mask switch and the broken-split switch, and shows both heads'
 * attention probabilities and the concatenated head outputs. The numbers
 * come from the chapter's own C++ (llm::attention_workbench) compiled to
 * WebAssembly: attention-module.js defines createAttentionWorkbench(),
 * which common.js's BookWorkbench.start loads. Every edit recomputes; a coordinate that is not
 * a number is reported and the tables keep the last result.
 */
(function () {
  "use strict";

  var TOKENS = 3, MODEL = 4, HEADS = 2, HEAD_WIDTH = MODEL / HEADS;
  var PROBS = HEADS * TOKENS * TOKENS, ROWS = TOKENS * MODEL;

  /* The chapter's fixture: in head 0's features token t is
     [cos t, -sin t], in head 1's features [1, 0], [0, 1], [1, 1]. */
  function fixture() {
    var x = [];
    var head1 = [[1, 0], [0, 1], [1, 1]];
    for (var t = 0; t < TOKENS; ++t) {
      x.push(Math.cos(t), -Math.sin(t), head1[t][0], head1[t][1]);
    }
    return x.map(function (v) { return v === 0 ? 0 : v; }); // no -0
  }

  var W = window.BookWorkbench, el = W.el, fixed = W.fixed, parseCoordinate = W.parseNumber;

  /* Wraps the module's C function wb_attention. */
  function makeCompute(m) {
    var tokensPtr = m._malloc(8 * ROWS);
    var probsPtr = m._malloc(8 * PROBS);
    var concatPtr = m._malloc(8 * ROWS);
    return function (tokens, causal, reuse) {
      m.HEAPF64.set(tokens, tokensPtr / 8);
      if (m._wb_attention(tokensPtr, causal ? 1 : 0, reuse ? 1 : 0, probsPtr, concatPtr) !== 0) {
        return { error: m.UTF8ToString(m._wb_error()) };
      }
      return { probs: W.doubles(m, probsPtr, PROBS), concat: W.doubles(m, concatPtr, ROWS) };
    };
  }

  /* The words the chapter's tables put in each cell. */
  var MARKS = { allowed: "seen", diagonal: "self", blocked: "blocked" };

  var uid = 0;

  function Workbench(section, compute) {
    var app = section.querySelector(".workbench-app");
    var id = "wb" + (++uid);
    this.compute = compute;
    this.inputs = [];

    /* The tokens: one group of four fields per token. */
    var tokens = el("div", { className: "workbench-tokens" });
    for (var t = 0; t < TOKENS; ++t) {
      var fields = el("div", { className: "workbench-fields" });
      for (var h = 0; h < HEADS; ++h) {
        var group = el("div", { className: "workbench-block", role: "group", "aria-label": "head " + h + "\u2019s features" }, [
          el("span", { className: "workbench-block-title", "aria-hidden": "true", text: "head " + h })
        ]);
        for (var f = h * HEAD_WIDTH; f < (h + 1) * HEAD_WIDTH; ++f) {
          var fieldId = id + "-t" + t + "f" + f;
          var input = el("input", {
            type: "text", id: fieldId, inputmode: "decimal", autocomplete: "off",
            spellcheck: "false", className: "workbench-input",
            "data-token": String(t), "data-feature": String(f)
          });
          this.inputs.push(input);
          group.appendChild(el("div", { className: "workbench-field" }, [
            el("label", { "for": fieldId, text: "feature " + f }),
            input
          ]));
        }
        fields.appendChild(group);
      }
      tokens.appendChild(el("fieldset", { className: "workbench-token" }, [
        el("legend", { text: "Token " + t + " (position " + t + ")" }),
        fields
      ]));
    }

    /* The switches. */
    this.causal = el("input", { type: "checkbox", id: id + "-causal", className: "workbench-causal" });
    this.causal.checked = this.causal.defaultChecked = true;
    this.reuse = el("input", { type: "checkbox", id: id + "-reuse", className: "workbench-reuse" });
    var reset = el("button", { type: "button", className: "workbench-reset", text: "Chapter's tokens" });
    var switches = el("div", { className: "workbench-switches" }, [
      el("label", { className: "workbench-switch", "for": id + "-causal" }, [
        this.causal, document.createTextNode(" Causal mask (each query sees only earlier keys)")
      ]),
      el("label", { className: "workbench-switch broken", "for": id + "-reuse" }, [
        this.reuse, document.createTextNode(" Broken split: both heads reuse head 0\u2019s slice")
      ]),
      reset
    ]);

    this.message = el("p", { className: "workbench-message", role: "status", "aria-live": "polite" });

    /* The results: one probability table per head, then the outputs. */
    this.probTables = [];
    var results = el("div", { className: "workbench-results" });
    for (var h = 0; h < HEADS; ++h) {
      var table = this.probabilityTable(h);
      this.probTables.push(table);
      results.appendChild(table.figure);
    }
    this.concatTable = this.outputTable();
    var legend = el("p", { className: "workbench-legend" });
    legend.innerHTML =
      "Rows are queries, columns keys; each row sums to one. " +
      "<span class=\"workbench-key diagonal\">self</span>: the query\u2019s own position; " +
      "<span class=\"workbench-key\">seen</span>: another key the query sees; " +
      "<span class=\"workbench-key blocked\">blocked</span>: a later key, hidden by the mask (exactly zero).";

    app.appendChild(el("form", { className: "workbench-form", novalidate: "", "aria-label": "Workbench inputs" }, [
      tokens, switches
    ]));
    app.appendChild(this.message);
    app.appendChild(results);
    app.appendChild(legend);
    app.appendChild(this.concatTable.figure);

    var self = this;
    this.setTokens(fixture());
    app.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });
    this.inputs.forEach(function (input) {
      input.addEventListener("input", function () { self.update(); });
    });
    this.causal.addEventListener("change", function () { self.update(); });
    this.reuse.addEventListener("change", function () { self.update(); });
    reset.addEventListener("click", function () { self.setTokens(fixture()); });
  }

  Workbench.prototype.setTokens = function (values) {
    this.inputs.forEach(function (input, i) {
      input.value = input.defaultValue = String(values[i]); // the attribute too: a printed copy shows it
    });
    this.update();
  };

  Workbench.prototype.probabilityTable = function (h) {
    var first = h * HEAD_WIDTH, last = first + HEAD_WIDTH - 1;
    var caption = el("caption", { text: "Head " + h + " (features " + first + "\u2013" + last + "): attention probabilities" });
    var headRow = el("tr", null, [el("td", { className: "workbench-corner" })]);
    for (var k = 0; k < TOKENS; ++k) headRow.appendChild(el("th", { scope: "col", className: "num", text: "key " + k }));
    var body = el("tbody");
    var cells = [];
    for (var q = 0; q < TOKENS; ++q) {
      var row = el("tr", null, [el("th", { scope: "row", text: "query " + q })]);
      for (k = 0; k < TOKENS; ++k) {
        var cell = el("td", { className: "num" });
        row.appendChild(cell);
        cells.push(cell);
      }
      body.appendChild(row);
    }
    var table = el("table", null, [caption, el("thead", null, [headRow]), body]);
    var figure = el("figure", { className: "book-table workbench-table workbench-probs", "data-head": String(h) },
                    [el("div", { className: "table-wrap" }, [table])]);
    return { figure: figure, cells: cells };
  };

  Workbench.prototype.outputTable = function () {
    var caption = el("caption", { text: "Concatenated head outputs (the rows before W_O)" });
    var groups = el("tr", null, [el("td", { className: "workbench-corner" })]);
    for (var h = 0; h < HEADS; ++h) {
      groups.appendChild(el("th", { scope: "colgroup", colspan: String(HEAD_WIDTH), className: "workbench-group", text: "from head " + h }));
    }
    var headRow = el("tr", null, [el("th", { scope: "col", text: "token" })]);
    for (var f = 0; f < MODEL; ++f) headRow.appendChild(el("th", { scope: "col", className: "num", text: "feature " + f }));
    var body = el("tbody");
    var cells = [];
    for (var t = 0; t < TOKENS; ++t) {
      var row = el("tr", null, [el("th", { scope: "row", text: String(t) })]);
      for (f = 0; f < MODEL; ++f) {
        var cell = el("td", { className: "num" + (f % HEAD_WIDTH === 0 && f ? " group-start" : "") });
        row.appendChild(cell);
        cells.push(cell);
      }
      body.appendChild(row);
    }
    var colgroups = [el("colgroup"), el("colgroup", { span: String(HEAD_WIDTH) }), el("colgroup", { span: String(HEAD_WIDTH) })];
    var table = el("table", null, [caption].concat(colgroups, [el("thead", null, [groups, headRow]), body]));
    var figure = el("figure", { className: "book-table workbench-table workbench-concat" },
                    [el("div", { className: "table-wrap" }, [table])]);
    return { figure: figure, cells: cells };
  };

  /* Reads the fields; recomputes, or reports what is wrong and keeps the
     last result. */
  Workbench.prototype.update = function () {
    if (!this.probTables) return; // during construction
    var tokens = [], bad = [];
    this.inputs.forEach(function (input) {
      var v = parseCoordinate(input.value);
      var ok = v !== null;
      input.setAttribute("aria-invalid", ok ? "false" : "true");
      if (ok) tokens.push(v);
      else bad.push("token " + input.dataset.token + ", feature " + input.dataset.feature +
                    " (\u201c" + input.value + "\u201d)");
    });
    var section = this.message.closest(".workbench");
    if (bad.length) {
      this.showMessage("Not a number: " + bad.join("; ") + ". The tables still show the last valid tokens.");
      section.classList.add("workbench-stale");
      return;
    }
    var causal = this.causal.checked, reuse = this.reuse.checked;
    var r = this.compute(tokens, causal, reuse);
    if (r.error) {
      this.showMessage("The layer refused these tokens: " + r.error + ". The tables still show the last result.");
      section.classList.add("workbench-stale");
      return;
    }
    this.showMessage("");
    section.classList.remove("workbench-stale");
    section.classList.toggle("workbench-broken", reuse);
    this.render(r, causal);
    this.report(section, tokens, causal, reuse);
  };

  /* Tells the page's progress script what the reader has done, as the
     names an experiment step waits for (see chapters/README.md). */
  Workbench.prototype.report = function (section, tokens, causal, reuse) {
    var start = fixture(), tokensChanged = {}, featuresChanged = {}, any = false;
    tokens.forEach(function (v, i) {
      if (v === start[i]) return;
      any = true;
      tokensChanged[Math.floor(i / MODEL)] = true;
      featuresChanged[i % MODEL] = true;
    });
    var only = function (set, allowed) {
      return any && Object.keys(set).every(function (k) { return allowed.indexOf(Number(k)) >= 0; });
    };
    var events = [];
    if (!causal) events.push("mask-off");
    if (reuse) events.push("split-broken");
    if (only(tokensChanged, [TOKENS - 1])) events.push("last-token-only");
    if (only(featuresChanged, [0, 1])) events.push("head0-only");
    if (only(featuresChanged, [2, 3])) events.push("head1-only");
    W.report(section, events);
  };

  Workbench.prototype.showMessage = function (text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  };

  Workbench.prototype.render = function (r, causal) {
    for (var h = 0; h < HEADS; ++h) {
      var cells = this.probTables[h].cells;
      for (var q = 0; q < TOKENS; ++q) {
        for (var k = 0; k < TOKENS; ++k) {
          var i = q * TOKENS + k, v = r.probs[h * TOKENS * TOKENS + i];
          var kind = causal && k > q ? "blocked" : k === q ? "diagonal" : "allowed";
          var cell = cells[i];
          cell.className = "num " + (kind === "diagonal" ? "allowed diagonal" : kind); // as chapter 23's tables
          cell.dataset.value = String(v);
          cell.dataset.kind = kind;
          cell.textContent = "";
          // The value (an exact zero as "0"), then the cell's kind in a
          // word, as in the chapter's tables: not by colour alone.
          cell.appendChild(el("span", { className: "workbench-value", text: v === 0 ? "0" : fixed(v) }));
          cell.appendChild(el("span", { className: "cell-mark", text: MARKS[kind] }));
        }
      }
    }
    this.concatTable.cells.forEach(function (cell, i) {
      cell.dataset.value = String(r.concat[i]);
      cell.textContent = fixed(r.concat[i]);
    });
  };

  W.start("attention", function (section, m) { new Workbench(section, makeCompute(m)); });
})();
