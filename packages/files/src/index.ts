export {
  checkLocalFile,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_READ_TIMEOUT_MS,
  FileAccessError,
  type FileAccessPolicy,
  type FileAccessProblem,
  readConfinedFile,
  readErrorReason,
  readLocalText,
} from './file-access.js';
