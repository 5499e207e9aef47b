/* The book's small bit of behaviour: theme toggle, copy buttons on code
   listings, the sidebar drawer on narrow screens, "On this page"
   highlighting, and opening <details> for printing. Plain JS, no
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
    setupSidebar();
    setupTocHighlight();
    setupPrint();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
