import { describe, expect, it } from '@jest/globals';
import { APIError } from 'openai';
import { LlmHttpError, LlmRateLimitError, PermanentModelError } from '../errors.js';
import { mapAttemptError } from './map-error.js';

const ctx = {
  model: 'judge',
  baseURL: 'http://127.0.0.1:9/v1',
  timeoutMs: 1000,
  timedOut: false,
  callerAborted: false,
  secrets: ['sk-secret-key'],
};
const apiError = (status: number, message: string) =>
  APIError.generate(status, { error: { message } }, undefined, new Headers({ 'retry-after': '7' }));

describe('mapAttemptError', () => {
  it.each([400, 401, 403, 404, 422])('HTTP %i is a PermanentModelError, never retryable', (status) => {
    const e = mapAttemptError(apiError(status, 'refused for sk-secret-key'), ctx);
    expect(e).toBeInstanceOf(PermanentModelError);
    expect(e).toMatchObject({
      status,
      model: 'judge',
      baseURL: 'http://127.0.0.1:9/v1',
      serverMessage: 'refused for [REDACTED]',
      retryable: false,
    });
  });

  it.each([408, 409, 500, 502, 503])('HTTP %i stays a retryable LlmHttpError', (status) => {
    const e = mapAttemptError(apiError(status, 'busy'), ctx);
    expect(e).toBeInstanceOf(LlmHttpError);
    expect(e).not.toBeInstanceOf(PermanentModelError);
    expect(e.retryable).toBe(true);
  });

  it('HTTP 429 is a rate limit with the server-requested delay', () => {
    const e = mapAttemptError(apiError(429, 'slow down'), ctx);
    expect(e).toBeInstanceOf(LlmRateLimitError);
    expect((e as LlmRateLimitError).retryAfterMs).toBe(7000);
  });
});
