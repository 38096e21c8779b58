import { describe, expect, it } from '@jest/globals';
import { looksLikeSecret, redactSecretLooking, SECRET_MASK } from './secret-looking.js';

describe('redactSecretLooking', () => {
  it('masks provider keys and opaque random tokens wherever they appear in a message', () => {
    const key = 'sk-proj-AbCdEf0123456789xyzXYZ';
    const opaque = 'Zq3xR9vT2mB7nK4pL8sW1yH6jF0cD5gA';
    expect(redactSecretLooking(`unknown model "${key}" in systems[0].model`)).toBe(
      `unknown model "${SECRET_MASK}" in systems[0].model`,
    );
    expect(redactSecretLooking(`GRPC_HOST=${opaque} is not a host`)).toBe(
      `GRPC_HOST=${SECRET_MASK} is not a host`,
    );
    expect(redactSecretLooking('key precis_AAAAbbbbCCCCdddd1234-_xyz here')).toBe(`key ${SECRET_MASK} here`);
  });

  it('leaves names, paths, URLs, UUIDs and hex digests alone', () => {
    const text =
      'dataset pride-and-prejudice at /data/books/pride_and_prejudice_2024.txt from ' +
      'postgres://postgres@127.0.0.1:5432/postgres run 0b9f3c2e-8d1a-4f6b-9c7e-2a5d8e1f4b3c ' +
      'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 OPENAI_API_KEY';
    expect(redactSecretLooking(text)).toBe(text);
    expect(looksLikeSecret('gpt-4o-mini')).toBe(false);
    expect(looksLikeSecret('hf_AbCdEfGhIjKlMnOpQrSt')).toBe(true);
  });
});
