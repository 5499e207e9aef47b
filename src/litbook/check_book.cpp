// Checks of a chapter against book/book.yaml: what it requires of every
// chapter (the checkpoints, the chapter end) and the workbenches its divs
// and experiment steps name. Check runs them after check_chapter.
#include "check.hpp"

#include <algorithm>

namespace litbook {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

void check_workbenches(const Chapter& ch, const std::vector<Workbench>& known,
                       Diagnostics& diags) {
  std::vector<std::string> known_names, page_names, events;
  for (const auto& w : known) known_names.push_back(w.name);
  for (const auto& use : ch.workbenches) {
    const Workbench* w = nullptr;
    for (const auto& k : known) {
      if (k.name == use.name) w = &k;
    }
    if (use.name.empty()) {
      diags.add(ch.at(use.line), "a workbench div needs name=NAME (one of "
                                 "book/book.yaml's workbenches: " +
                                 joined(known_names) + ")");
    } else if (!w) {
      diags.add(ch.at(use.line), "unknown workbench '" + use.name +
                                     "' (book/book.yaml's workbenches: " +
                                     (known_names.empty() ? std::string("none")
                                                          : joined(known_names)) +
                                     ")");
    } else if (std::find(page_names.begin(), page_names.end(), use.name) !=
               page_names.end()) {
      diags.add(ch.at(use.line), "a second '" + use.name +
                                     "' workbench on this page; a page has "
                                     "one of each");
    } else {
      page_names.push_back(use.name);
      events.insert(events.end(), w->events.begin(), w->events.end());
    }
  }
  for (const auto& e : ch.step_events) {
    if (std::find(events.begin(), events.end(), e.name) != events.end()) {
      continue;
    }
    if (page_names.empty()) {
      diags.add(ch.at(e.line), "an experiment step waits for '" + e.name +
                                   "', but this page has no workbench to "
                                   "report it (drop {when=...}, or place a "
                                   "::: {.workbench name=NAME} div)");
    } else {
      diags.add(ch.at(e.line), "unknown workbench event '" + e.name +
                                   "' in an experiment step (the " +
                                   joined(page_names) + " workbench reports: " +
                                   joined(events) + ")");
    }
  }
}

void check_required(const Chapter& ch, const std::vector<std::string>& require,
                    Diagnostics& diags) {
  auto has = [&](const char* kind) {
    for (const auto& c : ch.checkpoints) {
      if (c.kind == kind) return true;
    }
    return false;
  };
  auto need = [&](std::initializer_list<const char*> kinds, const char* what,
                  const char* section) {
    std::string missing;
    for (const char* k : kinds) {
      if (!has(k)) missing += missing.empty() ? k : std::string(", ") + k;
    }
    if (missing.empty()) return;
    diags.add(ch.at(1), std::string("book/book.yaml requires ") + what +
                            " in every chapter; this one lacks " + missing +
                            " (chapters/README.md, \"" + section + "\")");
  };
  for (const auto& r : require) {
    if (r == "checkpoints") {
      need({"predict", "experiment", "implement", "explain"},
           "the four learner checkpoints", "Learner checkpoints");
    } else if (r == "chapter-end") {
      need({"self-check", "failure-modes"},
           "self-check questions and failure modes",
           "The end of a chapter: self-check questions and failure modes");
    }
  }
}

}  // namespace litbook
