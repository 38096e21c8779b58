// A dataset file that cannot be imported as given. The message names the file, the record
// (line for JSONL, index path for JSON) and the field, and says how to fix it.
export interface DatasetIssue {
  file: string;
  // 'line 7' (JSONL), '[12].KGD[3]' (JSON), or undefined for whole-file problems.
  record?: string;
  // Field path inside the record, e.g. 'utterance' or 'summaries["gpt-4"].dimensions.Fluency'.
  field?: string;
  problem: string;
  hint?: string;
}

export class DatasetValidationError extends Error {
  readonly file: string;
  readonly record: string | undefined;
  readonly field: string | undefined;
  readonly problem: string;
  readonly hint: string | undefined;

  constructor(issue: DatasetIssue) {
    super(formatIssue(issue));
    this.name = 'DatasetValidationError';
    this.file = issue.file;
    this.record = issue.record;
    this.field = issue.field;
    this.problem = issue.problem;
    this.hint = issue.hint;
  }
}

export function formatIssue(issue: DatasetIssue): string {
  let where = issue.file;
  if (issue.record && issue.field) {
    // JSON records read as one path ([12].KGD[3].utterance); JSONL as "line 7, field text".
    where += issue.record.startsWith('[')
      ? `: ${issue.record}${issue.field.startsWith('[') ? '' : '.'}${issue.field}`
      : `: ${issue.record}, field ${issue.field}`;
  } else if (issue.record) {
    where += `: ${issue.record}`;
  } else if (issue.field) {
    where += `: field ${issue.field}`;
  }
  return `${where}: ${issue.problem}${issue.hint ? `. Fix: ${issue.hint}` : ''}`;
}

// The dataset name already holds a different file and the caller did not ask to replace it.
export class DatasetConflictError extends Error {
  constructor(
    readonly datasetName: string,
    readonly existingSha256: string,
    readonly newSha256: string,
    detail: string,
  ) {
    super(
      `dataset "${datasetName}" already exists with ${detail}; ` +
        `re-run with --replace (replace: true) to replace it atomically, or import under another --dataset name`,
    );
    this.name = 'DatasetConflictError';
  }
}

export class DatasetNotFoundError extends Error {
  constructor(readonly datasetName: string) {
    super(`dataset "${datasetName}" not found; list imported datasets with \`precis datasets ls\``);
    this.name = 'DatasetNotFoundError';
  }
}
