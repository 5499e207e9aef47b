#include "html.hpp"

#include "classify.hpp"

#include <algorithm>

#include "bookio/escape.hpp"

namespace litbook {

using book::escape_markup;

namespace {

std::string str(const Json& j) { return j.get<std::string>(); }

// The attribute names Pandoc's html5 writer writes as they are (any other
// name gets a "data-" prefix, unless it has one already, starts with
// "aria-" or holds a ':'). Measured on Pandoc 2.17 by writing a span with
// each candidate name; kept between spaces for a whole-word search.
constexpr std::string_view kHtml5Attributes =
    " "
    "abbr about accept accept-charset accesskey action allow "
    "allowfullscreen alt as async autocapitalize autocomplete autofocus "
    "autoplay charset checked cite color cols colspan content "
    "contenteditable controls coords crossorigin data datatype datetime "
    "decoding default defer dir dirname disabled download draggable "
    "enctype enterkeyhint for form formaction formenctype formmethod "
    "formnovalidate formtarget headers height hidden high href hreflang "
    "http-equiv imagesizes imagesrcset inputmode integrity is ismap "
    "itemid itemprop itemref itemscope itemtype kind label lang list "
    "loading loop low manifest max maxlength media method min minlength "
    "multiple muted name nomodule nonce novalidate onabort onafterprint "
    "onauxclick onbeforeprint onbeforeunload onblur oncancel oncanplay "
    "oncanplaythrough onchange onclick onclose oncontextmenu oncopy "
    "oncuechange oncut ondblclick ondrag ondragend ondragenter "
    "ondragexit ondragleave ondragover ondragstart ondrop "
    "ondurationchange onemptied onended onerror onfocus onhashchange "
    "oninput oninvalid onkeydown onkeypress onkeyup onlanguagechange "
    "onload onloadeddata onloadedmetadata onloadend onloadstart "
    "onmessage onmessageerror onmousedown onmouseenter onmouseleave "
    "onmousemove onmouseout onmouseover onmouseup onoffline ononline "
    "onpagehide onpageshow onpaste onpause onplay onplaying onpopstate "
    "onprogress onratechange onrejectionhandled onreset onresize "
    "onscroll onsecuritypolicyviolation onseeked onseeking onselect "
    "onstalled onstorage onsubmit onsuspend ontimeupdate ontoggle "
    "onunhandledrejection onunload onvolumechange onwaiting onwheel open "
    "optimum pattern ping placeholder playsinline poster prefix preload "
    "property readonly referrerpolicy rel required resource rev reversed "
    "role rows rowspan sandbox scope selected shape size sizes slot span "
    "spellcheck src srcdoc srclang srcset start step style tabindex "
    "target title translate type typemustmatch typeof usemap value vocab "
    "width wrap ";

// The type attribute Pandoc writes for an ordered list's number style.
std::string list_type(const std::string& style) {
  if (style == "Decimal" || style == "Example") return " type=\"1\"";
  if (style == "LowerAlpha") return " type=\"a\"";
  if (style == "UpperAlpha") return " type=\"A\"";
  if (style == "LowerRoman") return " type=\"i\"";
  if (style == "UpperRoman") return " type=\"I\"";
  return {};  // DefaultStyle
}

bool is_html5_attribute(const std::string& key) {
  if (key.rfind("data-", 0) == 0 || key.rfind("aria-", 0) == 0 ||
      key.find(':') != std::string::npos) {
    return true;
  }
  return kHtml5Attributes.find(std::string(" ").append(key).append(" ")) !=
         std::string_view::npos;
}

// ` id="ID"` for an element the author gave an id, or nothing.
std::string id_attr(const std::string& id) {
  return id.empty() ? "" : " id=\"" + escape_markup(id) + "\"";
}

// The classes after `first` (the writer's own, if any), space-separated.
std::string joined_classes(std::string first,
                           const std::vector<std::string>& classes) {
  for (const std::string& c : classes) {
    if (!first.empty()) first += ' ';
    first += c;
  }
  return first;
}

// A div's class as the model read it, found by the line of its fence; a
// div the model does not have is plain. A writer without a chapter (the
// writer tested alone) has no model: it classifies the div itself.
DivClass div_class(const Chapter* ch, const Json& attr, const Json& content) {
  if (!ch) return classify_div(attr, content);
  const DivClass* what = ch->div_at(attr_line(attr));
  return what ? *what : DivClass{};
}

// A code block's kind as the model read it: the chapter's output block,
// a region (shown or hidden) or an ordinary block, found by the line of
// its fence. The writer tested alone classifies the block itself.
CodeKind code_kind(const Chapter* ch, const Json& attr) {
  if (!ch) return classify_code_block(attr);
  const int line = attr_line(attr);
  if (ch->output && ch->output->open_line == line) return CodeKind::Output;
  if (const Region* r = ch->region_at(line)) {
    return r->hidden ? CodeKind::HiddenRegion : CodeKind::Region;
  }
  return CodeKind::Plain;
}

// A span's class: a checked value as the model read it, found by the
// span's whole source range (Chapter::value_at says why not by its
// line); any other span is plain, and the writer tells a `.lit` marker
// or a position wrapper from the author's own span by own_attr. The
// writer tested alone classifies the span itself.
SpanClass span_class(const Chapter* ch, const Json& attr) {
  if (!ch) return classify_span(attr);
  const auto range = attr_range(attr);
  const ValueRef* v = range ? ch->value_at(*range) : nullptr;
  return v ? SpanClass{SpanKind::Value, v->name} : SpanClass{};
}

}  // namespace

// Whether a block is an answer div, as the model read its div (div_at);
// without a chapter, as is_answer reads it.
bool HtmlWriter::answer_div(const Json& block) const {
  if (!ctx_.chapter) return is_answer(block);
  if (block["t"] != "Div") return false;
  const DivClass* what = ctx_.chapter->div_at(attr_line(block["c"][0]));
  return what && what->answer;
}

// The element's own id, classes and attributes (own_attr), as Pandoc's
// html5 writer writes them; `extra` goes before the author's classes.
std::string HtmlWriter::attrs(const Json& attr, std::string extra) const {
  const OwnAttr own = own_attr(attr);
  std::string out = id_attr(own.id);
  const std::string classes = joined_classes(std::move(extra), own.classes);
  if (!classes.empty()) out += " class=\"" + escape_markup(classes) + "\"";
  for (auto [key, value] : own.attributes) {
    if (!is_html5_attribute(key)) key.insert(0, "data-");
    out += ' ';
    out += escape_markup(key);
    out += "=\"";
    out += escape_markup(value);
    out += '"';
  }
  return out;
}

std::string HtmlWriter::blocks(const Json& list) {
  std::string out;
  for (const auto& b : list) out += block(b);
  return out;
}

std::string HtmlWriter::inlines(const Json& list) {
  std::string out;
  for (const auto& i : list) out += inline_node(i);
  return out;
}

std::string HtmlWriter::block(const Json& node) {
  const std::string& t = node["t"].get_ref<const std::string&>();
  const Json& c = node.contains("c") ? node["c"] : node;
  if (t == "Para") return "<p>" + inlines(c) + "</p>\n";
  if (t == "Plain") return inlines(c) + "\n";
  if (t == "Header") {
    std::string level = std::to_string(c[0].get<int>());
    return "<h" + level + attrs(c[1]) + ">" + inlines(c[2]) + "</h" + level +
           ">\n";
  }
  if (t == "CodeBlock") return code_block(node);
  if (t == "RawBlock") {
    return str(c[0]) == "html" ? str(c[1]) + "\n" : std::string();
  }
  if (t == "BlockQuote") return "<blockquote>\n" + blocks(c) + "</blockquote>\n";
  if (t == "BulletList" || t == "OrderedList") {
    bool ordered = t == "OrderedList";
    const Json& items = ordered ? c[1] : c;
    std::string open = "<ul>";
    if (ordered) {
      int start = c[0][0].get<int>();
      open = "<ol";
      if (start != 1) open += " start=\"" + std::to_string(start) + "\"";
      open += list_type(c[0][1]["t"].get<std::string>()) + ">";
    }
    std::string out = open + "\n";
    for (const auto& item : items) {
      std::string inner = blocks(item);
      while (!inner.empty() && inner.back() == '\n') inner.pop_back();
      out += "<li>" + inner + "</li>\n";
    }
    return out + (ordered ? "</ol>\n" : "</ul>\n");
  }
  if (t == "DefinitionList") {
    std::string out = "<dl>\n";
    for (const auto& entry : c) {
      out += "<dt>" + inlines(entry[0]) + "</dt>\n";
      for (const auto& def : entry[1]) {
        out += "<dd>\n" + blocks(def) + "</dd>\n";
      }
    }
    return out + "</dl>\n";
  }
  if (t == "HorizontalRule") return "<hr>\n";
  if (t == "LineBlock") {
    std::string out = "<div class=\"line-block\">";
    for (std::size_t i = 0; i < c.size(); ++i) {
      out += (i ? "<br>\n" : "") + inlines(c[i]);
    }
    return out + "</div>\n";
  }
  if (t == "Table") return table(node);
  if (t == "Div") return div(node);
  return {};
}

std::string HtmlWriter::inline_node(const Json& node) {
  const std::string& t = node["t"].get_ref<const std::string&>();
  if (t == "Space") return " ";
  if (t == "SoftBreak") return "\n";
  if (t == "LineBreak") return "<br>\n";
  const Json& c = node["c"];
  if (t == "Str") return escape_markup(c.get_ref<const std::string&>());
  if (t == "Emph") return "<em>" + inlines(c) + "</em>";
  if (t == "Underline") return "<u>" + inlines(c) + "</u>";
  if (t == "Strong") return "<strong>" + inlines(c) + "</strong>";
  if (t == "Strikeout") return "<del>" + inlines(c) + "</del>";
  if (t == "Superscript") return "<sup>" + inlines(c) + "</sup>";
  if (t == "Subscript") return "<sub>" + inlines(c) + "</sub>";
  if (t == "SmallCaps") {
    return "<span class=\"smallcaps\">" + inlines(c) + "</span>";
  }
  if (t == "Quoted") {
    bool single = c[0]["t"] == "SingleQuote";
    return std::string(single ? "\u2018" : "\u201c") + inlines(c[1]) +
           (single ? "\u2019" : "\u201d");
  }
  if (t == "Cite") return inlines(c[1]);
  if (t == "Code") {
    return "<code" + attrs(c[0]) + ">" + escape_markup(str(c[1])) + "</code>";
  }
  if (t == "Math") return ctx_.math(str(c[1]), c[0]["t"] == "DisplayMath");
  if (t == "RawInline") return str(c[0]) == "html" ? str(c[1]) : std::string();
  if (t == "Link") return link(node);
  if (t == "Image") {
    // As Pandoc: no title or alt attribute when it would be empty.
    std::string title = str(c[2][1]);
    std::string alt = inline_text(c[1]);
    return "<img src=\"" + escape_markup(str(c[2][0])) + "\"" +
           (title.empty() ? "" : " title=\"" + escape_markup(title) + "\"") +
           (alt.empty() ? "" : " alt=\"" + escape_markup(alt) + "\"") +
           attrs(c[0]) + ">";
  }
  if (t == "Note") {
    notes_.push_back(blocks(c));
    std::string n = std::to_string(notes_.size());
    return "<a href=\"#fn" + n + "\" class=\"footnote-ref\" id=\"fnref" + n +
           "\" role=\"doc-noteref\"><sup>" + n + "</sup></a>";
  }
  if (t == "Span") return span(node);
  return {};
}

std::string HtmlWriter::span(const Json& node) {
  const Json& attr = node["c"][0];
  const Json& content = node["c"][1];
  const SpanClass what = span_class(ctx_.chapter, attr);
  if (what.kind == SpanKind::Value) {
    return "<span class=\"checked-value\" title=\"checked against the demo's "
           "value " + escape_markup(what.name) + "\">" + inlines(content) + "</span>";
  }
  // A position wrapper, or a `.lit` marker and nothing of the author's
  // beside it, is only its content.
  const OwnAttr own = own_attr(attr);
  bool plain = own.id.empty() && own.attributes.empty();
  for (const std::string& cls : own.classes) plain = plain && cls == "lit";
  if (plain) return inlines(content);
  return "<span" + attrs(attr) + ">" + inlines(content) + "</span>";
}

// The workbench the model read from the div with this attr, found by the
// line of its fence; null without a chapter.
const NameAt* HtmlWriter::workbench(const Json& attr) const {
  return ctx_.chapter ? ctx_.chapter->workbench_at(attr_line(attr)) : nullptr;
}

// The checkpoint the model read from the div with this attr, found by
// the line of its fence; null without a chapter.
const Checkpoint* HtmlWriter::checkpoint(const Json& attr) const {
  return ctx_.chapter ? ctx_.chapter->checkpoint_at(attr_line(attr))
                      : nullptr;
}

// The figure, table or exercise the model numbered for the div with
// this attr, found by the line of its fence; null without a chapter.
const Numbered* HtmlWriter::numbered(const Json& attr) const {
  return ctx_.chapter ? ctx_.chapter->numbered_at(attr_line(attr)) : nullptr;
}

// "Figure 29.1" for a link to a numbered item ("#figure-curves" or
// "chapter:training#figure-curves"); empty for anything else.
std::string HtmlWriter::reference_label(const std::string& target) const {
  const LinkTarget to = parse_link_target(target);
  if (to.anchor.empty() || !ctx_.index) return "";
  const IndexEntry* e = nullptr;
  if (to.kind == LinkTarget::Kind::Chapter) {
    e = ctx_.index->by_id(to.chapter);
  } else if (to.kind == LinkTarget::Kind::Local && ctx_.chapter) {
    e = ctx_.index->by_stem(ctx_.chapter->stem);
  }
  if (!e) return "";
  auto it = e->labels.find(to.anchor);
  return it == e->labels.end() ? "" : it->second;
}

std::string HtmlWriter::link(const Json& node) {
  const Json& c = node["c"];
  std::string target = str(c[2][0]);
  // [](#figure-NAME): the link's text is the item's number.
  const std::string text =
      c[1].empty() ? escape_markup(reference_label(target)) : inlines(c[1]);
  if (const LinkTarget to = parse_link_target(target);
      to.kind == LinkTarget::Kind::Chapter) {
    const IndexEntry* e = ctx_.index ? ctx_.index->by_id(to.chapter) : nullptr;
    target = (e ? e->stem : to.chapter) + ".html" +
             (to.anchor.empty() ? "" : "#" + to.anchor);
  }
  std::string title = str(c[2][1]);
  return "<a href=\"" + escape_markup(target) + "\"" +
         (title.empty() ? "" : " title=\"" + escape_markup(title) + "\"") +
         attrs(c[0]) + ">" + text + "</a>";
}

std::string HtmlWriter::code_block(const Json& node) {
  const Json& attr = node["c"][0];
  std::string code = str(node["c"][1]);
  const CodeKind kind = code_kind(ctx_.chapter, attr);
  if (kind == CodeKind::Output) {
    const std::string stem = ctx_.chapter ? ctx_.chapter->stem : "";
    return "<figure class=\"output\"><figcaption>Output of <code>demos/" +
           escape_markup(stem) + ".cpp</code></figcaption><pre><code>" +
           escape_markup(code) + "</code></pre></figure>\n";
  }
  if (kind == CodeKind::Region || kind == CodeKind::HiddenRegion) {
    // The region as the model read it, found by the line of its fence.
    // A writer without a chapter (the writer tested alone) has no
    // model: it hides a hidden region and writes a shown one as an
    // ordinary block.
    const Region* r =
        ctx_.chapter ? ctx_.chapter->region_at(attr_line(attr)) : nullptr;
    if (r) return r->hidden ? std::string() : listing(*r);
    if (kind == CodeKind::HiddenRegion) return {};
  }
  // An ordinary block, written as Pandoc writes it: highlighted languages
  // in a div.sourceCode carrying the block's id, others as a plain <pre>
  // with the block's id, classes and attributes.
  const OwnAttr own = own_attr(attr);
  const std::string lang = own.classes.empty() ? "" : own.classes[0];
  if (ctx_.highlights && ctx_.highlights(lang)) {
    return ctx_.highlight(lang, code, own.id) + "\n";
  }
  return "<pre" + attrs(attr) + "><code>" + escape_markup(code) +
         "</code></pre>\n";
}

// A shown region's listing, all of it from the model: its name, its
// file (for a fill or a revision, the file tangle found), what it fills
// or revises, its language and code.
std::string HtmlWriter::listing(const Region& r) {
  const std::string& name = r.name;  // a revision's name is the revised one
  const std::string& revise = r.revise;
  const std::string& code = r.code;
  Json facts = ctx_.listings.value(name, Json::object());
  std::string file = r.file.empty() ? facts.value("file", "") : r.file;
  std::string caption = "<span class=\"listing-file\">" + escape_markup(file) +
                        "</span><span class=\"listing-region\">" +
                        escape_markup(name) + "</span>";
  if (!r.fill.empty()) {
    caption += "<span class=\"listing-note\">fills <code>" +
               escape_markup(r.fill) + "</code></span>";
  }
  std::string extra;
  std::string classes = "listing";
  std::string id = region_anchor(name, !revise.empty());
  if (!revise.empty()) {
    classes += " revision";
    std::string origin = facts.value("origin", "");
    const IndexEntry* from = ctx_.index ? ctx_.index->by_stem(origin) : nullptr;
    std::string where = from ? from->title : origin;
    caption += "<span class=\"listing-note\">revises <a href=\"" +
               escape_markup(origin) + ".html#region-" + escape_markup(name) +
               "\">" + escape_markup(name) + "</a> from " +
               escape_markup(where) + "</span>";
    std::string previous = facts.value("previous", "");
    extra = "<details class=\"listing-diff\"><summary>What changed</summary>" +
            ctx_.highlight("diff", line_diff(previous, code), "") +
            "</details>";
  }
  return "<figure class=\"" + classes + "\" id=\"" + escape_markup(id) +
         "\"><figcaption>" + caption + "</figcaption>" +
         ctx_.highlight(r.lang, code, "") + api_links(facts) + extra +
         "</figure>\n";
}

// "Defines" with a link to the API reference for each symbol declared or
// defined on the listing's own lines of the generated file.
std::string HtmlWriter::api_links(const Json& facts) const {
  if (!ctx_.api || !facts.contains("lines")) return {};
  auto found = symbols_on_lines(*ctx_.api, facts.value("file", ""),
                                facts["lines"]);
  if (found.empty()) return {};
  std::string out = "<p class=\"listing-api\">Defines ";
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (i > 0) out += ", ";
    out += "<a href=\"" + escape_markup(found[i]->href) +
           "\" title=\"API reference\"><code>" + escape_markup(found[i]->name) +
           "</code></a>";
  }
  return out + "</p>";
}

