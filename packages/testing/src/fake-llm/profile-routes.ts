import type { IncomingHttpHeaders } from 'node:http';

export const CHAT = '/v1/chat/completions';
export const EMBED = '/v1/embeddings';
export const MODELS = '/v1/models';

// Where a request goes: `path` is one of the routes above (or the unknown path as sent),
// `deployment` the Azure deployment that names the model; `error` a provider's answer at once.
export interface FakeRoute {
  path: string;
  deployment: string | null;
  error: { status: number; body: unknown } | null;
}

// The openai package's AzureOpenAI client posts to {endpoint}/openai/deployments/{deployment}/
// chat/completions (or /embeddings) and lists models at {endpoint}/openai/models, always with
// ?api-version=..., and sends its key in an `api-key` header.
const AZURE_DEPLOYMENT_ROUTE = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;
const AZURE_NOT_FOUND = { status: 404, body: { error: { code: '404', message: 'Resource not found' } } };
const AZURE_DENIED =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';

export function resolveRoute(azure: boolean, rawUrl: string): FakeRoute {
  const [path = '/', query = ''] = rawUrl.split('?');
  if (!azure) return { path, deployment: null, error: null };
  const miss = { path, deployment: null, error: AZURE_NOT_FOUND };
  if (!new URLSearchParams(query).get('api-version')) return miss;
  if (path === '/openai/models') return { path: MODELS, deployment: null, error: null };
  const m = AZURE_DEPLOYMENT_ROUTE.exec(path);
  if (!m) return miss;
  return { path: m[2] === 'embeddings' ? EMBED : CHAT, deployment: decodeURIComponent(m[1]!), error: null };
}

// The credential as the request log shows it: the Authorization header, or Azure's api-key.
export function presentedCredential(azure: boolean, headers: IncomingHttpHeaders): string | null {
  const key = headers['api-key'];
  if (azure && typeof key === 'string') return `api-key ${key}`;
  return headers.authorization ?? null;
}

export function credentialAccepted(azure: boolean, headers: IncomingHttpHeaders, apiKey: string): boolean {
  return azure ? headers['api-key'] === apiKey : headers.authorization === `Bearer ${apiKey}`;
}

// Like real providers, OpenAI's message echoes the key it got: clients must never surface it.
export function unauthorizedBody(azure: boolean, presented: string | null) {
  if (azure) return { error: { code: '401', message: AZURE_DENIED } };
  return {
    error: {
      message: `Incorrect API key provided: ${presented ?? '(none)'}`,
      type: 'invalid_request_error',
      param: null,
      code: null,
    },
  };
}
