import { PortableFileError } from './portable-error.js';
import {
  PORTABLE_FORMAT,
  PORTABLE_TABLES,
  PORTABLE_VERSION,
  type PortableHeader,
  UUID_PATTERN,
} from './portable-format.js';

// Line 1: what the file is, in which format version, of which run.
export function readHeader(file: string, text: string): PortableHeader {
  let header: Partial<PortableHeader>;
  try {
    header = JSON.parse(text) ?? {};
  } catch {
    throw notAnExport(file);
  }
  if (header.format !== PORTABLE_FORMAT) throw notAnExport(file);
  const version = header.version;
  if (!Number.isInteger(version) || (version as number) < 1)
    throw new PortableFileError(
      file,
      1,
      `expected a positive integer, got ${JSON.stringify(version)}`,
      'version',
    );
  if ((version as number) > PORTABLE_VERSION)
    throw new PortableFileError(
      file,
      1,
      `format version ${version} is newer than this Precis reads (${PORTABLE_VERSION}): upgrade Precis to import it`,
      'version',
    );
  if (typeof header.run !== 'string' || !UUID_PATTERN.test(header.run))
    throw new PortableFileError(file, 1, `expected the run's id, got ${JSON.stringify(header.run)}`, 'run');
  return header as PortableHeader;
}

function notAnExport(file: string): PortableFileError {
  return new PortableFileError(
    file,
    1,
    `not a Precis run log (its first line should say "format": "${PORTABLE_FORMAT}"); write one with \`precis export <run> --out <file>\``,
  );
}

// The closing line's row counts must be those read: a line lost in between is a damaged file.
export function readTrailer(
  file: string,
  no: number,
  obj: Record<string, unknown>,
  read: Record<string, number>,
) {
  const rows = (obj.end as { rows?: Record<string, unknown> } | null)?.rows;
  if (!rows || typeof rows !== 'object')
    throw new PortableFileError(file, no, 'the closing line has no row counts', 'end.rows');
  for (const table of PORTABLE_TABLES) {
    const said = rows[table.name] ?? 0;
    const got = read[table.name] ?? 0;
    if (said !== got)
      throw new PortableFileError(
        file,
        no,
        `the file says it holds ${String(said)} rows of ${table.name}, but ${got} were read: it is damaged; export the run again`,
        `end.rows.${table.name}`,
      );
  }
}