namespace {

// "<span class="item-number">Table 25.2.</span> " before a caption.
std::string item_number(const Numbered& n) {
  return "<span class=\"item-number\">" + escape_markup(n.label) + ".</span> ";
}

// The number inside a caption's first paragraph, or before the caption.
std::string number_caption(const std::string& caption, const Numbered& n) {
  if (caption.rfind("<p>", 0) == 0) {
    return "<p>" + item_number(n) + caption.substr(3);
  }
  return item_number(n) + caption;
}

}  // namespace

// A table the demo published; the div's content, if any, replaces the
// demo's caption.
std::string HtmlWriter::table_div(const std::string& name, const Json& attr,
                                  const Json& content) {
  std::string html = ctx_.table(name);
  const Numbered* n = numbered(attr);
  if (!content.empty()) {
    auto open = html.find("<caption>");
    auto close = html.find("</caption>");
    std::string caption = blocks(content);
    if (caption.rfind("<p>", 0) == 0) {
      caption = caption.substr(3, caption.rfind("</p>") - 3);
    }
    if (open != std::string::npos && close != std::string::npos) {
      html.replace(open + 9, close - open - 9, caption);
    }
  }
  if (auto open = html.find("<caption>"); n && open != std::string::npos) {
    html.insert(open + 9, item_number(*n));
  }
  return "<figure class=\"book-table\" id=\"" +
         escape_markup(placement_anchor(false, name)) + "\">" + html +
         "</figure>\n";
}

