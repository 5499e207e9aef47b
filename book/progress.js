/* The learner's progress: the four checkpoints of each chapter (predict,
   experiment, implement, explain), kept in localStorage (which works from
   file://) under one key, shown in the sidebar and on the landing page,
   and exported, imported and reset from the landing page.

   The pages hold the checkpoints as plain text with empty slots
   (.checkpoint-entry); this script adds the fields and boxes, so that
   without JavaScript a checkpoint reads as a question and its answer. */
(function () {
  "use strict";

  var KEY = "book-progress";
  var VERSION = 1;

  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(KEY) || "null");
      if (data && data.version === VERSION && data.chapters) return data;
    } catch (e) { /* unreadable or unavailable: start empty */ }
    return { version: VERSION, chapters: {} };
  }

  function save(data) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(data));
      return true;
    } catch (e) {
      return false;
    }
  }

  function storageWorks() {
    try {
      window.localStorage.setItem(KEY + "-probe", "1");
      window.localStorage.removeItem(KEY + "-probe");
      return true;
    } catch (e) {
      return false;
    }
  }

  function stemOf(href) {
    var m = /([^\/?#]+)\.html(?:[?#].*)?$/.exec(href || "");
    return m ? decodeURIComponent(m[1]) : "";
  }

  function el(tag, props, children) {
    var e = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) {
      if (k === "text") e.textContent = props[k];
      else e.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) { e.appendChild(c); });
    return e;
  }

  /* ---- one chapter's checkpoints ------------------------------------ */

  function isDone(kind, record, steps) {
    if (kind === "predict" || kind === "explain") return !!(record[kind] || "").trim();
    if (kind === "implement") return record.implement === true;
    return steps > 0 && Object.keys(record.steps || {}).filter(function (k) {
      return record.steps[k] === true && Number(k) < steps;
    }).length === steps;
  }

  function Chapter(stem, boxes) {
    this.stem = stem;
    this.boxes = boxes;
    this.steps = 0;
    var data = load();
    this.record = data.chapters[stem] || { steps: {} };
    if (!this.record.steps) this.record.steps = {};
  }

  Chapter.prototype.store = function () {
    var data = load();
    var self = this;
    this.record.total = this.boxes.length;
    this.record.done = this.boxes.filter(function (b) {
      return isDone(b.getAttribute("data-checkpoint"), self.record, self.steps);
    }).length;
    data.chapters[this.stem] = this.record;
    save(data);
    this.showStatus();
    markLinks(data);
  };

  Chapter.prototype.showStatus = function () {
    var self = this;
    this.boxes.forEach(function (box) {
      var done = isDone(box.getAttribute("data-checkpoint"), self.record, self.steps);
      box.classList.toggle("checkpoint-done", done);
      var status = box.querySelector(".checkpoint-status");
      if (status) status.textContent = done ? "Done" : "Not done yet";
    });
  };

  Chapter.prototype.textEntry = function (box, kind) {
    var self = this;
    var slot = box.querySelector(".checkpoint-entry");
    if (!slot) return;
    var id = "checkpoint-" + kind + "-text";
    var area = el("textarea", { id: id, rows: "4", spellcheck: "true" });
    area.value = this.record[kind] || "";
    slot.appendChild(el("label", { "for": id, text: kind === "predict" ?
      "Your prediction (write it before you open the answer)" :
      "Your explanation: the result, and one way it goes wrong" }));
    slot.appendChild(area);
    area.addEventListener("input", function () {
      self.record[kind] = area.value;
      self.store();
    });
    var answer = box.querySelector(".checkpoint-answer");
    if (kind !== "predict" || !answer) return;
    var hint = el("p", { "class": "checkpoint-hint", role: "status" });
    answer.parentNode.insertBefore(hint, answer);
    answer.addEventListener("toggle", function () {
      if (!answer.open) return; // closing it below fires this again
      var early = !area.value.trim();
      hint.textContent = early ? "Write your prediction first, then compare." : "";
      if (early) {
        answer.open = false;
        area.focus();
      }
    });
  };

  Chapter.prototype.tickBox = function (slot, id, label, checked, onChange) {
    var box = el("input", { type: "checkbox", id: id });
    box.checked = checked;
    box.addEventListener("change", function () { onChange(box.checked); });
    slot.appendChild(box);
    if (label) slot.appendChild(el("label", { "for": id, text: label }));
    return box;
  };

  Chapter.prototype.experiment = function (box) {
    var self = this;
    var list = box.querySelector("ol, ul");
    if (!list) return;
    var items = Array.prototype.filter.call(list.children, function (li) { return li.tagName === "LI"; });
    this.steps = items.length;
    this.stepBoxes = [];
    list.classList.add("checkpoint-steps");
    items.forEach(function (li, i) {
      var id = "checkpoint-step-" + i;
      var label = el("label", { "for": id, "class": "checkpoint-step-label" });
      while (li.firstChild) label.appendChild(li.firstChild);
      var input = self.tickBox(li, id, "", self.record.steps[i] === true, function (on) {
        self.record.steps[i] = on;
        self.store();
      });
      li.appendChild(label);
      var when = li.querySelector("[data-when]");
      if (when) {
        input.setAttribute("data-when", when.getAttribute("data-when"));
        li.appendChild(el("span", { "class": "checkpoint-auto", text: " (ticks itself when the workbench sees it)" }));
      }
      self.stepBoxes.push(input);
    });
  };

  /* A workbench reports what the reader did (workbench.js dispatches
     "workbench-state" with detail.events, the names a step waits for). */
  Chapter.prototype.listen = function () {
    var self = this;
    document.addEventListener("workbench-state", function (event) {
      var events = (event.detail && event.detail.events) || [];
      var changed = false;
      (self.stepBoxes || []).forEach(function (input, i) {
        if (!input.checked && events.indexOf(input.getAttribute("data-when")) >= 0) {
          input.checked = true;
          self.record.steps[i] = true;
          changed = true;
        }
      });
      if (changed) self.store();
    });
  };

  Chapter.prototype.setup = function () {
    var self = this;
    this.boxes.forEach(function (box) {
      var kind = box.getAttribute("data-checkpoint");
      var title = box.querySelector(".callout-title");
      if (title) title.appendChild(el("span", { "class": "checkpoint-status" }));
      if (kind === "predict" || kind === "explain") self.textEntry(box, kind);
      if (kind === "experiment") self.experiment(box);
      if (kind === "implement") {
        var slot = box.querySelector(".checkpoint-entry");
        if (slot) {
          self.tickBox(slot, "checkpoint-implement-done", "My code passes these tests",
                       self.record.implement === true, function (on) {
                         self.record.implement = on;
                         self.store();
                       });
        }
      }
    });
    this.listen();
    this.showStatus();
  };

  /* ---- the sidebar and the landing page ----------------------------- */

  function markLinks(data) {
    var links = document.querySelectorAll(".sidebar li > a, .chapter-list li > a");
    Array.prototype.forEach.call(links, function (a) {
      var record = data.chapters[stemOf(a.getAttribute("href"))];
      var badge = a.parentNode.querySelector(".progress-badge");
      if (!record || !record.total) {
        if (badge) badge.parentNode.removeChild(badge);
        return;
      }
      if (!badge) {
        badge = el("span", { "class": "progress-badge" });
        a.parentNode.appendChild(badge);
      }
      var done = Math.min(record.done || 0, record.total);
      badge.textContent = done === record.total ? "\u2713 " + done + "/" + record.total : done + "/" + record.total;
      badge.setAttribute("title", done + " of " + record.total + " checkpoints done");
      badge.setAttribute("aria-label", done + " of " + record.total + " checkpoints done");
      badge.classList.toggle("complete", done === record.total);
    });
  }

  function valid(data) {
    if (!data || data.version !== VERSION || typeof data.chapters !== "object" || !data.chapters) return false;
    return Object.keys(data.chapters).every(function (stem) {
      var r = data.chapters[stem];
      return r && typeof r === "object" && (r.steps === undefined || typeof r.steps === "object");
    });
  }

  function landingControls() {
    var landing = document.querySelector(".landing");
    if (!landing) return;
    var status = el("p", { "class": "progress-status", role: "status" });
    var exportButton = el("button", { type: "button", "class": "progress-export", text: "Export progress" });
    var importInput = el("input", { type: "file", id: "progress-import", accept: "application/json,.json", "class": "progress-import" });
    var resetButton = el("button", { type: "button", "class": "progress-reset", text: "Reset progress" });
    var section = el("section", { "class": "progress-panel", "aria-labelledby": "progress-title" }, [
      el("h2", { id: "progress-title", text: "Your progress" }),
      el("p", { text: "What you write and tick in the checkpoints stays in this browser. " +
                      "Save it to a file to move it to another browser." }),
      el("div", { "class": "progress-actions" }, [
        exportButton,
        el("label", { "for": "progress-import", "class": "progress-import-label", text: "Import progress: " }),
        importInput, resetButton]),
      status]);
    landing.parentNode.insertBefore(section, landing);
    exportButton.addEventListener("click", function () {
      var blob = new Blob([JSON.stringify(load(), null, 2) + "\n"], { type: "application/json" });
      var a = el("a", { href: URL.createObjectURL(blob), download: "tiny-llm-progress.json" });
      document.body.appendChild(a);
      a.click();
      document.body.removeChild(a);
      status.textContent = "Saved tiny-llm-progress.json.";
    });
    importInput.addEventListener("change", function () {
      var file = importInput.files && importInput.files[0];
      if (!file) return;
      var reader = new FileReader();
      reader.onload = function () {
        var data = null;
        try { data = JSON.parse(reader.result); } catch (e) { data = null; }
        if (!valid(data)) {
          status.textContent = "Not a progress file of this book; nothing was changed.";
          return;
        }
        save(data);
        markLinks(data);
        status.textContent = "Imported the progress of " + Object.keys(data.chapters).length + " chapters.";
      };
      reader.readAsText(file);
    });
    resetButton.addEventListener("click", function () {
      if (!window.confirm("Forget every prediction, explanation and tick in this browser?")) return;
      try { window.localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
      markLinks(load());
      status.textContent = "Progress reset.";
    });
  }

  function start() {
    if (!storageWorks()) return; // no storage: the checkpoints stay plain text
    var boxes = Array.prototype.slice.call(document.querySelectorAll("[data-checkpoint]"));
    if (boxes.length) new Chapter(stemOf(window.location.pathname), boxes).setup();
    markLinks(load());
    landingControls();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
