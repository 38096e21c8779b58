// A minimal text/event-stream parser (the parts of the SSE spec the gateway uses: event, data,
// comments, blank-line dispatch). EventSource cannot send an Authorization header, so the page
// reads the stream with fetch and feeds the decoded text here chunk by chunk.

export interface SseEvent {
  event: string;
  data: string;
}

export interface SseParser {
  push(chunk: string): void;
  // Call when the stream ends; a final event without its blank line is dropped, as the spec says.
  end(): void;
}

export function createSseParser(onEvent: (e: SseEvent) => void): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];

  const line = (l: string) => {
    if (l === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    const raw = colon < 0 ? '' : l.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };

  return {
    push(chunk) {
      buffer += chunk;
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) return;
        // A "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
        if (buffer[end] === '\r' && end === buffer.length - 1) return;
        const skip = buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1;
        line(buffer.slice(0, end));
        buffer = buffer.slice(end + skip);
      }
    },
    end() {
      if (buffer.endsWith('\r')) line(buffer.slice(0, -1));
      buffer = '';
      event = '';
      data = [];
    },
  };
}