// A figure the demo drew, under the div's caption.
std::string HtmlWriter::figure_div(const std::string& name, const Json& attr,
                                   const Json& content) {
  const Numbered* n = numbered(attr);
  std::string caption = blocks(content);
  if (n) caption = number_caption(caption, *n);
  return "<figure class=\"book-figure\" id=\"" +
         escape_markup(placement_anchor(true, name)) + "\">" + ctx_.figure(name) + "<figcaption>" + caption +
         "</figcaption></figure>\n";
}

// A Markdown table the author wrote, with a caption from the attribute.
std::string HtmlWriter::caption_div(const std::string& caption,
                                    const Json& attr, const Json& content) {
  const Numbered* n = numbered(attr);
  std::string html = blocks(content);
  auto open = html.find("<table>");
  if (open != std::string::npos) {
    html.insert(open + 7, "\n<caption>" + (n ? item_number(*n) : "") +
                              escape_markup(caption) + "</caption>");
  }
  if (n && !n->anchor.empty()) {
    return "<div id=\"" + escape_markup(n->anchor) + "\">" + html + "</div>\n";
  }
  return html;
}

// A workbench (book/workbench/NAME/, built by cmake/Workbench.cmake into
// the site's workbench/ directory): the div's content introduces it;
// NAME.js fills the container with the help of common.js, computing with
// the WebAssembly module NAME-module.js. check has made sure NAME is one
// of book.yaml's workbenches.
std::string HtmlWriter::workbench_div(const NameAt& wb, const Json& attr,
                                      const Json& content) {
  // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, falsely)
  // about a literal + a temporary string here.
  const std::string dir = "workbench/";
  const std::string& name = wb.name;
  const std::string& id = wb.anchor;
  // The author's classes, as written.
  const std::string classes = joined_classes("", own_attr(attr).classes);
  std::string out = "<link rel=\"stylesheet\" href=\"";
  out += dir;
  out += "workbench.css\">\n<section id=\"";
  out += escape_markup(id);
  out += "\" class=\"";
  out += escape_markup(classes);
  out += "\" data-workbench=\"";
  out += escape_markup(name);
  out += "\" aria-label=\"Workbench\">\n";
  out += blocks(content);
  out += "<div class=\"workbench-app\"><p class=\"workbench-status\" "
         "role=\"status\">The workbench needs JavaScript and "
         "WebAssembly.</p></div>\n</section>\n";
  for (const std::string& script : {name + "-module.js", std::string("common.js"),
                                   name + ".js"}) {
    out += "<script src=\"";
    out += dir;
    out += script;
    out += "\" defer></script>\n";
  }
  return out;
}

