// libFuzzer target for the chapter parser: everything litbook does with a
// chapter after Pandoc has read it. The fuzz input drives the construction
// of a Pandoc document in the shape Pandoc's sourcepos reader produces
// (position wrappers, attributes, code regions, value spans, divs, math,
// links, arbitrary text), which then goes through simplification, model
// extraction, tangling, checking and HTML writing. Problems in the book
// must surface as litbook::Failure; anything else (a crash, a sanitizer
// report, another exception) is a bug.
#include <fuzzer/FuzzedDataProvider.h>

#include "chapter.hpp"
#include "check.hpp"
#include "html.hpp"
#include "tangle.hpp"

using litbook::Json;

namespace {

const char* kKeys[] = {"region", "file", "fill", "revise", "value", "table",
                       "figure", "title", "tests", "bogus"};
const char* kClasses[] = {"cpp", "output", "hidden", "exercise", "answer",
                          "prediction", "misconception", "lit", "diff"};

std::string text(FuzzedDataProvider& in, std::size_t max = 40) {
  return in.ConsumeRandomLengthString(max);
}

std::string pos(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange(0, 9) == 0) return text(in, 12);  // garbage
  int l = in.ConsumeIntegralInRange(0, 400), c = in.ConsumeIntegralInRange(0, 80);
  int l2 = l + in.ConsumeIntegralInRange(0, 5), c2 = in.ConsumeIntegralInRange(0, 80);
  return "f.md@" + std::to_string(l) + ":" + std::to_string(c) + "-" +
         std::to_string(l2) + ":" + std::to_string(c2);
}

Json attr(FuzzedDataProvider& in) {
  Json classes = Json::array(), kvs = Json::array();
  if (in.ConsumeBool()) kvs.push_back({"data-pos", pos(in)});
  int n = in.ConsumeIntegralInRange(0, 3);
  for (int i = 0; i < n; ++i) {
    if (in.ConsumeBool()) {
      classes.push_back(in.PickValueInArray(kClasses));
    } else {
      kvs.push_back({in.PickValueInArray(kKeys), text(in, 20)});
    }
  }
  return Json::array({in.ConsumeBool() ? "" : text(in, 8), classes, kvs});
}

Json inlines(FuzzedDataProvider& in, int depth);

Json inline_node(FuzzedDataProvider& in, int depth) {
  switch (in.ConsumeIntegralInRange(0, depth > 3 ? 3 : 9)) {
    case 0: return {{"t", "Str"}, {"c", text(in)}};
    case 1: return {{"t", "Space"}};
    case 2: return {{"t", "Code"}, {"c", {attr(in), text(in)}}};
    case 3: return {{"t", "Math"},
                    {"c", {{{"t", in.ConsumeBool() ? "InlineMath" : "DisplayMath"}},
                           text(in)}}};
    case 4: return {{"t", "Span"}, {"c", {attr(in), inlines(in, depth + 1)}}};
    case 5: return {{"t", "Emph"}, {"c", inlines(in, depth + 1)}};
    case 6: return {{"t", "Link"},
                    {"c", {attr(in), inlines(in, depth + 1),
                           {in.ConsumeBool() ? "chapter:" + text(in, 10)
                                             : "#" + text(in, 10),
                            ""}}}};
    case 7: return {{"t", "Note"},
                    {"c", Json::array({{{"t", "Para"},
                                        {"c", inlines(in, depth + 1)}}})}};
    case 8: return {{"t", "Quoted"},
                    {"c", {{{"t", "DoubleQuote"}}, inlines(in, depth + 1)}}};
    default: return {{"t", "SoftBreak"}};
  }
}

Json inlines(FuzzedDataProvider& in, int depth) {
  Json out = Json::array();
  int n = in.ConsumeIntegralInRange(0, 6);
  for (int i = 0; i < n; ++i) {
    Json node = inline_node(in, depth);
    if (in.ConsumeBool()) {  // Pandoc's position wrapper
      node = {{"t", "Span"},
              {"c", {Json::array({"", Json::array(),
                                  Json::array({Json::array({"data-pos", pos(in)})})}),
                     Json::array({node})}}};
    }
    out.push_back(node);
  }
  return out;
}

