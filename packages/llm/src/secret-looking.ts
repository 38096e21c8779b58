// Text that reaches logs and users (config, registry and spec errors) may quote a value a user
// pasted by mistake: an API key in the wrong field. Such tokens are masked wherever they appear.

// Provider-style keys (sk-..., hf_..., precis_...) and long opaque tokens mixing upper case,
// lower case and digits (random keys do; names, paths, UUIDs and hex digests do not).
const PREFIXED = /\b(?:sk|pk|rk|hf|gsk|xai|precis)[-_][A-Za-z0-9_-]{16,}/g;
const OPAQUE = /[A-Za-z0-9_-]{32,}/g;

function isOpaqueSecret(token: string): boolean {
  return /[a-z]/.test(token) && /[A-Z]/.test(token) && /[0-9]/.test(token);
}

export const SECRET_MASK = '[redacted: looks like a secret]';

// The text with every secret-looking token replaced by SECRET_MASK.
export function redactSecretLooking(text: string): string {
  return text
    .replace(PREFIXED, SECRET_MASK)
    .replace(OPAQUE, (token) => (isOpaqueSecret(token) ? SECRET_MASK : token));
}

export function looksLikeSecret(value: string): boolean {
  return redactSecretLooking(value) !== value;
}
