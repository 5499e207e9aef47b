/* The RoPE workbench of chapter 24.
 *
 * Fills the chapter's <section class="workbench" data-workbench="rope">
 * with an editable query and key of eight features (the demo's head) and
 * their positions m and n, a switch that leaves the key unrotated, and
 * shows the rotated query and key, the score q . k before and after the
 * rotation, and the rotated score of the same q and k at other positions:
 * three distances m - n (the reader's and its neighbours) in the columns,
 * four places in the sequence in the rows. The numbers come from the
 * chapter's own C++ (llm::Rope::apply, base 10000) compiled to
 * WebAssembly: rope-module.js defines createRopeWorkbench(), which
 * common.js's BookWorkbench.start loads. Every edit recomputes; a field
 * that is not a number, or a position that is not a whole number from 0
 * to 1023, is reported and the tables keep the last result.
 *
 * Events (book.yaml): both-moved (m - n is still the chapter's 1, but the
 * positions are not 1 and 0), distance-changed (m - n is not 1),
 * same-position (m = n), key-is-query (every feature of the key equals
 * the query's), key-unrotated (the switch is off).
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el;
  var DIM = 8, PAIRS = DIM / 2, LAST_POSITION = 1023;
  /* The demo's query and key, at positions 1 and 0 (relative()). */
  var FIXTURE = {
    q: [0.5, -1, 0.25, 2, -0.75, 1.5, 1, -0.5],
    k: [1, 0.5, -1.5, 0.25, 2, -1, 0.5, 0.75],
    m: 1, n: 0
  };
  var PLACES = [0, 3, 100, 1000]; // the smaller position of a pair: the demo's n
  var uid = 0;

  function makeCompute(m) {
    var q = m._malloc(8 * DIM), k = m._malloc(8 * DIM), out = m._malloc(8 * 2 * DIM), s = m._malloc(8 * 2);
    return function (query, key, pm, pn, rotateKey) {
      m.HEAPF64.set(query, q / 8);
      m.HEAPF64.set(key, k / 8);
      if (m._wb_rope(q, k, pm, pn, rotateKey ? 1 : 0, out, s) !== 0) return { error: m.UTF8ToString(m._wb_error()) };
      var rotated = W.doubles(m, out, 2 * DIM), scores = W.doubles(m, s, 2);
      return { q: rotated.slice(0, DIM), k: rotated.slice(DIM), plain: scores[0], score: scores[1] };
    };
  }

  /* As C's %.1e prints it: 2.7e-14, 0.0e+00. */
  function exp1(v) {
    return v.toExponential(1).replace(/e([+-])(\d)$/, "e$10$2");
  }

  /* The positions of a pair at distance d whose smaller position is low. */
  function pair(low, d) {
    return d >= 0 ? { m: low + d, n: low } : { m: low, n: low - d };
  }

  function length(v) {
    return Math.sqrt(v.reduce(function (s, x) { return s + x * x; }, 0));
  }

  /* A table in the book's style: caption, column heads, rows of a head
     and cells; returns the figure and the cells by row. */
  function table(className, captionText, corner, columns, rowHeads) {
    var head = el("tr", null, [corner ? el("th", { scope: "col", text: corner }) : el("td", { className: "workbench-corner" })]);
    var heads = columns.map(function (c) {
      var th = el("th", { scope: "col", className: "num", text: c });
      head.appendChild(th);
      return th;
    });
    var body = el("tbody");
    var cells = rowHeads.map(function (r) {
      var tr = el("tr", null, [el("th", { scope: "row", text: r })]);
      var row = columns.map(function () {
        var td = el("td", { className: "num" });
        tr.appendChild(td);
        return td;
      });
      body.appendChild(tr);
      return row;
    });
    var caption = el("caption", { text: captionText });
    var figure = el("figure", { className: "book-table workbench-table " + className }, [
      el("div", { className: "table-wrap" }, [el("table", null, [caption, el("thead", null, [head]), body])])
    ]);
    return { figure: figure, cells: cells, heads: heads, caption: caption };
  }

  function put(cell, value, text) {
    cell.dataset.value = String(value);
    cell.textContent = text === undefined ? W.fixed(value) : text;
  }

  function build(section, m) {
    var compute = makeCompute(m);
    var id = "wb-rope" + (++uid);
    var app = section.querySelector(".workbench-app");
    var fields = { q: [], k: [] }, positions = {};

    var input = function (name, label) {
      var i = el("input", {
        type: "text", id: id + "-" + name, inputmode: "decimal", autocomplete: "off",
        spellcheck: "false", className: "workbench-input", "data-field": name
      });
      return { input: i, node: el("div", { className: "workbench-field" }, [el("label", { "for": i.id, text: label }), i]) };
    };
    /* One vector: its position, then its four pairs of features. */
    var vector = function (v, title, position) {
      var p = input(position, "position " + position);
      positions[position] = p.input;
      var pairs = el("div", { className: "workbench-fields" });
      for (var j = 0; j < PAIRS; ++j) {
        var block = el("div", { className: "workbench-block", role: "group", "aria-label": "pair " + j + " of " + v }, [
          el("span", { className: "workbench-block-title", "aria-hidden": "true", text: "pair " + j })
        ]);
        for (var f = 2 * j; f < 2 * j + 2; ++f) {
          var x = input(v + f, v + "[" + f + "]");
          x.input.dataset.vector = v;
          fields[v].push(x.input);
          block.appendChild(x.node);
        }
        pairs.appendChild(block);
      }
      return el("fieldset", { className: "workbench-token" }, [
        el("legend", { text: title }),
        el("div", { className: "workbench-block workbench-row" }, [p.node]),
        pairs
      ]);
    };
    var rotateKey = el("input", { type: "checkbox", id: id + "-rotate-key", className: "workbench-rotate-key" });
    rotateKey.checked = rotateKey.defaultChecked = true;
    var reset = el("button", { type: "button", className: "workbench-reset", text: "Chapter's query and key" });
    var message = W.message(section);

    var scores = table("workbench-rope-scores", "The score before and after the rotation", null, ["score"],
                       ["q \u00b7 k, not rotated", "rotated"]);
    var rowHeads = [];
    for (var f = 0; f < DIM; ++f) rowHeads.push(String(f));
    rowHeads.push("length");
    var vectors = table("workbench-rope-vectors",
                        "The query and the key, before and after the rotation (features 2j and 2j + 1 are pair j)",
                        "feature", ["q", "rotated q", "k", "rotated k"], rowHeads);
    var grid = table("workbench-rope-grid",
                     "", "smaller position", ["", "", ""], PLACES.map(String).concat(["largest change"]));

    app.appendChild(el("form", { className: "workbench-form", novalidate: "", "aria-label": "Workbench inputs" }, [
      el("div", { className: "workbench-tokens" }, [
        vector("q", "Query q, rotated for position m", "m"),
        vector("k", "Key k, rotated for position n", "n")
      ]),
      el("div", { className: "workbench-switches" }, [
        el("label", { className: "workbench-switch", "for": rotateKey.id }, [
          rotateKey, document.createTextNode(" Rotate the key too (off: only the query turns)")
        ]),
        reset
      ])
    ]));
    app.appendChild(message.node);
    app.appendChild(el("div", { className: "workbench-results" }, [scores.figure, vectors.figure]));
    app.appendChild(grid.figure);
    app.appendChild(el("p", { className: "workbench-legend", text:
      "Positions run from 0 to 1023; the last table moves the pair up to 1000 places further (the tables hold " +
      "2048 positions). Down a column the distance stays and, in exact arithmetic, so does the score; row " +
      "\u201clargest change\u201d is the largest difference from the first row, the rounding of the angles." }));

    var setAll = function () {
      fields.q.forEach(function (i, f) { i.value = i.defaultValue = String(FIXTURE.q[f]); });
      fields.k.forEach(function (i, f) { i.value = i.defaultValue = String(FIXTURE.k[f]); });
      positions.m.value = positions.m.defaultValue = String(FIXTURE.m);
      positions.n.value = positions.n.defaultValue = String(FIXTURE.n);
      rotateKey.checked = true;
    };

    /* The fields as numbers, or the list of what is wrong. */
    var read = function () {
      var bad = [], v = { q: [], k: [] };
      ["q", "k"].forEach(function (name) {
        fields[name].forEach(function (i) {
          var x = W.parseNumber(i.value);
          i.setAttribute("aria-invalid", x === null ? "true" : "false");
          if (x === null) bad.push(i.dataset.field + " (\u201c" + i.value + "\u201d)");
          else v[name].push(x);
        });
      });
      ["m", "n"].forEach(function (name) {
        var i = positions[name], x = W.parseNumber(i.value);
        var ok = x !== null && Number.isInteger(x) && x >= 0 && x <= LAST_POSITION;
        i.setAttribute("aria-invalid", ok ? "false" : "true");
        if (ok) v[name] = x;
        else bad.push(name + " (\u201c" + i.value + "\u201d is not a whole number from 0 to " + LAST_POSITION + ")");
      });
      return bad.length ? { bad: bad } : v;
    };

    var update = function () {
      var v = read();
      if (v.bad) {
        message.show("Not usable: " + v.bad.join("; ") + ". The tables still show the last valid query and key.");
        return;
      }
      var rot = rotateKey.checked;
      var r = compute(v.q, v.k, v.m, v.n, rot);
      var d = v.m - v.n, distances = [d - 1, d, d + 1], cells = [];
      for (var row = 0; row < PLACES.length && !r.error; ++row) {
        cells.push(distances.map(function (dist) {
          var p = pair(PLACES[row], dist), c = compute(v.q, v.k, p.m, p.n, rot);
          if (c.error) r = c;
          return { pair: p, score: c.score };
        }));
      }
      if (r.error) {
        message.show("The library refused this query and key: " + r.error + ". The tables still show the last result.");
        return;
      }
      message.show("");
      put(scores.cells[0][0], r.plain);
      put(scores.cells[1][0], r.score);
      scores.cells[1][0].parentNode.firstChild.textContent =
        rot ? "rotated, m = " + v.m + ", n = " + v.n : "query rotated (m = " + v.m + "), key not";
      [v.q, r.q, v.k, r.k].forEach(function (vec, col) {
        vec.forEach(function (x, f) { put(vectors.cells[f][col], x); });
        put(vectors.cells[DIM][col], length(vec));
      });
      grid.caption.textContent = "The rotated score of the same q and k at other positions, " +
        "one distance a column; yours, m \u2212 n = " + d + ", in the middle";
      distances.forEach(function (dist, col) {
        grid.heads[col].textContent = "m \u2212 n = " + dist;
        var worst = 0;
        cells.forEach(function (row, i) {
          var c = row[col], td = grid.cells[i][col];
          put(td, c.score);
          td.title = "m = " + c.pair.m + ", n = " + c.pair.n;
          worst = Math.max(worst, Math.abs(c.score - cells[0][col].score));
        });
        put(grid.cells[PLACES.length][col], worst, exp1(worst));
      });
      var events = [];
      if (d === FIXTURE.m - FIXTURE.n && v.m !== FIXTURE.m) events.push("both-moved");
      if (d !== FIXTURE.m - FIXTURE.n) events.push("distance-changed");
      if (v.m === v.n) events.push("same-position");
      if (v.q.every(function (x, f) { return x === v.k[f]; })) events.push("key-is-query");
      if (!rot) events.push("key-unrotated");
      W.report(section, events);
    };

    app.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });
    fields.q.concat(fields.k, [positions.m, positions.n]).forEach(function (i) { i.addEventListener("input", update); });
    rotateKey.addEventListener("change", update);
    reset.addEventListener("click", function () { setAll(); update(); });
    setAll();
    update();
  }

  W.start("rope", build);
})();
