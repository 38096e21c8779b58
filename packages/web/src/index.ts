import { readFileSync } from 'node:fs';

// The built page (vite build -> dist/app), read once per process.
let assets: { js: string; css: string } | undefined;

function loadAssets(): { js: string; css: string } {
  if (assets) return assets;
  const read = (name: string) => {
    const url = new URL(`../dist/app/${name}`, import.meta.url);
    try {
      return readFileSync(url, 'utf8');
    } catch {
      throw new Error(`the web page is not built (${url.pathname} is missing): run \`npm run build\``);
    }
  };
  assets = { js: read('app.js'), css: read('app.css') };
  return assets;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// JSON inside <script>: every "<" escaped, so no "</script" or "<!--" can end the element.
const scriptSafe = (s: string) => s.replace(/</g, '\\u003c');

export interface WebPageOptions {
  title: string;
  // A run's view ({run, blocks, figures}) for a self-contained report file; without it the
  // page reads the REST API of the server it came from.
  data?: unknown;
}

// One self-contained HTML page: the app's script and style inline, plus the data when given.
export function webPageHtml(opts: WebPageOptions): string {
  const { js, css } = loadAssets();
  const data =
    opts.data === undefined
      ? ''
      : `<script type="application/json" id="precis-data">${scriptSafe(JSON.stringify(opts.data))}</script>\n`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)}</title>
<style>${css}</style>
</head><body><div id="app"></div>
${data}<script type="module">${js.replace(/<\/script/gi, '<\\/script')}</script>
</body></html>
`;
}

// The data a page written by webPageHtml carries (what a report file shows), or undefined.
export function pageDataOf(html: string): unknown {
  const m = /<script type="application\/json" id="precis-data">([\s\S]*?)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]!) : undefined;
}