// A numbered exercise: its text, its test command, its answer collapsed;
// its number, title and test command as the model read them.
std::string HtmlWriter::exercise_div(const Numbered& n, const Json& content) {
  const std::string& title = n.title;
  const std::string& tests = n.tests;
  std::string body, answer;
  for (const auto& b : content) {
    if (answer_div(b)) {
      answer += blocks(b["c"][1]);
    } else {
      body += block(b);
    }
  }
  std::string out =
      "<section class=\"exercise\" id=\"" + escape_markup(n.anchor) +
      "\"><h3>" + escape_markup(n.label) +
      (title.empty() ? "" : ": " + escape_markup(title)) + "</h3>\n" + body;
  if (!tests.empty()) {
    out += "<p class=\"exercise-tests\">Run its tests: <code>" +
           escape_markup(tests) + "</code></p>\n";
  }
  return out + "<details class=\"answer\"><summary>Answer</summary>\n" +
         answer + "</details></section>\n";
}

std::string HtmlWriter::div(const Json& node) {
  const Json& attr = node["c"][0];
  const Json& content = node["c"][1];
  const DivClass what = div_class(ctx_.chapter, attr, content);
  switch (what.kind) {
    case DivKind::Placement:
      return what.figure ? figure_div(what.name, attr, content)
                         : table_div(what.name, attr, content);
    case DivKind::Caption:
      return caption_div(what.name, attr, content);
    case DivKind::Checkpoint:
      if (const Checkpoint* c = checkpoint(attr)) {
        return checkpoint_html(*this, *c, content);
      }
      break;
    case DivKind::Ending:
      return ending_html(*this, what.name, content);
    case DivKind::Callout:
      // A note in the flow of the text, not a landmark: a page has many.
      return "<div" + id_attr(own_attr(attr).id) + " class=\"callout " + what.name +
             "\" role=\"note\"><p class=\"callout-title\">" + what.title +
             "</p>\n" + blocks(content) + "</div>\n";
    // A writer without a chapter (the writer tested alone) has no model
    // of a workbench, an exercise or a checkpoint: it writes them as
    // plain divs.
    case DivKind::Workbench:
      if (const NameAt* wb = workbench(attr)) {
        return workbench_div(*wb, attr, content);
      }
      break;
    case DivKind::Exercise:
      if (const Numbered* n = numbered(attr)) return exercise_div(*n, content);
      break;
    case DivKind::Plain:
      break;
  }
  return "<div" + attrs(attr) + ">\n" + blocks(content) + "</div>\n";
}

