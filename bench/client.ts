// A tiny JSON client for the benches that drive a running server through its public API.

export interface ComparisonState {
  id: string;
  status: "pending" | "running" | "completed" | "failed";
  error: string | null;
  progress: { done: number; total: number; stage: string } | null;
}

export function apiClient(base: string) {
  async function call<T = unknown>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  return {
    call,
    async signup(email: string): Promise<string> {
      return (await call<{ accessToken: string }>("POST", "/api/auth/signup", undefined, { email, password: "password-1" })).accessToken;
    },
    async login(email: string): Promise<string> {
      return (await call<{ accessToken: string }>("POST", "/api/auth/login", undefined, { email, password: "password-1" })).accessToken;
    },
    /** A comparison with one target per URL, ready to start. */
    async comparison(token: string, name: string, urls: string[]): Promise<string> {
      const { id } = await call<{ id: string }>("POST", "/api/comparisons", token, { name });
      for (const [i, url] of urls.entries()) await call("POST", `/api/comparisons/${id}/targets`, token, { url, label: `site ${i + 1}` });
      return id;
    },
    start: (token: string, id: string) => call("POST", `/api/comparisons/${id}/start`, token),
    state: (token: string, id: string) => call<ComparisonState>("GET", `/api/comparisons/${id}`, token),
  };
}
