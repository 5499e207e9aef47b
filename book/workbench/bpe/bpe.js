/* The tokenizer workbench of chapter 04 (with chapter 03's merges).
 *
 * Fills the chapter's <section class="workbench" data-workbench="bpe">
 * with a text field and shows, as the reader types, the text's tokens
 * (their bytes and ids) and, word by word, the merges applied to turn the
 * word's bytes into them, in order. The tokenizer is the one in the
 * checkpoint the build trained (generate-checkpoint.js, which the
 * generating workbench of chapter 34 also reads); the steps come from the
 * book's C++ (split_words, merge_pair, the tokenizer's merges) compiled
 * to WebAssembly: bpe-module.js defines createBpeWorkbench(), which
 * common.js's BookWorkbench.start loads.
 *
 * Events (book.yaml), as the text is: edited (not the chapter's
 * sentence), rare-word (a word that stays five tokens or more), non-ascii
 * (a character beyond ASCII, several bytes), digits (a digit).
 */
(function () {
  "use strict";

  var W = window.BookWorkbench, el = W.el;
  var SENTENCE = "The kettle sang, and the cat slept.";
  var MAX_WORDS = 40;
  var decoder = new TextDecoder("utf-8");

  /* A token's bytes as the chapter's tables show them: a space as ␣, a
     newline as ↵, a tab as →; bytes that are not whole characters as
     <xx>. */
  function visible(bytes) {
    var text = decoder.decode(new Uint8Array(bytes));
    if (text.indexOf("\ufffd") >= 0) {
      return bytes.map(function (b) { return b < 0x80 ? String.fromCharCode(b) : "<" + b.toString(16) + ">"; }).join("")
        .replace(/ /g, "\u2423").replace(/\n/g, "\u21b5").replace(/\t/g, "\u2192");
    }
    return text.replace(/ /g, "\u2423").replace(/\n/g, "\u21b5").replace(/\t/g, "\u2192");
  }

  function build(section, m) {
    W.withCheckpoint(section, m, "tokenizer", function (app, bytes) { page(section, app, m); });
  }

  function page(section, app, m) {
    var text = el("textarea", { id: "wb-bpe-text", className: "workbench-input workbench-prompt", rows: "2", spellcheck: "false" });
    text.value = text.defaultValue = SENTENCE;
    var reset = el("button", { type: "button", className: "workbench-reset", text: "Chapter's sentence" });
    var message = W.message(section);
    var summary = el("p", { className: "workbench-legend workbench-summary", role: "status" });
    var strip = el("ol", { className: "workbench-tokens-strip", "aria-label": "The tokens, in order" });
    var caption = el("caption", { text: "Word by word: the merges applied, earliest learned first" });
    var body = el("tbody");
    var table = el("figure", { className: "book-table workbench-table workbench-merges" }, [
      el("div", { className: "table-wrap" }, [el("table", null, [caption, el("thead", null, [el("tr", null, [
        el("th", { scope: "col", text: "word" }), el("th", { scope: "col", text: "merges (new id: left + right)" }),
        el("th", { scope: "col", className: "num", text: "tokens" })])]), body])])
    ]);
    app.appendChild(el("form", { className: "workbench-form", novalidate: "", "aria-label": "Text to tokenize" }, [
      el("div", { className: "workbench-field" }, [el("label", { "for": text.id, text: "Text" }), text]),
      el("div", { className: "workbench-switches" }, [reset])
    ]));
    app.appendChild(message.node);
    app.appendChild(summary);
    app.appendChild(strip);
    app.appendChild(table);

    var update = function () {
      var value = text.value;
      var size = m.lengthBytesUTF8(value) + 1, p = m._malloc(size);
      m.stringToUTF8(value, p, size);
      var failed = m._wb_encode(p) !== 0;
      m._free(p);
      if (failed) { message.show("The tokenizer refused this text: " + m.UTF8ToString(m._wb_error()) + ". The tokens below are the last text's."); return; }
      message.show("");
      var r = JSON.parse(m.UTF8ToString(m._wb_result()));
      var piece = function (id) { return r.pieces[String(id)]; };
      summary.textContent = r.bytes + (r.bytes === 1 ? " byte, " : " bytes, ") + r.words.length +
        (r.words.length === 1 ? " word, " : " words, ") + r.tokens.length + (r.tokens.length === 1 ? " token" : " tokens");
      strip.textContent = "";
      r.tokens.forEach(function (id) {
        strip.appendChild(el("li", { className: "workbench-token-chip" + (id < 256 ? " byte" : ""), "data-id": String(id) }, [
          el("span", { className: "workbench-token-text", text: visible(piece(id)) }),
          el("span", { className: "workbench-token-id", text: String(id) })
        ]));
      });
      body.textContent = "";
      var rare = false;
      r.words.forEach(function (w, i) {
        var count = w.steps.length ? w.steps[w.steps.length - 1].after.length : w.bytes.length;
        if (count >= 5) rare = true;
        if (i >= MAX_WORDS) return;
        var merges = w.steps.map(function (s) {
          return s.id + ": " + visible(piece(s.left)) + " + " + visible(piece(s.right)) + (s.replaced > 1 ? " (\u00d7" + s.replaced + ")" : "");
        }).join(", ");
        body.appendChild(el("tr", null, [
          el("th", { scope: "row", className: "workbench-word", text: visible(w.bytes) }),
          el("td", { text: merges || "none: the word stays bytes" }),
          el("td", { className: "num", text: String(count) })
        ]));
      });
      if (r.words.length > MAX_WORDS) {
        body.appendChild(el("tr", null, [el("td", { colspan: "3", text: "\u2026 and " + (r.words.length - MAX_WORDS) + " more words" })]));
      }
      var events = [];
      if (value !== SENTENCE) events.push("edited");
      if (rare) events.push("rare-word");
      if (/[^\x00-\x7f]/.test(value)) events.push("non-ascii");
      if (/[0-9]/.test(value)) events.push("digits");
      W.report(section, events);
    };

    app.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });
    text.addEventListener("input", update);
    reset.addEventListener("click", function () { text.value = text.defaultValue; update(); });
    update();
  }

  W.start("bpe", build);
})();