std::string HtmlWriter::table(const Json& node) {
  const Json& c = node["c"];
  std::vector<std::string> align;
  for (const auto& spec : c[2]) {
    std::string a = str(spec[0]["t"]);
    align.push_back(a == "AlignLeft"     ? "left"
                    : a == "AlignRight"  ? "right"
                    : a == "AlignCenter" ? "center"
                                         : "");
  }
  auto cell_html = [&](const Json& cell, bool head, std::size_t col) {
    std::string tag = head ? "th" : "td";
    std::string style = col < align.size() && !align[col].empty()
                            ? " style=\"text-align: " + align[col] + "\""
                            : "";
    std::string scope = head ? " scope=\"col\"" : "";
    std::string inner = blocks(cell[4]);
    while (!inner.empty() && inner.back() == '\n') inner.pop_back();
    return "<" + tag + scope + style + ">" + inner + "</" + tag + ">";
  };
  auto rows = [&](const Json& list, bool head) {
    std::string out;
    for (const auto& row : list) {
      out += "<tr>";
      std::size_t col = 0;
      for (const auto& cell : row[1]) out += cell_html(cell, head, col++);
      out += "</tr>\n";
    }
    return out;
  };
  std::string out = "<table>\n";
  std::string caption = blocks(c[1][1]);
  if (!caption.empty()) out += "<caption>" + caption + "</caption>\n";
  if (!c[3][1].empty()) out += "<thead>\n" + rows(c[3][1], true) + "</thead>\n";
  out += "<tbody>\n";
  for (const auto& body : c[4]) out += rows(body[3], false);
  out += "</tbody>\n</table>\n";
  return "<div class=\"table-wrap\">" + out + "</div>\n";
}