Json blocks(FuzzedDataProvider& in, int depth);

Json code(FuzzedDataProvider& in) {
  std::string body;
  int lines = in.ConsumeIntegralInRange(0, 6);
  for (int i = 0; i < lines; ++i) {
    body += in.ConsumeBool() ? "  // <<" + text(in, 8) + ">>" : text(in);
    body += "\n";
  }
  return body;
}

Json block(FuzzedDataProvider& in, int depth) {
  switch (in.ConsumeIntegralInRange(0, depth > 2 ? 2 : 6)) {
    case 0: return {{"t", "Para"}, {"c", inlines(in, depth)}};
    case 1: return {{"t", "Header"},
                    {"c", {in.ConsumeIntegralInRange(1, 6), attr(in),
                           inlines(in, depth)}}};
    case 2: return {{"t", "CodeBlock"}, {"c", {attr(in), code(in)}}};
    case 3: return {{"t", "Div"}, {"c", {attr(in), blocks(in, depth + 1)}}};
    case 4: return {{"t", "BulletList"},
                    {"c", Json::array({blocks(in, depth + 1)})}};
    case 5: return {{"t", "BlockQuote"}, {"c", blocks(in, depth + 1)}};
    default: return {{"t", "Plain"}, {"c", inlines(in, depth)}};
  }
}

Json blocks(FuzzedDataProvider& in, int depth) {
  Json out = Json::array();
  int n = in.ConsumeIntegralInRange(0, depth == 0 ? 12 : 4);
  for (int i = 0; i < n; ++i) out.push_back(block(in, depth));
  return out;
}

Json meta(FuzzedDataProvider& in) {
  auto str = [](const std::string& s) {
    return Json{{"t", "MetaInlines"}, {"c", Json::array({{{"t", "Str"}, {"c", s}}})}};
  };
  Json m = Json::object();
  if (in.ConsumeBool()) m["id"] = str(in.ConsumeBool() ? "fuzz" : text(in, 8));
  if (in.ConsumeBool()) m["title"] = str(text(in, 8));
  if (in.ConsumeBool()) m["part"] = str(in.ConsumeBool() ? "1" : text(in, 4));
  if (in.ConsumeBool()) {
    m["objectives"] = {{"t", "MetaList"}, {"c", Json::array({str(text(in))})}};
  }
  if (in.ConsumeBool()) m["prerequisites"] = str(text(in));
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Json doc = {{"pandoc-api-version", {1, 22, 2, 1}},
              {"meta", meta(in)},
              {"blocks", blocks(in, 0)}};
  Json values = Json::object();
  values["v"] = {{"kind", "number"}, {"value", text(in, 24)}};
  std::string written = text(in, 16);
  try {
    litbook::Chapter ch =
        litbook::build_chapter("chapters/01-fuzz.md",
                               litbook::simplify_document(doc));
    auto result = litbook::tangle({litbook::code_of(ch)});
    litbook::DemoOutputs out;
    out.present = true;
    out.stdout_text = text(in);
    out.values = values;
    litbook::BookIndex index;
    index.title = "Fuzz";
    index.chapters.push_back({ch.stem, ch.id, ch.title, 1, {}, Json::array(), {}});
    litbook::check_chapter(ch, out, index);
    litbook::HtmlContext ctx;
    ctx.chapter = &ch;
    ctx.index = &index;
    ctx.highlight = [](const std::string&, const std::string& c,
                       const std::string&) { return c; };
    ctx.math = [](const std::string& t, bool) { return t; };
    ctx.table = [](const std::string& n) { return "<caption>" + n + "</caption>"; };
    ctx.figure = [](const std::string& n) { return n; };
    litbook::HtmlWriter w(ctx);
    w.blocks(ch.blocks);
  } catch (const litbook::Failure&) {
  }
  try {
    litbook::expected_value_text(values["v"], written);
  } catch (const std::invalid_argument&) {
  } catch (const std::out_of_range&) {
  }
  try {
    litbook::TemplateVars vars;
    vars["a"] = {"x", {}, false};
    vars["l"] = {"", {"p", "q"}, true};
    litbook::apply_template(text(in, 200), vars, "fuzz.html");
  } catch (const litbook::Failure&) {
  }
  return 0;
}
