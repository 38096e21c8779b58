// A prompt or reply: shown whole when short, else collapsed to its first lines (a book chunk
// is pages long). Always text nodes, never HTML.
const PREVIEW_LINES = 3;
const PREVIEW_CHARS = 280;

export function LongText({ label, text, testid }: { label: string; text: string; testid: string }) {
  const lines = text.split('\n');
  const tag = <span class="text-label">{label}</span>;
  if (lines.length <= PREVIEW_LINES && text.length <= PREVIEW_CHARS)
    return (
      <div class="long-text" data-testid={testid} data-label={label}>
        {tag}
        <pre class="text-body">{text}</pre>
      </div>
    );
  const preview = lines.slice(0, PREVIEW_LINES).join('\n').slice(0, PREVIEW_CHARS);
  return (
    <details class="long-text" data-testid={testid} data-label={label}>
      <summary>
        {tag}{' '}
        <span class="muted small">
          {lines.length} lines, {text.length} characters
        </span>
        <pre class="text-preview">{preview}…</pre>
      </summary>
      <pre class="text-body">{text}</pre>
    </details>
  );
}
