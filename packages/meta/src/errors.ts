// A bad input file or request: says what was wrong, where (file, line, field) and how to fix it.
export class MetaInputError extends Error {
  constructor(
    message: string,
    readonly where: { file?: string; line?: number; field?: string } = {},
  ) {
    const place = [
      where.file,
      where.line !== undefined ? `line ${where.line}` : undefined,
      where.field ? `field ${where.field}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    super(place ? `${place}: ${message}` : message);
    this.name = 'MetaInputError';
  }
}
