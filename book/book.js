/* The book's small bit of behaviour: theme toggle, copy buttons on code
   listings, the sidebar drawer on narrow screens, "On this page"
   highlighting, search, and opening <details> for printing. Plain JS, no
   network, safe on file://. The inline script in <head> has already set
   data-theme from a saved choice and added the "js" class. */
(function () {
  "use strict";

  var root = document.documentElement;
  var THEME_KEY = "book-theme";

  function storageGet(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function storageSet(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (e) {
      /* storage unavailable: the choice lasts for this page only */
    }
  }

  /* A polite live region for short announcements ("Copied"). */
  var liveRegion = null;
  function announce(text) {
    if (!liveRegion) {
      liveRegion = document.createElement("div");
      liveRegion.className = "sr-only";
      liveRegion.setAttribute("role", "status");
      liveRegion.setAttribute("aria-live", "polite");
      document.body.appendChild(liveRegion);
    }
    liveRegion.textContent = "";
    window.setTimeout(function () {
      liveRegion.textContent = text;
    }, 50);
  }

  /* ---------------------------------------------------------------- */
  /* Theme                                                              */
  /* ---------------------------------------------------------------- */

  var darkQuery = window.matchMedia
    ? window.matchMedia("(prefers-color-scheme: dark)")
    : null;

  function currentTheme() {
    var t = root.getAttribute("data-theme");
    if (t === "light" || t === "dark") return t;
    return darkQuery && darkQuery.matches ? "dark" : "light";
  }

  function setupTheme() {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;

    function sync() {
      var dark = currentTheme() === "dark";
      button.setAttribute("aria-pressed", dark ? "true" : "false");
      button.title = dark ? "Switch to light theme" : "Switch to dark theme";
    }

    button.hidden = false;
    sync();

    button.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      storageSet(THEME_KEY, next);
      sync();
    });

    /* Follow the system while no choice is saved. */
    if (darkQuery) {
      var onChange = function () {
        var saved = storageGet(THEME_KEY);
        if (saved !== "light" && saved !== "dark") {
          root.removeAttribute("data-theme");
        }
        sync();
      };
      if (darkQuery.addEventListener) {
        darkQuery.addEventListener("change", onChange);
      } else if (darkQuery.addListener) {
        darkQuery.addListener(onChange);
      }
    }

    /* Another tab changed the theme. */
    window.addEventListener("storage", function (event) {
      if (event.key !== THEME_KEY) return;
      if (event.newValue === "light" || event.newValue === "dark") {
        root.setAttribute("data-theme", event.newValue);
      } else {
        root.removeAttribute("data-theme");
      }
      sync();
    });
  }

  /* ---------------------------------------------------------------- */
  /* Copy buttons                                                       */
  /* ---------------------------------------------------------------- */

  function copyWithSelection(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.top = "0";
    area.style.left = "-9999px";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    document.body.removeChild(area);
    return ok;
  }

  function copyText(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () {
          done(true);
        },
        function () {
          done(copyWithSelection(text));
        }
      );
    } else {
      done(copyWithSelection(text));
    }
  }

  /* Where the clipboard is refused, select the code so that the reader
     can copy it by hand. */
  function selectContents(node) {
    try {
      var range = document.createRange();
      range.selectNodeContents(node);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    } catch (e) {
      /* nothing more to do */
    }
  }

  function setupCopyButtons() {
    var listings = document.querySelectorAll("figure.listing");
    Array.prototype.forEach.call(listings, function (figure) {
      var code =
        figure.querySelector(":scope > div.sourceCode pre code") ||
        figure.querySelector(":scope > pre code") ||
        figure.querySelector("pre");
      if (!code) return;

      var caption = figure.querySelector(":scope > figcaption");
      var region = figure.querySelector(".listing-region");
      var file = figure.querySelector(".listing-file");
      var what = region
        ? region.textContent
        : file
        ? file.textContent
        : "listing";

      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-button";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy code: " + what.trim());
      var timer = 0;

      button.addEventListener("click", function () {
        var text = code.textContent.replace(/\s+$/, "") + "\n";
        copyText(text, function (ok) {
          if (!ok) selectContents(code);
          button.textContent = ok ? "Copied" : "Selected";
          button.classList.toggle("copied", ok);
          announce(
            ok
              ? "Code copied to the clipboard"
              : "Could not copy; the code is selected, press Control C to copy it"
          );
          window.clearTimeout(timer);
          timer = window.setTimeout(function () {
            button.textContent = "Copy";
            button.classList.remove("copied");
          }, 2000);
        });
      });

      if (caption) {
        caption.appendChild(button);
      } else {
        figure.insertBefore(button, figure.firstChild);
      }
    });
  }

  /* ---------------------------------------------------------------- */
  /* Tables: right-align the header of an all-numeric column            */
  /* ---------------------------------------------------------------- */

  function setupTables() {
    var tables = document.querySelectorAll("figure.book-table table");
    Array.prototype.forEach.call(tables, function (table) {
      var head = table.tHead && table.tHead.rows[0];
      if (!head) return;
      var numeric = [];
      var seen = [];
      Array.prototype.forEach.call(table.tBodies, function (body) {
        Array.prototype.forEach.call(body.rows, function (row) {
          for (var i = 0; i < row.cells.length; i++) {
            var cell = row.cells[i];
            if (cell.tagName !== "TD") continue;
            seen[i] = true;
            if (numeric[i] === undefined) numeric[i] = true;
            if (!cell.classList.contains("num")) numeric[i] = false;
          }
        });
      });
      for (var i = 0; i < head.cells.length; i++) {
        if (seen[i] && numeric[i]) head.cells[i].classList.add("num");
      }
    });
  }

  /* ---------------------------------------------------------------- */
  /* Scroll areas: reachable by keyboard when they scroll               */
  /* ---------------------------------------------------------------- */

  /* A display equation, listing, output or table wider than its column
     scrolls sideways; a scroll area only the mouse can reach fails
     keyboard users, so an overflowing one becomes focusable (arrow keys
     then scroll it) and is named for screen readers: a group, not a
     landmark, since a page may hold many. Rechecked on resize. */
  var SCROLL_AREAS = [
    [".katex-display", "Equation"],
    ["figure.output pre", "Output"],
    ["article pre", "Code"],
    [".table-wrap", "Table"]
  ];

  function setupScrollAreas() {
    var areas = [];
    var seen = [];
    SCROLL_AREAS.forEach(function (kind) {
      Array.prototype.forEach.call(document.querySelectorAll(kind[0]), function (el) {
        if (seen.indexOf(el) !== -1) return; /* the first kind that matches names it */
        seen.push(el);
        areas.push({ el: el, name: kind[1] });
      });
    });
    /* A display equation a little wider than its column is set a little
       smaller first, down to 80% of its size; only then does it scroll. */
    function fit(el) {
      var k = el.querySelector(".katex");
      if (!k) return;
      k.style.fontSize = "";
      var base = parseFloat(window.getComputedStyle(k).fontSize);
      for (var f = 0.95; f >= 0.8 && el.scrollWidth > el.clientWidth + 1; f -= 0.05) {
        k.style.fontSize = (base * f).toFixed(2) + "px";
      }
    }
    function update() {
      areas.forEach(function (a) {
        var el = a.el;
        if (a.name === "Equation") fit(el);
        if (el.scrollWidth > el.clientWidth + 1) {
          if (!el.hasAttribute("data-scroll-area")) {
            el.setAttribute("data-scroll-area", "");
            el.setAttribute("tabindex", "0");
            el.setAttribute("role", "group");
            el.setAttribute("aria-label", a.name + ", scrolls sideways");
          }
        } else if (el.hasAttribute("data-scroll-area")) {
          el.removeAttribute("data-scroll-area");
          el.removeAttribute("tabindex");
          el.removeAttribute("role");
          el.removeAttribute("aria-label");
        }
      });
    }
    update();
    window.addEventListener("resize", update);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(update);
  }

  /* ---------------------------------------------------------------- */
  /* Permalinks on headings                                             */
  /* ---------------------------------------------------------------- */

  /* Every heading of the body with an id gets a link to itself, shown on
     hover and focus, so that a reader can copy the address of a section. */
  function setupPermalinks() {
    var headings = document.querySelectorAll(
      ".page-body h2[id], .page-body h3[id], .page-body h4[id]");
    Array.prototype.forEach.call(headings, function (h) {
      if (h.querySelector(".heading-anchor")) return;
      var a = document.createElement("a");
      a.className = "heading-anchor";
      a.href = "#" + encodeURIComponent(h.id);
      var mark = document.createElement("span");
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = "#";
      var label = document.createElement("span");
      label.className = "sr-only";
      label.textContent = "Link to this section";
      a.appendChild(mark);
      a.appendChild(label);
      h.appendChild(document.createTextNode(" "));
      h.appendChild(a);
    });
  }

  /* ---------------------------------------------------------------- */
  /* Previous and next chapter by keyboard                              */
  /* ---------------------------------------------------------------- */

  /* The left and right arrow keys go to the previous and next chapter,
     unless they have work where the focus is: a text field, the search,
     a scroll area (arrows scroll it) or the open sidebar. */
  function setupPagerKeys() {
    var prev = document.querySelector(".pager a[rel=prev]");
    var next = document.querySelector(".pager a[rel=next]");
    if (prev) prev.setAttribute("aria-keyshortcuts", "ArrowLeft");
    if (next) next.setAttribute("aria-keyshortcuts", "ArrowRight");
    document.addEventListener("keydown", function (event) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey ||
          event.altKey || event.shiftKey) {
        return;
      }
      var link = event.key === "ArrowLeft" ? prev : event.key === "ArrowRight" ? next : null;
      if (!link) return;
      var t = event.target;
      if (t && t.closest && t.closest(
            "input, textarea, select, [contenteditable], .search, [data-scroll-area], " +
            "pre, .table-wrap, .katex-display, .sidebar, details, .workbench")) {
        return;
      }
      if (root.classList.contains("sidebar-open")) return;
      event.preventDefault();
      window.location.href = link.href;
    });
  }

  /* ---------------------------------------------------------------- */
  /* Sidebar drawer (narrow screens)                                    */
  /* ---------------------------------------------------------------- */

  function setupSidebar() {
    var button = document.querySelector(".menu-toggle");
    var sidebar = document.getElementById("sidebar-drawer");
    var backdrop = document.querySelector(".sidebar-backdrop");
    if (!button || !sidebar) return;

    var narrow = window.matchMedia
      ? window.matchMedia("(max-width: 899.98px)")
      : null;

    function isOpen() {
      return root.classList.contains("sidebar-open");
    }

    var main = document.getElementById("main");

    function setOpen(open, restoreFocus) {
      root.classList.toggle("sidebar-open", open);
      /* Keep focus and clicks inside the drawer while it covers the page. */
      if (main) main.inert = open;
      button.setAttribute("aria-expanded", open ? "true" : "false");
      if (backdrop) backdrop.hidden = !open;
      if (open) {
        var target =
          sidebar.querySelector('[aria-current="page"]') ||
          sidebar.querySelector("a, input, button");
        if (target) target.focus({ preventScroll: true });
      } else if (restoreFocus) {
        button.focus();
      }
    }

    button.hidden = false;

    button.addEventListener("click", function () {
      setOpen(!isOpen(), false);
    });

    if (backdrop) {
      backdrop.addEventListener("click", function () {
        setOpen(false, true);
      });
    }

    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && isOpen()) {
        setOpen(false, true);
      }
    });

    /* Following a link inside the page (or to another page) closes it. */
    sidebar.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a") : null;
      if (link && isOpen()) setOpen(false, false);
    });

    if (narrow) {
      var onChange = function () {
        if (!narrow.matches && isOpen()) setOpen(false, false);
      };
      if (narrow.addEventListener) {
        narrow.addEventListener("change", onChange);
      } else if (narrow.addListener) {
        narrow.addListener(onChange);
      }
    }

    /* Keep the current chapter in view inside the sidebar. */
    var current = sidebar.querySelector('[aria-current="page"]');
    if (current && sidebar.scrollHeight > sidebar.clientHeight) {
      var top = current.offsetTop - sidebar.clientHeight / 3;
      sidebar.scrollTop = Math.max(0, top);
    }
  }

  /* ---------------------------------------------------------------- */
  /* "On this page": mark the section being read                        */
  /* ---------------------------------------------------------------- */

  function setupTocHighlight() {
    var toc = document.querySelector(".page-toc");
    if (!toc || !("IntersectionObserver" in window)) return;

    var links = {};
    var headings = [];
    Array.prototype.forEach.call(
      toc.querySelectorAll('a[href^="#"]'),
      function (a) {
        var id = decodeURIComponent(a.getAttribute("href").slice(1));
        var el = id && document.getElementById(id);
        if (!el) return;
        /* Pandoc links to the <section> or to the heading itself. */
        var heading =
          el.matches && el.matches("section")
            ? el.querySelector("h1, h2, h3, h4, h5, h6") || el
            : el;
        links[id] = a;
        heading.setAttribute("data-toc-id", id);
        headings.push(heading);
      }
    );
    if (!headings.length) return;

    var active = null;
    function activate(id) {
      if (active === id) return;
      if (active && links[active]) links[active].removeAttribute("aria-current");
      active = id;
      if (id && links[id]) links[id].setAttribute("aria-current", "location");
    }

    var visible = {};
    var observer = new IntersectionObserver(
      function (entries) {
        entries.forEach(function (entry) {
          visible[entry.target.getAttribute("data-toc-id")] =
            entry.isIntersecting;
        });
        /* The first visible heading wins; otherwise the last one above. */
        var chosen = null;
        for (var i = 0; i < headings.length; i++) {
          var id = headings[i].getAttribute("data-toc-id");
          if (visible[id]) {
            chosen = id;
            break;
          }
          if (headings[i].getBoundingClientRect().top < 0) chosen = id;
        }
        activate(chosen);
      },
      { rootMargin: "-56px 0px -55% 0px" }
    );
    headings.forEach(function (h) {
      observer.observe(h);
    });
  }

  /* ---------------------------------------------------------------- */
  /* Search                                                             */
  /* ---------------------------------------------------------------- */

  /* The index (search-index.js, written at build time) assigns
     window.BOOK_SEARCH_INDEX. It is loaded with a script element the first
     time the reader uses the search box: fetch() of a JSON file is refused
     on file://, a script is not. */

  var SEARCH_LIMIT = 30;

  /* Where book.js was loaded from: the book's root. */
  function bookRoot() {
    var script = document.querySelector('script[src$="book.js"]');
    var base = script ? script.src : window.location.href;
    return base.replace(/[^\/]*$/, "");
  }

  function prepareIndex(data) {
    var entries = [];
    (data && data.pages ? data.pages : []).forEach(function (page, order) {
      (page.sections || []).forEach(function (section) {
        entries.push({
          url: page.url + (section.id ? "#" + section.id : ""),
          where: page.number + " " + page.title,
          heading: section.heading || "",
          text: section.text || "",
          order: order,
          title: (page.title || "").toLowerCase(),
          headLower: (section.heading || "").toLowerCase(),
          textLower: (section.text || "").toLowerCase(),
          codeLower: (section.code || "").toLowerCase()
        });
      });
    });
    return entries;
  }

  function searchTerms(query) {
    var seen = {};
    return query
      .toLowerCase()
      .split(/\s+/)
      .filter(function (t) {
        if (t.length < 2 || seen[t]) return false;
        seen[t] = true;
        return true;
      });
  }

  function countOf(haystack, term, cap) {
    var n = 0;
    var i = haystack.indexOf(term);
    while (i !== -1 && n < cap) {
      n++;
      i = haystack.indexOf(term, i + term.length);
    }
    return n;
  }

  function isWordStart(text, i) {
    return i === 0 || !/[a-z0-9_]/.test(text.charAt(i - 1));
  }

  /* The words of the whole index (prose, headings, titles and code),
     built once, for the typo tolerance below. */
  function vocabularyOf(entries) {
    var seen = {};
    var words = [];
    entries.forEach(function (e) {
      [e.title, e.headLower, e.textLower, e.codeLower].forEach(function (text) {
        (text.match(/[a-z0-9_]{3,}/g) || []).forEach(function (w) {
          if (!seen[w]) {
            seen[w] = true;
            words.push(w);
          }
        });
      });
    });
    return words;
  }

  /* At most one edit (an insertion, deletion, substitution or swap of
     neighbours) turns a into b. */
  function withinOneEdit(a, b) {
    if (a === b) return true;
    var la = a.length;
    var lb = b.length;
    if (Math.abs(la - lb) > 1) return false;
    var i = 0;
    while (i < la && i < lb && a.charAt(i) === b.charAt(i)) i++;
    if (la === lb) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return a.charAt(i) === b.charAt(i + 1) && a.charAt(i + 1) === b.charAt(i) &&
             a.slice(i + 2) === b.slice(i + 2);
    }
    return la < lb ? a.slice(i) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
  }

  /* The strings a query term stands for. A term is a prefix: it matches
     inside any word ("soft" finds "softmax"). A term of four or more
     letters that occurs nowhere stands for the words one edit away from
     it or from one of their prefixes ("softmx" finds "softmax"). */
  function variantsOf(term, entries, vocabulary) {
    var found = entries.some(function (e) {
      return e.textLower.indexOf(term) !== -1 || e.headLower.indexOf(term) !== -1 ||
             e.title.indexOf(term) !== -1 || e.codeLower.indexOf(term) !== -1;
    });
    if (found || term.length < 4) return [term];
    var variants = {};
    vocabulary().forEach(function (w) {
      if (withinOneEdit(term, w)) variants[w] = true;
      for (var n = term.length - 1; n <= term.length + 1; n++) {
        if (n >= 3 && n < w.length && withinOneEdit(term, w.slice(0, n))) {
          variants[w.slice(0, n)] = true;
        }
      }
    });
    var list = Object.keys(variants);
    return list.length ? list : [term];
  }

  function countAny(haystack, variants, cap) {
    var best = 0;
    variants.forEach(function (v) {
      best = Math.max(best, countOf(haystack, v, cap));
    });
    return best;
  }

  function containsAny(haystack, variants) {
    return variants.some(function (v) {
      return haystack.indexOf(v) !== -1;
    });
  }

  /* Every term (or one of its variants) must occur in the section: its
     prose, its heading, its chapter's title or its code. A term in the
     chapter's title ranks that chapter's sections above a mention in
     another chapter; headings, whole words and the whole phrase rank
     higher still; hits only in code or formulas count least. */
  function runSearch(entries, query, vocabulary) {
    var terms = searchTerms(query);
    if (!terms.length) return { entries: [], marks: [] };
    var expanded = terms.map(function (t) {
      return variantsOf(t, entries, vocabulary);
    });
    var phrase = terms.length > 1 ? query.trim().toLowerCase() : "";
    var results = [];
    entries.forEach(function (e) {
      var score = 0;
      var titleHits = 0;
      for (var k = 0; k < expanded.length; k++) {
        var vs = expanded[k];
        var inText = countAny(e.textLower, vs, 5);
        var inCode = countAny(e.codeLower, vs, 2);
        var inHead = containsAny(e.headLower, vs);
        var inTitle = containsAny(e.title, vs);
        if (!inText && !inHead && !inTitle && !inCode) return;
        if (inTitle) titleHits++;
        score += inText + 0.5 * inCode + (inHead ? 10 : 0) + (inTitle ? 8 : 0);
        var first = -1;
        vs.forEach(function (v) {
          var i = e.textLower.indexOf(v);
          if (i !== -1 && isWordStart(e.textLower, i)) first = i;
        });
        if (first !== -1) score += 2;
      }
      if (titleHits === expanded.length) score += 10;
      if (phrase && (e.textLower.indexOf(phrase) !== -1 ||
                     e.headLower.indexOf(phrase) !== -1)) {
        score += 15;
      }
      if (phrase && e.title.indexOf(phrase) !== -1) score += 15;
      results.push({ entry: e, score: score });
    });
    results.sort(function (a, b) {
      return b.score - a.score || a.entry.order - b.entry.order;
    });
    return {
      entries: results.slice(0, SEARCH_LIMIT).map(function (r) {
        return r.entry;
      }),
      marks: [].concat.apply([], expanded)
    };
  }

  /* A stretch of the section around the first hit, cut at spaces. */
  function snippetOf(text, terms) {
    var lower = text.toLowerCase();
    var at = -1;
    terms.forEach(function (t) {
      var i = lower.indexOf(t);
      if (i !== -1 && (at === -1 || i < at)) at = i;
    });
    if (at === -1) return text.length > 180 ? text.slice(0, 180) + "\u2026" : text;
    var start = Math.max(0, at - 60);
    var end = Math.min(text.length, at + 140);
    if (start > 0) {
      var space = text.indexOf(" ", start);
      if (space !== -1 && space < at) start = space + 1;
    }
    if (end < text.length) {
      var back = text.lastIndexOf(" ", end);
      if (back > at) end = back;
    }
    return (start > 0 ? "\u2026" : "") + text.slice(start, end) +
           (end < text.length ? "\u2026" : "");
  }

  /* Appends `text` to `node` with every term wrapped in <mark>. */
  function appendMarked(node, text, terms) {
    var lower = text.toLowerCase();
    var i = 0;
    while (i < text.length) {
      var best = -1;
      var len = 0;
      terms.forEach(function (t) {
        var j = lower.indexOf(t, i);
        if (j !== -1 && (best === -1 || j < best || (j === best && t.length > len))) {
          best = j;
          len = t.length;
        }
      });
      if (best === -1) {
        node.appendChild(document.createTextNode(text.slice(i)));
        break;
      }
      if (best > i) node.appendChild(document.createTextNode(text.slice(i, best)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(best, best + len);
      node.appendChild(mark);
      i = best + len;
    }
  }

  function setupSearch() {
    var box = document.querySelector(".search");
    var input = document.getElementById("search-input");
    var panel = document.getElementById("search-panel");
    var toggle = document.querySelector(".search-toggle");
    var results = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    var list = results ? results.querySelector(".search-list") : null;
    if (!box || !input || !panel || !results || !status || !list) return;

    var base = bookRoot();
    var entries = null;
    var words = null;
    var loading = false;
    var failed = false;
    var timer = 0;

    function load(then) {
      if (entries) return then();
      if (window.BOOK_SEARCH_INDEX) {
        entries = prepareIndex(window.BOOK_SEARCH_INDEX);
        return then();
      }
      if (failed || loading) return;
      loading = true;
      var script = document.createElement("script");
      script.src = base + "search-index.js";
      script.async = true;
      script.onload = function () {
        loading = false;
        entries = prepareIndex(window.BOOK_SEARCH_INDEX);
        update();
      };
      script.onerror = function () {
        loading = false;
        failed = true;
        update();
      };
      document.head.appendChild(script);
    }

    function vocabulary() {
      if (!words) words = vocabularyOf(entries);
      return words;
    }

    function showResults(show) {
      results.hidden = !show;
    }

    function update() {
      var query = input.value.trim();
      /* The status says which query it answers: typing is debounced, so
         for a moment it may still answer an earlier prefix. */
      status.setAttribute("data-query", query);
      list.textContent = "";
      if (!query) {
        status.textContent = "";
        showResults(false);
        return;
      }
      showResults(true);
      if (failed) {
        status.textContent = "The search index could not be loaded.";
        return;
      }
      var terms = searchTerms(query);
      if (!terms.length) {
        status.textContent = "Type at least two letters.";
        return;
      }
      if (!entries) {
        status.textContent = "Loading the index\u2026";
        load(update);
        return;
      }
      var search = runSearch(entries, query, vocabulary);
      var found = search.entries;
      terms = search.marks;
      status.textContent = found.length
        ? found.length + (found.length === SEARCH_LIMIT ? "+" : "") +
          (found.length === 1 ? " section" : " sections") + " found"
        : "Nothing found for \u201c" + query + "\u201d.";
      found.forEach(function (e) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.className = "search-result";
        a.href = base + e.url;
        var where = document.createElement("span");
        where.className = "search-result-where";
        where.textContent = e.where + (e.heading ? " \u203a " : "");
        if (e.heading) {
          var head = document.createElement("span");
          head.className = "search-result-heading";
          appendMarked(head, e.heading, terms);
          where.appendChild(head);
        }
        var snippet = document.createElement("span");
        snippet.className = "search-result-snippet";
        appendMarked(snippet, snippetOf(e.text, terms), terms);
        a.appendChild(where);
        a.appendChild(snippet);
        li.appendChild(a);
        list.appendChild(li);
      });
    }

    function links() {
      return Array.prototype.slice.call(list.querySelectorAll("a"));
    }

    function setOpen(open) {
      root.classList.toggle("search-open", open);
      if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) {
        input.focus();
        load(function () {});
      }
    }

    function close(focusTarget) {
      showResults(false);
      if (root.classList.contains("search-open")) setOpen(false);
      if (focusTarget) focusTarget.focus();
    }

    input.addEventListener("focus", function () {
      load(function () {});
      if (input.value.trim()) update();
    });

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(update, 60);
    });

    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "Enter") {
        /* The results for what is typed now, not when the timer fires:
           ArrowDown moves to the first, Enter follows it. */
        window.clearTimeout(timer);
        update();
        var first = links()[0];
        if (first) {
          event.preventDefault();
          if (event.key === "Enter") first.click();
          else first.focus();
        }
      } else if (event.key === "Escape") {
        event.preventDefault();
        if (!results.hidden && input.value) {
          input.value = "";
          update();
        } else {
          close(toggle && root.classList.contains("search-open") ? toggle : null);
        }
      }
    });

    list.addEventListener("keydown", function (event) {
      var all = links();
      var i = all.indexOf(document.activeElement);
      if (i === -1) return;
      if (event.key === "ArrowDown" && i + 1 < all.length) {
        event.preventDefault();
        all[i + 1].focus();
      } else if (event.key === "ArrowUp") {
        event.preventDefault();
        (i > 0 ? all[i - 1] : input).focus();
      } else if (event.key === "Escape") {
        event.preventDefault();
        showResults(false);
        input.focus();
      }
    });

    /* Following a result (possibly to this very page) closes the search. */
    list.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a") : null;
      if (link) close(null);
    });

    /* A click or focus outside the search closes its results. */
    document.addEventListener("mousedown", function (event) {
      if (!box.contains(event.target)) close(null);
    });
    document.addEventListener("focusin", function (event) {
      if (!box.contains(event.target)) showResults(false);
    });

    if (toggle) {
      toggle.addEventListener("click", function () {
        setOpen(!root.classList.contains("search-open"));
      });
    }

    /* "/" anywhere outside a text field starts a search. */
    document.addEventListener("keydown", function (event) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      var t = event.target;
      var tag = t && t.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" ||
          (t && t.isContentEditable)) {
        return;
      }
      event.preventDefault();
      if (toggle && window.getComputedStyle(toggle).display !== "none") {
        setOpen(true);
      } else {
        input.focus();
        input.select();
      }
    });
  }

  /* ---------------------------------------------------------------- */
  /* Printing: show every <details>, then restore                       */
  /* ---------------------------------------------------------------- */

  function setupPrint() {
    var opened = [];
    window.addEventListener("beforeprint", function () {
      Array.prototype.forEach.call(
        document.querySelectorAll("details:not([open])"),
        function (d) {
          d.open = true;
          opened.push(d);
        }
      );
    });
    window.addEventListener("afterprint", function () {
      opened.forEach(function (d) {
        d.open = false;
      });
      opened = [];
    });
  }

  function init() {
    setupTheme();
    setupCopyButtons();
    setupTables();
    setupScrollAreas();
    setupPermalinks();
    setupPagerKeys();
    setupSidebar();
    setupTocHighlight();
    setupSearch();
    setupPrint();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
