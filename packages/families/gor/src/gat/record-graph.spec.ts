import { describe, expect, it } from '@jest/globals';
import { RecordGraph } from './record-graph.js';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('graph of records', () => {
  it('retrieves among chunks and earlier responses, and links each response to what it was given', () => {
    const g = new RecordGraph([v(1, 0), v(0, 1), v(1, 1)]);
    // Query [1, 0.2]: cosines 0.981 (chunk 0), 0.196 (chunk 1), 0.832 (chunk 2).
    expect(g.retrieve(v(1, 0.2), 2)).toEqual([0, 2]);
    expect(g.addResponse(v(2, 1), [0, 2])).toBe(3);
    // The response [2,1] is now a node: query [2,1] finds it first (cosine 1), then chunk 2 (0.949).
    expect(g.retrieve(v(2, 1), 2)).toEqual([3, 2]);
    g.addResponse(v(0, 1), [3, 1]);
    expect(g.edges).toEqual([
      [3, 0],
      [3, 2],
      [4, 3],
      [4, 1],
    ]);
    expect(g.nodes).toBe(5);
    expect(Array.from(g.features().slice(6, 8)).map((x) => Number(x.toFixed(6)))).toEqual([
      0.894427, 0.447214,
    ]);
    expect(() => g.addResponse(v(1, 0), [9])).toThrow(
      'node 9 does not exist (the graph has 5 nodes before this response)',
    );
    expect([g.nodes, g.edges.length]).toEqual([5, 4]);
  });
});
