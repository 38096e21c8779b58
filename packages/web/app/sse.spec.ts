import { describe, expect, it } from '@jest/globals';
import { createSseParser, type SseEvent } from './sse';

describe('the event-stream parser', () => {
  it('dispatches events on blank lines across chunks and CRLF split between them', () => {
    const events: SseEvent[] = [];
    const p = createSseParser((e) => events.push(e));
    for (const chunk of [
      ': comment\nevent: progress\nda',
      'ta: {"a":1}\r',
      '\n\r\ndata: x\ndata: y\n\n',
      'data: cut',
    ])
      p.push(chunk);
    p.end();
    expect(events).toEqual([
      { event: 'progress', data: '{"a":1}' },
      { event: 'message', data: 'x\ny' },
    ]);
  });
});
