import { describe, expect, it } from '@jest/globals';
import { type FullRunReport, renderRunReport } from './render-run-report.js';

const FIXED = "sampled at the model's fixed temperature 1 (asked 0.5)";
const TOP_P = 'top_p 0.9 not sent (the model refuses it)';

const report = (modelNotes: FullRunReport['modelNotes']): FullRunReport => ({
  run: { id: 'r1', name: 'gpt5', status: 'completed', createdAt: 't0', finishedAt: 't1', error: null },
  parts: [],
  costs: {},
  modelNotes,
});

describe('how the models ran, in a report', () => {
  const notes = [
    { system: 'hier-gpt5', model: 'gpt5', note: FIXED, calls: 132 },
    { system: 'hier-gpt5', model: 'gpt5', note: TOP_P, calls: 1 },
    { system: '', model: 'judge-o3', note: FIXED, calls: 2 },
  ];

  it('text and markdown: one line per system, model and note, with its calls', () => {
    const text = renderRunReport(report(notes), 'text');
    expect(text).toContain(
      [
        'How the models ran',
        '',
        "Requests changed to fit the model they went to, per system and model; the calls counted are those the system's results used.",
        `hier-gpt5 (model gpt5): ${FIXED} — 132 calls`,
        `hier-gpt5 (model gpt5): ${TOP_P} — 1 call`,
        `run-wide (model judge-o3): ${FIXED} — 2 calls`,
      ].join('\n'),
    );
    expect(renderRunReport(report(notes), 'md')).toContain(
      `## How the models ran\n\nRequests changed to fit the model they went to, per system and model; the calls counted are those the system's results used.\n- hier-gpt5 (model gpt5): ${FIXED} — 132 calls\n`,
    );
  });

  it('json: the notes under modelNotes', () => {
    const json = JSON.parse(renderRunReport(report(notes), 'json'));
    expect(json.modelNotes).toEqual(notes);
  });

  it('is absent when no call was shaped to its model', () => {
    expect(renderRunReport(report([]), 'text')).toBe('Run gpt5 (r1) — completed\n');
    expect(JSON.parse(renderRunReport(report([]), 'json'))).not.toHaveProperty('modelNotes');
    expect(JSON.parse(renderRunReport(report(undefined), 'json'))).not.toHaveProperty('modelNotes');
  });
});