std::string HtmlWriter::footnotes() const {
  if (notes_.empty()) return {};
  // As Pandoc writes them: the link back ends the note's last paragraph.
  std::string out = "<section class=\"footnotes footnotes-end-of-document\" "
                    "role=\"doc-endnotes\">\n<hr>\n<ol>\n";
  for (std::size_t i = 0; i < notes_.size(); ++i) {
    std::string n = std::to_string(i + 1);
    std::string note = notes_[i];
    std::string back = "<a href=\"#fnref" + n +
                       "\" class=\"footnote-back\" role=\"doc-backlink\">"
                       "\u21a9\ufe0e</a>";
    const std::string close = "</p>\n";
    if (note.size() >= close.size() &&
        note.compare(note.size() - close.size(), close.size(), close) == 0) {
      note.insert(note.size() - close.size(), back);
    } else {
      note += back;
    }
    out += "<li id=\"fn" + n + "\" role=\"doc-endnote\">" + note + "</li>\n";
  }
  return out + "</ol>\n</section>\n";
}

std::string line_diff(const std::string& before, const std::string& after) {
  auto a = split_lines(before), b = split_lines(after);
  std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1
                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::string out;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out += " " + a[i++] + "\n";
      ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out += "-" + a[i++] + "\n";  // removals first, as in a unified diff
    } else {
      out += "+" + b[j++] + "\n";
    }
  }
  if (!out.empty()) out.pop_back();
  return out;
}

