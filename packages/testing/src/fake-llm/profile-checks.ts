// Request checks of the provider profiles: each returns the provider's 400 error for a request
// field it refuses, or null. Messages copy what the providers answer, word for word.

export interface FakeProviderError {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

export type RequestCheck = (body: Record<string, unknown>) => FakeProviderError | null;

const refuse = (message: string, param: string, code: string | null = null): FakeProviderError => ({
  message,
  type: 'invalid_request_error',
  param,
  code,
});

const has = (body: Record<string, unknown>, key: string) => body[key] !== undefined && body[key] !== null;
// OpenAI writes a refused string value in single quotes and a number as JSON.
const shown = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));
const asksLogprobs = (body: Record<string, unknown>) => body.logprobs === true || has(body, 'top_logprobs');

export const refuseMaxTokens: RequestCheck = (body) =>
  has(body, 'max_tokens')
    ? refuse(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'max_tokens',
        'unsupported_parameter',
      )
    : null;

// OpenAI's reasoning models take only the default (1) for sampling parameters.
export function onlyDefaultValue(param: 'temperature' | 'top_p'): RequestCheck {
  return (body) =>
    has(body, param) && body[param] !== 1
      ? refuse(
          `Unsupported value: '${param}' does not support ${shown(body[param])} with this model. Only the default (1) value is supported.`,
          param,
          'unsupported_value',
        )
      : null;
}

export const refuseLogprobs: RequestCheck = (body) =>
  asksLogprobs(body)
    ? refuse(
        "Unsupported parameter: 'logprobs' is not supported with this model.",
        'logprobs',
        'unsupported_parameter',
      )
    : null;

export const refuseReasoningEffort: RequestCheck = (body) =>
  has(body, 'reasoning_effort')
    ? refuse(
        "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
        'reasoning_effort',
        'unsupported_parameter',
      )
    : null;

export function reasoningEffortIn(values: readonly string[]): RequestCheck {
  const list = `${values
    .slice(0, -1)
    .map((v) => `'${v}'`)
    .join(', ')}, and '${values.at(-1)}'`;
  return (body) =>
    has(body, 'reasoning_effort') && !values.includes(body.reasoning_effort as string)
      ? refuse(
          `Unsupported value: 'reasoning_effort' does not support ${shown(body.reasoning_effort)} with this model. Supported values are: ${list}.`,
          'reasoning_effort',
          'unsupported_value',
        )
      : null;
}

// Anthropic's OpenAI SDK compatibility layer answers one choice only.
export const onlyOneChoice: RequestCheck = (body) =>
  has(body, 'n') && body.n !== 1 ? refuse('n: Only n=1 is supported', 'n') : null;

export const geminiRefusesLogprobs: RequestCheck = (body) =>
  asksLogprobs(body) ? refuse('Unsupported parameter: logprobs', 'logprobs') : null;

export function firstRefusal(
  checks: readonly RequestCheck[],
  body: Record<string, unknown>,
): FakeProviderError | null {
  for (const check of checks) {
    const error = check(body);
    if (error) return error;
  }
  return null;
}
