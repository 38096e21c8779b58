import { textRuns } from '../model-text';

// Text from a model or a dataset, its **bold** drawn bold; every part goes in as a text node.
export function ModelText({ text }: { text: string }) {
  const runs = textRuns(text);
  if (runs.length === 1 && !runs[0]!.bold) return <>{text}</>;
  return <>{runs.map((r, i) => (r.bold ? <strong key={i}>{r.text}</strong> : r.text))}</>;
}
