// A problem with a run log, said where it is: `<file> line 12, field tasks.status: ...`.
export class PortableFileError extends Error {
  constructor(
    readonly file: string,
    // A line number, a range ('12-511'), or null for the whole file.
    readonly line: number | string | null,
    problem: string,
    readonly field?: string,
  ) {
    super(
      `${file}${line === null ? '' : ` ${typeof line === 'string' ? 'lines' : 'line'} ${line}`}${field ? `, field ${field}` : ''}: ${problem}`,
    );
    this.name = 'PortableFileError';
  }
}
