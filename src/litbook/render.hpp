// Render: chapters to HTML pages in the site directory.
#pragma once

#include "api.hpp"
#include "book.hpp"
#include "check.hpp"
#include "html.hpp"

namespace litbook {

struct RenderOptions {
  fs::path root;          ///< project root (book/ templates and assets)
  fs::path site;          ///< output directory (build/site)
  fs::path outputs;       ///< demo outputs (build/out)
  fs::path cache;         ///< caches for KaTeX and highlighting
  std::optional<fs::path> model_dir;
  /// Symbols of the API reference; listings link the ones they define.
  std::vector<ApiSymbol> api;
};

/// Renders one chapter to site/NN-slug.html. `listings` holds what tangle
/// knows about the chapter's regions (files, revisions).
void render_chapter(const Chapter& ch, const BookIndex& index,
                    const Json& listings, const RenderOptions& options);

/// Renders the landing page, site/index.html.
void render_landing(const BookIndex& index, const RenderOptions& options);

/// Copies the frame's assets (CSS, JavaScript, KaTeX's stylesheet and
/// fonts) and writes highlight.css.
void write_assets(const RenderOptions& options);

/// Renders a published table (tables/NAME.json) as accessible HTML.
std::string table_html(const Json& table);

}  // namespace litbook
