/* What every workbench's page script shares (book/workbench/NAME/NAME.js).
 *
 * A chapter's ::: {.workbench name=NAME} div becomes
 * <section class="workbench" data-workbench="NAME">, followed by three
 * scripts: NAME-module.js (the book's C++ compiled to WebAssembly, which
 * defines createNAMEWorkbench(), NAME capitalised), this file, and
 * NAME.js, which calls BookWorkbench.start(NAME, build). start() loads
 * the module once and calls build(section, module) for each section;
 * build fills the section's .workbench-app and, as the reader works, calls
 * BookWorkbench.report(section, events) with the names of book.yaml's
 * events that now hold, for the page's progress script.
 *
 * Loaded once per workbench on a page; the second load keeps the first.
 */
(function () {
  "use strict";
  if (window.BookWorkbench) return;

  /* An element with attributes ("text" sets its text, "className" its
     class) and children. */
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") e.textContent = attrs[k];
        else if (k === "className") e.className = attrs[k];
        else e.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }

  /* Six decimals, as in the chapters' tables; never "-0.000000". */
  function fixed(v, digits) {
    var s = v.toFixed(digits === undefined ? 6 : digits);
    return /^-0\.0+$/.test(s) ? s.slice(1) : s;
  }

  /* A number as typed: a decimal number (a leading "+" or "-", the
     Unicode minus, an exponent) or null. */
  function parseNumber(text) {
    var s = String(text).trim().replace(/\u2212/g, "-");
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
    var v = Number(s);
    return isFinite(v) ? v : null;
  }

  /* Copies n doubles out of the module's memory at byte address ptr. */
  function doubles(m, ptr, n) {
    return Array.prototype.slice.call(m.HEAPF64.subarray(ptr / 8, ptr / 8 + n));
  }

  /* Tells the page's progress script (book/progress.js) which of the
     workbench's events hold now. */
  function report(section, events) {
    section.dispatchEvent(new CustomEvent("workbench-state", { bubbles: true, detail: { events: events } }));
  }

  /* A status line for messages (a field that is not a number, an input
     the library refuses); hidden while empty. */
  function message(section) {
    var p = el("p", { className: "workbench-message", role: "status", "aria-live": "polite" });
    p.hidden = true;
    return {
      node: p,
      show: function (text) {
        p.textContent = text;
        p.hidden = !text;
        section.classList.toggle("workbench-stale", !!text);
      }
    };
  }

  /* Text fields for numeric settings, one per [key, label, "whole" or
     "number", least, most] of `fields`, each starting at values[key] and
     with an id from `id`. Returns the row of labelled fields (block), the
     inputs by key, and read(): the values by key, or { bad: [...] }
     naming each field that is not a number in its range, which it also
     marks aria-invalid. */
  function settings(id, fields, values) {
    var inputs = {};
    var block = el("div", { className: "workbench-block workbench-row" });
    fields.forEach(function (f) {
      var input = el("input", { type: "text", id: id + "-" + f[0], inputmode: "decimal", autocomplete: "off",
                                spellcheck: "false", className: "workbench-input", "data-field": f[0] });
      input.value = input.defaultValue = String(values[f[0]]);
      inputs[f[0]] = input;
      block.appendChild(el("div", { className: "workbench-field" }, [el("label", { "for": input.id, text: f[1] }), input]));
    });
    var read = function () {
      var s = {}, bad = [];
      fields.forEach(function (f) {
        var input = inputs[f[0]], v = parseNumber(input.value);
        var ok = v !== null && v >= f[3] && v <= f[4] && (f[2] !== "whole" || Math.floor(v) === v);
        input.setAttribute("aria-invalid", ok ? "false" : "true");
        if (ok) s[f[0]] = v;
        else bad.push(f[1] + " (\u201c" + input.value + "\u201d: " +
                      (f[2] === "whole" ? "a whole number" : "a number") + " from " + f[3] + " to " + f[4] + ")");
      });
      return bad.length ? { bad: bad } : s;
    };
    return { block: block, inputs: inputs, read: read };
  }

  /* For a workbench that reads the checkpoint the build trained: loads
     workbench/generate-checkpoint.js (window.BOOK_MODEL_CHECKPOINT, its
     bytes in base64; written for the generating workbench) unless the page
     has it, hands the bytes to the module's wb_load, and calls
     then(app, bytes) with the section's emptied .workbench-app; or says in
     the section what failed. `what` names what is loading ("model"). */
  function withCheckpoint(section, m, what, then) {
    var app = section.querySelector(".workbench-app");
    var status = el("p", { className: "workbench-status", role: "status", text: "Loading the trained " + what + "\u2026" });
    app.appendChild(status);
    var loaded = function () {
      var raw = atob(window.BOOK_MODEL_CHECKPOINT), bytes = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; ++i) bytes[i] = raw.charCodeAt(i);
      var ptr = m._malloc(bytes.length);
      m.HEAPU8.set(bytes, ptr);
      var failed = m._wb_load(ptr, bytes.length) !== 0;
      m._free(ptr);
      if (failed) {
        status.textContent = "The workbench could not load the " + what + ": " + m.UTF8ToString(m._wb_error()) + ".";
        return;
      }
      app.textContent = "";
      then(app, bytes.length);
    };
    if (window.BOOK_MODEL_CHECKPOINT) { loaded(); return; }
    var script = document.createElement("script");
    script.src = "workbench/generate-checkpoint.js";
    script.onload = loaded;
    script.onerror = function () { status.textContent = "The workbench could not start: the checkpoint script did not load."; };
    document.head.appendChild(script);
  }

  function factoryName(name) {
    return "create" + name.charAt(0).toUpperCase() + name.slice(1) + "Workbench";
  }

  function start(name, build) {
    var go = function () {
      var sections = document.querySelectorAll('section.workbench[data-workbench="' + name + '"]');
      if (!sections.length) return;
      var status = function (text) {
        sections.forEach(function (s) {
          var p = s.querySelector(".workbench-status");
          if (p) p.textContent = text;
        });
      };
      var factory = window[factoryName(name)];
      if (typeof factory !== "function" || typeof WebAssembly !== "object") {
        status("The workbench could not start: this browser did not load its WebAssembly module.");
        return;
      }
      status("Loading the workbench\u2026");
      factory().then(function (m) {
        sections.forEach(function (s) {
          s.querySelector(".workbench-app").textContent = "";
          build(s, m);
          s.classList.add("workbench-ready");
        });
      }, function (e) {
        status("The workbench could not start: " + e);
      });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go);
    else go();
  }

  window.BookWorkbench = {
    el: el, fixed: fixed, parseNumber: parseNumber, doubles: doubles,
    report: report, message: message, start: start, factoryName: factoryName,
    withCheckpoint: withCheckpoint, settings: settings
  };
})();
