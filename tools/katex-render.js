// Renders TeX to HTML with Debian's KaTeX, for litbook's build-time math.
// stdin: [{"tex": "...", "display": bool}, ...]
// stdout: [{"html": "..."} or {"error": "..."}, ...] in the same order.
'use strict';
const katex = require('/usr/share/javascript/katex/katex.js');

// KaTeX writes the attributes of its SVG elements (the radical of \sqrt,
// stretchy arrows and braces) in single quotes; the book's pages quote
// every attribute with double quotes, as html-validate requires. The
// values are numbers, lengths and path data, which hold no quote.
function doubleQuoteSvg(html) {
  return html.replace(/<(svg|path|line|rect|g)\b[^>]*>/g, (tag) =>
    tag.replace(/([A-Za-z:-]+)='([^'"]*)'/g, '$1="$2"'));
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const results = JSON.parse(input).map(({ tex, display }) => {
    try {
      return {
        html: doubleQuoteSvg(katex.renderToString(tex, {
          displayMode: display,
          throwOnError: true,
          strict: 'error',
          output: 'htmlAndMathml',
        })),
      };
    } catch (e) {
      return { error: String(e.message || e) };
    }
  });
  process.stdout.write(JSON.stringify(results));
});
