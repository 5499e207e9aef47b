// Renders TeX to HTML with Debian's KaTeX, for litbook's build-time math.
// stdin: [{"tex": "...", "display": bool}, ...]
// stdout: [{"html": "..."} or {"error": "..."}, ...] in the same order.
'use strict';
const katex = require('/usr/share/javascript/katex/katex.js');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const results = JSON.parse(input).map(({ tex, display }) => {
    try {
      return {
        html: katex.renderToString(tex, {
          displayMode: display,
          throwOnError: true,
          strict: 'error',
          output: 'htmlAndMathml',
        }),
      };
    } catch (e) {
      return { error: String(e.message || e) };
    }
  });
  process.stdout.write(JSON.stringify(results));
});
