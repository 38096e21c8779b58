import { describe, expect, it } from '@jest/globals';
import type { BenchmarkSpec, StrategyUnit, SystemSpec } from '@precis/engine/family';
import { gorStrategies } from './gor-strategy.js';
import type { RankedNodes, RecordsGraph, SimulatedQueries, TrainedRankings } from './payloads.js';

const queries: SimulatedQueries = { queries: [{ question: 'What was decided?', chunk: 0 }], simulator: 'h' };
const graph: RecordsGraph = {
  responses: ['A budget.'],
  retrieved: [[0, 1]],
  embedder: 'lsa',
  responder: 'x',
};
// The system's trained model's result (a system-wide step): the top nodes per meeting.
const trained: TrainedRankings = { rankings: { doc1: [2, 0], doc2: [1] }, ranker: 'gat' };
const ranked: RankedNodes = { nodes: [1, 0], ranker: 'bm25' };

const strategy = (name: string) => gorStrategies.find((s) => s.name === name)!;
const unit = (
  name: string,
  strategyName: string,
  results: Record<string, unknown>,
  params: Record<string, unknown> = {},
  shared: Record<string, unknown> = {},
) =>
  ({
    runId: 'run1',
    spec: {} as BenchmarkSpec,
    system: { name, strategy: strategyName, engine: 'textrank', params } as unknown as SystemSpec,
    prepared: undefined,
    documentId: 'doc1',
    text: async () => 'meeting text',
    // The engine hands each finished step's text; inner steps' texts are JSON.
    results: new Map(
      Object.entries(results).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ),
    shared: new Map(Object.entries(shared).map(([k, v]) => [k, JSON.stringify(v)])),
  }) as StrategyUnit;
const plan = (
  name: string,
  strategyName: string,
  results: Record<string, unknown>,
  params = {},
  shared: Record<string, unknown> = {},
) => strategy(strategyName).plan(unit(name, strategyName, results, params, shared));
const ROLES: Record<string, string> = {
  simulate: 'query simulation',
  graph: 'graph of records',
  train: 'GoR training',
  rank: 'ranking',
  summary: 'summary',
};
const base = (system: string, step: string) => ({
  type: 'gor-step',
  system,
  documentId: 'doc1',
  step: { key: step, role: ROLES[step] },
});

describe('gorStrategies', () => {
  it('offers the four QMSum strategies', () => {
    expect(gorStrategies.map((s) => [s.name, s.datasetKinds])).toEqual([
      ['gor', ['qmsum']],
      ['thought-retriever', ['qmsum']],
      ['rag', ['qmsum']],
      ['context-window', ['qmsum']],
    ]);
  });

  it('gor (trained) goes simulate -> graph -> system-wide train -> summary, carrying earlier results', async () => {
    expect(await plan('gor', 'gor', {})).toEqual({
      kind: 'steps',
      tasks: [
        {
          id: 'run1:summarize:gor:doc1:simulate',
          runId: 'run1',
          stage: 'summarize',
          kind: 'gor-simulate',
          payload: base('gor', 'simulate'),
        },
      ],
    });
    const graphTask = await plan('gor', 'gor', { simulate: queries });
    expect(graphTask).toEqual({
      kind: 'steps',
      tasks: [
        {
          id: 'run1:summarize:gor:doc1:graph',
          runId: 'run1',
          stage: 'summarize',
          kind: 'gor-graph',
          payload: { ...base('gor', 'graph'), queries },
        },
      ],
    });
    // After its graph, the meeting waits for the system's one training task over all meetings.
    expect(await plan('gor', 'gor', { simulate: queries, graph })).toEqual({
      kind: 'await',
      after: 'graph',
      task: {
        id: 'run1:summarize:gor:*:train',
        runId: 'run1',
        stage: 'summarize',
        kind: 'gor-train',
        payload: {
          type: 'gor-step',
          system: 'gor',
          documentId: '*',
          step: { key: 'train', role: 'GoR training' },
        },
      },
    });
    const summary = await plan('gor', 'gor', { simulate: queries, graph }, {}, { train: trained });
    expect(summary.kind === 'steps' && summary.tasks[0]).toMatchObject({
      id: 'run1:summarize:gor:doc1:summary',
      stage: 'summarize',
      kind: 'gor-summary',
      payload: { ...base('gor', 'summary'), queries, graph, ranked: { nodes: [2, 0], ranker: 'gat' } },
    });
  });

  it('gor with training: false ranks raw embeddings on the retrieval stage instead of training', async () => {
    const off = { training: false };
    const rank = await plan('gor-raw', 'gor', { simulate: queries, graph }, off);
    expect(rank).toEqual({
      kind: 'steps',
      tasks: [
        {
          id: 'run1:retrieve:gor-raw:doc1:rank',
          runId: 'run1',
          stage: 'retrieve',
          kind: 'gor-rank',
          payload: { ...base('gor-raw', 'rank'), queries, graph },
        },
      ],
    });
    const summary = await plan('gor-raw', 'gor', { simulate: queries, graph, rank: ranked }, off);
    expect(summary.kind === 'steps' && summary.tasks[0]).toMatchObject({
      id: 'run1:summarize:gor-raw:doc1:summary',
      kind: 'gor-summary',
      payload: { ranked },
    });
  });

  it('thought-retriever ranks after the graph even with training on', async () => {
    const rank = await plan('tr', 'thought-retriever', { simulate: queries, graph }, { training: true });
    expect(rank.kind === 'steps' && rank.tasks.map((t) => [t.id, t.stage, t.kind])).toEqual([
      ['run1:retrieve:tr:doc1:rank', 'retrieve', 'gor-rank'],
    ]);
    const summary = await plan('tr', 'thought-retriever', { simulate: queries, graph, rank: ranked });
    expect(summary.kind === 'steps' && summary.tasks[0]!.id).toBe('run1:summarize:tr:doc1:summary');
  });

  it('rag ranks the chunks first, then summarizes the ranked nodes', async () => {
    expect(await plan('bm25', 'rag', {})).toEqual({
      kind: 'steps',
      tasks: [
        {
          id: 'run1:retrieve:bm25:doc1:rank',
          runId: 'run1',
          stage: 'retrieve',
          kind: 'gor-rank',
          payload: base('bm25', 'rank'),
        },
      ],
    });
    const summary = await plan('bm25', 'rag', { rank: ranked });
    expect(summary.kind === 'steps' && summary.tasks[0]).toEqual({
      id: 'run1:summarize:bm25:doc1:summary',
      runId: 'run1',
      stage: 'summarize',
      kind: 'gor-summary',
      payload: { ...base('bm25', 'summary'), ranked },
    });
  });

  it('context-window goes straight to the summary', async () => {
    expect(await plan('cw', 'context-window', {})).toEqual({
      kind: 'steps',
      tasks: [
        {
          id: 'run1:summarize:cw:doc1:summary',
          runId: 'run1',
          stage: 'summarize',
          kind: 'gor-summary',
          payload: base('cw', 'summary'),
        },
      ],
    });
  });

  it('returns the finished summary text once the summary step is done', async () => {
    const done = { simulate: queries, graph, summary: 'The team agreed on a budget.' };
    expect(await plan('gor', 'gor', done)).toEqual({
      kind: 'summary',
      text: 'The team agreed on a budget.',
      finalStep: 'summary',
    });
    expect(await plan('cw', 'context-window', { summary: 'Short.' })).toEqual({
      kind: 'summary',
      text: 'Short.',
      finalStep: 'summary',
    });
  });
});