// ---- templates ----------------------------------------------------------

namespace {

struct TemplateParser {
  const std::string& src;
  const std::string& name;
  std::size_t pos = 0;

  [[noreturn]] void fail(const std::string& what) const {
    int line = 1 + static_cast<int>(std::count(
                       src.begin(), src.begin() + static_cast<long>(pos), '\n'));
    throw Failure({name, line}, "template: " + what);
  }

  // Renders until one of the stop directives; returns the one found
  // (empty at the end of the template).
  std::string render(const TemplateVars& vars, std::string& out, bool emit,
                     std::initializer_list<std::string_view> stops) {
    while (pos < src.size()) {
      auto directive = next_directive(out, emit);
      if (!directive) continue;
      for (auto stop : stops) {
        if (*directive == stop) return *directive;
      }
      if (directive->rfind("if(", 0) == 0) {
        if_block(loop_variable(*directive, 3), vars, out, emit);
      } else if (directive->rfind("for(", 0) == 0) {
        for_block(loop_variable(*directive, 4), vars, out, emit);
      } else if (*directive == "else" || *directive == "endif" ||
                 *directive == "endfor") {
        fail("unexpected $" + *directive + "$");
      } else if (auto it = vars.find(*directive);
                 emit && it != vars.end() && !it->second.is_list) {
        out += it->second.text;
      }
    }
    return {};
  }

