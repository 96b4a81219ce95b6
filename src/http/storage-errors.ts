// A full, read-only or failing disk, or an object store that cannot be reached, is the server's
// trouble, not the request's, and it passes: callers get a 503 with Retry-After instead of a 500,
// and the next write after space (or the store) returns works.

export const STORAGE_UNAVAILABLE_MESSAGE = "Storage is full or read-only right now. Try again shortly.";
export const STORAGE_RETRY_AFTER_SECONDS = 30;
/** An object store (STORAGE_URL) that cannot be reached, refuses us or fails: the same 503, in its own words. */
export const OBJECT_STORE_UNAVAILABLE_MESSAGE = "File storage cannot be reached right now. Try again shortly.";
const OBJECT_STORE_CODE = "EOBJECTSTORE";

/** What src/modules/storage throws when the object store fails; the cause is the client's own error. */
export class ObjectStoreError extends Error {
  readonly code = OBJECT_STORE_CODE;
}

// bun:sqlite's SQLiteError carries SQLite's code name ("SQLITE_FULL", or extended ones such as
// "SQLITE_IOERR_WRITE", "SQLITE_READONLY_DBMOVED"); fs errors carry the errno name.
const SQLITE_STORAGE = /^SQLITE_(FULL|READONLY|IOERR)(_|$)/;
const FS_STORAGE = new Set(["ENOSPC", "EROFS", "EDQUOT"]);
// Errors that cross a worker boundary arrive as text only: the capture worker reports an
// unexpected error as "Capture failed: <message>" (its own reasons, which may quote the page's
// URL, never start that way), and Bun's fs messages start with the errno name.
const STORAGE_TEXT = /^Capture failed: .*\b(ENOSPC|EROFS|EDQUOT|SQLITE_(FULL|READONLY|IOERR)\w*)\b/;

function codeOf(err: unknown): string | null {
  const code = err && typeof err === "object" ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : null;
}

/** True when `err` (or its cause) says storage is full, read-only or failing. */
export function isStorageError(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = codeOf(e);
    if (code && (SQLITE_STORAGE.test(code) || FS_STORAGE.has(code) || code === OBJECT_STORE_CODE)) return true;
  }
  return false;
}

/** The words for a storage error (isStorageError): a full disk and an unreachable object store are fixed differently. */
export function storageMessageOf(err: unknown): string {
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++)
    if (codeOf(e) === OBJECT_STORE_CODE) return OBJECT_STORE_UNAVAILABLE_MESSAGE;
  return STORAGE_UNAVAILABLE_MESSAGE;
}

/** The same test for a capture worker's failure reason, which is all that crosses the worker boundary. */
export const isStorageMessage = (text: string) => STORAGE_TEXT.test(text);
