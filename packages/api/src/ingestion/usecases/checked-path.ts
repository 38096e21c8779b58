import { InvalidInputError } from '@precis/engine';

// Longest path accepted (Linux's PATH_MAX).
const MAX_PATH_LENGTH = 4096;

// A request's file path, trimmed; a path no file can have (empty, too long, a NUL or another
// control character) is invalid input at once: it once reached the database as a task
// payload, failed there, and was answered UNAVAILABLE as if worth a retry.
export function checkedPath(raw: string): string {
  const path = raw.trim();
  if (!path)
    throw new InvalidInputError('path is empty; give the file path as the ingestion service sees it');
  if (path.length > MAX_PATH_LENGTH)
    throw new InvalidInputError(
      `path is ${path.length} characters long; at most ${MAX_PATH_LENGTH} are accepted`,
    );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  const control = /[\u0000-\u001f\u007f]/.exec(path);
  if (control)
    throw new InvalidInputError(
      `path holds a control character (code ${control[0].charCodeAt(0)}) at position ${control.index + 1}; no file path can`,
    );
  return path;
}
