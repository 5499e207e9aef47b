// Writing a checkpoint div and a chapter's ending block (self-check
// questions, failure modes) as the reader sees them, from the model.
#include "html.hpp"

#include <array>

#include "bookio/escape.hpp"

namespace litbook {

using book::escape_markup;

namespace {

struct KindInfo {
  const char* kind;
  const char* title;
  const char* answer_label;  ///< summary of the collapsed answer
};

constexpr std::array<KindInfo, 4> kKinds = {{
    {"predict", "Predict first", "The demo's answer"},
    {"experiment", "Experiment", ""},
    {"implement", "Implement", ""},
    {"explain", "Explain", "A model answer"},
}};

}  // namespace

std::string checkpoint_html(HtmlWriter& w, const Checkpoint& checkpoint,
                            const Json& content) {
  const std::string& kind = checkpoint.kind;
  std::size_t number = 0;
  while (number + 1 < kKinds.size() && kKinds[number].kind != kind) ++number;
  const KindInfo& info = kKinds[number];
  std::string body, answer;
  for (const auto& b : content) {
    if (w.answer_div(b)) {
      answer += w.blocks(b["c"][1]);
    } else {
      body += w.blocks(Json::array({b}));
    }
  }
  // Predict keeps the class of the "Predict first" box it grew from.
  const std::string cls = kind == "predict" ? "prediction" : kind;
  std::string out = "<div class=\"callout " + cls + " checkpoint\" "
                    "data-checkpoint=\"" + kind + "\" role=\"note\">"
                    "<p class=\"callout-title\">" + info.title +
                    " <span class=\"checkpoint-number\">(checkpoint " +
                    std::to_string(number + 1) + " of 4)</span></p>\n" + body;
  if (checkpoint.tests) {
    out += "<p class=\"exercise-tests\">Run its tests: <code>" +
           escape_markup(*checkpoint.tests) + "</code></p>\n";
  }
  if (kind != "experiment") {
    out += "<div class=\"checkpoint-entry\" data-entry=\"" + kind +
           "\"></div>\n";
  }
  if (!answer.empty()) {
    out += "<details class=\"answer checkpoint-answer\"><summary>" +
           std::string(info.answer_label) + "</summary>\n" + answer +
           "</details>\n";
  }
  return out + "</div>\n";
}

std::string ending_html(HtmlWriter& w, const std::string& kind,
                        const Json& content) {
  const bool self_check = kind == "self-check";
  std::string out = std::string("<div class=\"callout ") + kind +
                    "\" role=\"note\"><p class=\"callout-title\">" +
                    (self_check ? "Check yourself" : "Common failure modes") +
                    "</p>\n";
  for (const auto& b : content) {
    if (!self_check || b["t"] != "OrderedList") {
      out += w.blocks(Json::array({b}));
      continue;
    }
    // Each question with its answer collapsed under it.
    out += "<ol class=\"self-check-list\">\n";
    for (const auto& item : b["c"][1]) {
      out += "<li>";
      for (const auto& part : item) {
        if (w.answer_div(part)) {
          out += "<details class=\"answer\"><summary>Answer</summary>\n" +
                 w.blocks(part["c"][1]) + "</details>\n";
        } else {
          out += w.blocks(Json::array({part}));
        }
      }
      out += "</li>\n";
    }
    out += "</ol>\n";
  }
  return out + "</div>\n";
}

}  // namespace litbook