 private:
  // Copies text up to the next directive and returns the directive, or
  // nothing after "$$", a "$--" comment, or the end of the template.
  std::optional<std::string> next_directive(std::string& out, bool emit) {
    std::size_t d = src.find('$', pos);
    if (d == std::string::npos) {
      if (emit) out.append(src, pos, std::string::npos);
      pos = src.size();
      return std::nullopt;
    }
    if (emit) out.append(src, pos, d - pos);
    if (d + 1 < src.size() && src[d + 1] == '$') {
      if (emit) out += '$';
      pos = d + 2;
      return std::nullopt;
    }
    if (src.compare(d, 3, "$--") == 0) {  // comment to end of line
      std::size_t nl = src.find('\n', d);
      pos = nl == std::string::npos ? src.size() : nl + 1;
      return std::nullopt;
    }
    std::size_t end = src.find('$', d + 1);
    if (end == std::string::npos) fail("unterminated '$'");
    pos = end + 1;
    return src.substr(d + 1, end - d - 1);
  }

  // "if(v)" or "for(v)" -> "v".
  std::string loop_variable(const std::string& directive, std::size_t open) {
    std::string var = directive.substr(open);
    if (var.empty() || var.back() != ')') fail("bad directive $" + directive + "$");
    var.pop_back();
    return var;
  }

  // A list is true when it has items; text when it is not empty.
  static bool truthy(const TemplateVars& vars, const std::string& var) {
    auto it = vars.find(var);
    return it != vars.end() && (it->second.is_list ? !it->second.list.empty()
                                                   : !it->second.text.empty());
  }

  void if_block(const std::string& var, const TemplateVars& vars,
                std::string& out, bool emit) {
    bool yes = truthy(vars, var);
    std::string stop = render(vars, out, emit && yes, {"else", "endif"});
    if (stop == "else") stop = render(vars, out, emit && !yes, {"endif"});
    if (stop != "endif") fail("$if(" + var + ")$ without $endif$");
  }

  // The body once per item (text counts as one item), with the variable
  // bound to the item; skipped once, without output, when there is none.
  void for_block(const std::string& var, const TemplateVars& vars,
                 std::string& out, bool emit) {
    std::vector<std::string> items;
    if (truthy(vars, var)) {
      const auto& v = vars.at(var);
      items = v.is_list ? v.list : std::vector<std::string>{v.text};
    }
    std::size_t body = pos;
    std::string stop;
    if (items.empty() || !emit) stop = render(vars, out, false, {"endfor"});
    for (const auto& item : items) {
      if (!emit) break;
      pos = body;
      TemplateVars inner = vars;
      inner[var] = TemplateValue{item, {}, false};
      stop = render(inner, out, true, {"endfor"});
    }
    if (stop != "endfor") fail("$for(" + var + ")$ without $endfor$");
  }
};

}  // namespace

std::string apply_template(const std::string& tmpl, const TemplateVars& vars,
                           const std::string& template_name) {
  TemplateParser p{tmpl, template_name};
  std::string out;
  p.render(vars, out, true, {});
  return out;
}

}  // namespace litbook
