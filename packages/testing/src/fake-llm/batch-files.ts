// OpenAI's Files API as far as batches use it: upload (multipart, purpose `batch`), retrieve,
// content and delete; output and error files are written by the batch desk (batches.ts).

export interface FakeFile {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
}

// An error answer of the Files or Batch API (its HTTP status and message).
export class BatchApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// The text parts of a multipart/form-data body, by field name (JSONL files are text).
export function parseMultipart(
  contentType: string,
  raw: string,
): Map<string, { filename?: string; text: string }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new BatchApiError(400, 'multipart/form-data body without a boundary');
  const parts = new Map<string, { filename?: string; text: string }>();
  for (const chunk of raw.split(`--${boundary[1] ?? boundary[2]}`)) {
    const split = chunk.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = chunk.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (!name) continue;
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    parts.set(name, { filename, text: chunk.slice(split + 4).replace(/\r\n$/, '') });
  }
  return parts;
}

export class FileStore {
  private readonly files = new Map<string, { meta: FakeFile; text: string }>();
  private seq = 0;
  uploads = 0;

  add(filename: string, purpose: string, text: string): FakeFile {
    const meta: FakeFile = {
      id: `file-fake${String(++this.seq).padStart(6, '0')}`,
      object: 'file',
      bytes: Buffer.byteLength(text),
      created_at: Math.floor(Date.now() / 1000),
      filename,
      purpose,
      status: 'processed',
    };
    this.files.set(meta.id, { meta, text });
    return meta;
  }

  // POST /v1/files: a client's upload.
  upload(contentType: string, raw: string): FakeFile {
    if (!/^multipart\/form-data/i.test(contentType))
      throw new BatchApiError(400, "'file' and 'purpose' must be sent as multipart/form-data");
    const parts = parseMultipart(contentType, raw);
    const file = parts.get('file');
    const purpose = parts.get('purpose')?.text;
    if (!file) throw new BatchApiError(400, "missing required parameter: 'file'");
    if (!purpose) throw new BatchApiError(400, "missing required parameter: 'purpose'");
    this.uploads++;
    return this.add(file.filename ?? 'upload.jsonl', purpose, file.text);
  }

  get(id: string): FakeFile {
    return this.entry(id).meta;
  }

  text(id: string): string {
    return this.entry(id).text;
  }

  delete(id: string): { id: string; object: 'file'; deleted: true } {
    this.entry(id);
    this.files.delete(id);
    return { id, object: 'file', deleted: true };
  }

  private entry(id: string) {
    const found = this.files.get(id);
    if (!found) throw new BatchApiError(404, `No such File object: ${id}`);
    return found;
  }
}
