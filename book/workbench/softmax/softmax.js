/* The softmax workbench of chapter 11.
 *
 * Fills the chapter's <section class="workbench" data-workbench="softmax">
 * with three editable logits and a temperature, and shows, for the logits
 * divided by the temperature, the library's stable softmax, its
 * log-softmax and the formula as written (no shift), which overflows where
 * the library does not. The numbers come from the chapter's own C++
 * (llm::softmax, llm::log_softmax) compiled to WebAssembly:
 * softmax-module.js defines createSoftmaxWorkbench(), which common.js's
 * BookWorkbench.start loads. Every edit recomputes; a field that is not a
 * number is reported and the table keeps the last result.
 *
 * Events (book.yaml): shifted (every logit moved by the same amount from
 * the chapter's 1 2 3), cooled (T below 1), heated (T above 1),
 * naive-overflows (the formula as written is not a number where the
 * library's softmax is).
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el;
  var N = 3, FIXTURE = [1, 2, 3];
  var uid = 0;

  function makeCompute(m) {
    var x = m._malloc(8 * N), p = m._malloc(8 * N), lp = m._malloc(8 * N), w = m._malloc(8 * N);
    return function (logits, t) {
      m.HEAPF64.set(logits, x / 8);
      if (m._wb_softmax(x, N, t, p, lp, w) !== 0) return { error: m.UTF8ToString(m._wb_error()) };
      return { probs: W.doubles(m, p, N), logProbs: W.doubles(m, lp, N), naive: W.doubles(m, w, N) };
    };
  }

  /* A value as the chapter's tables print it: six decimals, or the word
     for what is not a number. */
  function shown(v) {
    if (Number.isNaN(v)) return "nan";
    if (!isFinite(v)) return v > 0 ? "inf" : "-inf";
    return W.fixed(v);
  }

  function build(section, m) {
    var compute = makeCompute(m);
    var id = "wb-softmax" + (++uid);
    var app = section.querySelector(".workbench-app");
    var fields = [];
    var field = function (label, name, value) {
      var input = el("input", {
        type: "text", id: id + "-" + name, inputmode: "decimal", autocomplete: "off",
        spellcheck: "false", className: "workbench-input", "data-field": name
      });
      input.value = input.defaultValue = String(value);
      fields.push(input);
      return el("div", { className: "workbench-field" }, [el("label", { "for": input.id, text: label }), input]);
    };
    var logits = el("fieldset", { className: "workbench-token" }, [el("legend", { text: "Logits" })]);
    var row = el("div", { className: "workbench-block workbench-row" });
    for (var i = 0; i < N; ++i) row.appendChild(field("x" + i, "x" + i, FIXTURE[i]));
    logits.appendChild(row);
    var temperature = el("fieldset", { className: "workbench-token" }, [
      el("legend", { text: "Temperature (divides the logits)" }),
      el("div", { className: "workbench-block workbench-row" }, [field("T", "t", 1)])
    ]);
    var reset = el("button", { type: "button", className: "workbench-reset", text: "Chapter's logits" });
    var message = W.message(section);

    var caption = el("caption", { text: "The logits divided by T, and three ways to turn them into probabilities" });
    var head = el("tr", null, [el("td", { className: "workbench-corner" })]);
    for (i = 0; i < N; ++i) head.appendChild(el("th", { scope: "col", className: "num", text: "logit " + i }));
    head.appendChild(el("th", { scope: "col", className: "num", text: "sum" }));
    var body = el("tbody");
    var rows = {};
    [["scaled", "x / T"], ["probs", "softmax (library)"], ["logProbs", "log-softmax (library)"],
     ["naive", "exp(x/T) / \u03a3 exp (as written)"]].forEach(function (r) {
      var tr = el("tr", { "data-row": r[0] }, [el("th", { scope: "row", text: r[1] })]);
      var cells = [];
      for (var k = 0; k <= N; ++k) {
        var td = el("td", { className: "num" });
        tr.appendChild(td);
        cells.push(td);
      }
      rows[r[0]] = cells;
      body.appendChild(tr);
    });
    var table = el("figure", { className: "book-table workbench-table workbench-softmax" }, [
      el("div", { className: "table-wrap" }, [el("table", null, [caption, el("thead", null, [head]), body])])
    ]);

    app.appendChild(el("form", { className: "workbench-form", novalidate: "", "aria-label": "Workbench inputs" }, [
      el("div", { className: "workbench-tokens" }, [logits, temperature]),
      el("div", { className: "workbench-switches" }, [reset])
    ]));
    app.appendChild(message.node);
    app.appendChild(el("div", { className: "workbench-results" }, [table]));
    app.appendChild(el("p", { className: "workbench-legend", text:
      "Each probability row adds up to one when every value is a number; \u201cnan\u201d is 0/0 or \u221e/\u221e, " +
      "what the formula as written gives once an exponential overflows (past e^709.78) or every one underflows." }));

    var put = function (cells, values, sum) {
      values.forEach(function (v, k) {
        cells[k].textContent = shown(v);
        cells[k].dataset.value = String(v);
      });
      cells[N].textContent = sum === null ? "" : shown(sum);
    };
    var total = function (values) { return values.reduce(function (a, b) { return a + b; }, 0); };

    var update = function () {
      var values = [], bad = [];
      fields.forEach(function (input) {
        var v = W.parseNumber(input.value);
        input.setAttribute("aria-invalid", v === null ? "true" : "false");
        if (v === null) bad.push(input.dataset.field + " (\u201c" + input.value + "\u201d)");
        else values.push(v);
      });
      if (bad.length) {
        message.show("Not a number: " + bad.join("; ") + ". The table still shows the last valid row.");
        return;
      }
      var x = values.slice(0, N), t = values[N];
      var r = compute(x, t);
      if (r.error) {
        message.show("The library refused this row: " + r.error + ". The table still shows the last result.");
        return;
      }
      message.show("");
      put(rows.scaled, x.map(function (v) { return v / t; }), null);
      put(rows.probs, r.probs, total(r.probs));
      put(rows.logProbs, r.logProbs, null);
      put(rows.naive, r.naive, total(r.naive));
      var events = [];
      var d = x[0] - FIXTURE[0];
      if (d !== 0 && x.every(function (v, k) { return v - FIXTURE[k] === d; })) events.push("shifted");
      if (t < 1) events.push("cooled");
      if (t > 1) events.push("heated");
      if (r.naive.some(function (v) { return !isFinite(v); })) events.push("naive-overflows");
      W.report(section, events);
    };

    app.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });
    fields.forEach(function (input) { input.addEventListener("input", update); });
    reset.addEventListener("click", function () {
      fields.forEach(function (input) { input.value = input.defaultValue; });
      update();
    });
    update();
  }

  W.start("softmax", build);
})();
