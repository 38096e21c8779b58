import { OutputParseError } from '@precis/prompts';

const STEP_LINE = /^\s*(?:step\s*)?(\d+)\s*[.):]\s*(.*)$/i;

// G-Eval evaluation steps: a numbered list 1., 2., 3. ... A heading before the first step is
// ignored; unnumbered lines after a step continue it. Numbers must run 1, 2, 3 without gaps
// and every step needs text.
export function parseEvaluationSteps(output: string, templateId = 'opinion.geval.steps'): string[] {
  const steps: string[] = [];
  for (const rawLine of output.split(/\r?\n/)) {
    const line = rawLine.replace(/\*\*/g, '').trim();
    if (line === '') continue;
    const m = STEP_LINE.exec(line);
    if (m) {
      const n = Number(m[1]);
      if (n !== steps.length + 1) {
        throw new OutputParseError(
          templateId,
          `step numbered ${n} where ${steps.length + 1} was expected; steps must be numbered 1, 2, 3, ...`,
          output,
        );
      }
      steps.push(m[2]!.trim());
    } else if (steps.length > 0) {
      const prev = steps.length - 1;
      steps[prev] = `${steps[prev]} ${line.replace(/^[-*]\s+/, '')}`.trim();
    }
  }
  if (steps.length === 0) {
    throw new OutputParseError(templateId, 'no numbered evaluation steps (1., 2., ...) in the reply', output);
  }
  const empty = steps.indexOf('');
  if (empty >= 0) throw new OutputParseError(templateId, `step ${empty + 1} has no text`, output);
  return steps;
}
