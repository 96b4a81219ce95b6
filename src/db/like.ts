/** A search term for `LIKE ? ESCAPE '\'`: its wildcards are literal characters, not patterns. */
export const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
