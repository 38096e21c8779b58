// Model output that does not follow the requested format. Callers retry, and record an explicit
// failure when retries are exhausted: unparseable output is never read as a default verdict.
export class OutputParseError extends Error {
  constructor(
    readonly templateId: string,
    message: string,
    readonly output: string,
  ) {
    super(`${templateId}: ${message}`);
    this.name = 'OutputParseError';
  }
}

// Finds the single JSON object in a reply, tolerating a ```json fence or text around it.
export function extractJsonObject(templateId: string, output: string): Record<string, unknown> {
  const fenced = output.match(/```(?:json)?\s*([\s\S]*?)```/);
  const body = fenced ? fenced[1]! : output;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start === -1 || end <= start)
    throw new OutputParseError(templateId, 'no JSON object in the reply', output);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.slice(start, end + 1));
  } catch (err) {
    throw new OutputParseError(templateId, `invalid JSON (${(err as Error).message})`, output);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new OutputParseError(templateId, 'the reply is not a JSON object', output);
  }
  return parsed as Record<string, unknown>;
}
