import { describe, expect, it } from '@jest/globals';
import { batchCostUnits, parseByteSize } from './batch-settings.js';
import { ModelRegistryError, parseModelRegistryText } from './load-model-registry.js';

const entry = (batch: string) => `models:
  judge:
    baseURL: http://127.0.0.1:8000/v1
    model: gpt-4o-mini
    pricePer1MInput: 0.15
    pricePer1MOutput: 0.6
    batch: ${batch}
`;

describe('registry batch settings', () => {
  it('applies the defaults of OpenAI Batch API', () => {
    const spec = parseModelRegistryText(entry('{ enabled: true }'), 'm.yaml').get('judge');
    expect(spec.batch).toEqual({
      discount: '0.5',
      discountBasisPoints: 5000n,
      maxRequests: 50_000,
      maxBytes: 200_000_000,
      completionWindow: '24h',
      pollSeconds: 60,
      gatherSeconds: 5,
      onExpiry: 'batch',
    });
    expect(batchCostUnits(12_345n, spec.batch!)).toBe(6172n);
  });

  it('reads sizes, a discount and onExpiry; enabled: false or no block is online only', () => {
    const spec = parseModelRegistryText(
      entry('{ discount: 0.25, maxBytes: 1.5MB, maxRequests: 10, pollSeconds: 0.2, onExpiry: online }'),
      'm.yaml',
    ).get('judge');
    expect(spec.batch).toMatchObject({
      discountBasisPoints: 2500n,
      maxBytes: 1_500_000,
      maxRequests: 10,
      pollSeconds: 0.2,
      onExpiry: 'online',
    });
    expect(batchCostUnits(10_000n, spec.batch!)).toBe(7500n);
    expect(parseModelRegistryText(entry('{ enabled: false }'), 'm.yaml').get('judge').batch).toBeNull();
    expect(parseModelRegistryText(entry('null'), 'm.yaml').get('judge').batch).toBeNull();
    expect(parseByteSize('200 kb')).toBe(200_000);
    expect(parseByteSize('-1')).toBeNull();
  });

  it('names each wrong field with what it accepts', () => {
    let err: ModelRegistryError | undefined;
    try {
      parseModelRegistryText(
        entry('{ discount: 1.5, maxBytes: lots, onExpiry: later, window: 2 }'),
        'm.yaml',
      );
    } catch (e) {
      err = e as ModelRegistryError;
    }
    expect(err).toBeInstanceOf(ModelRegistryError);
    expect(err!.issues.map((i) => `${i.field}: ${i.message}`)).toEqual([
      'models.judge.batch.window: unknown field (known: enabled, discount, maxRequests, maxBytes, completionWindow, pollSeconds, gatherSeconds, onExpiry)',
      'models.judge.batch.discount: must be a share between 0 and 1, e.g. 0.5 (got 1.5)',
      'models.judge.batch.maxBytes: must be a size such as 200MB or 1000000 (got "lots")',
      'models.judge.batch.onExpiry: must be "batch" or "online" (got "later")',
    ]);
  });
});
