// The API benches' measured user: an ordinary account (the first one is the admin) holding `rows`
// comparisons, seeded through whatever sends a request (a real server or app.handle in-process).
export type Send = (req: Request) => Promise<Response>;

export async function seedListUser(send: Send, base: string, rows: number): Promise<string> {
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await send(
      new Request(base + path, {
        method,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  await call("POST", "/api/auth/signup", undefined, { email: "admin@example.com", password: "password-1" });
  const { accessToken: token } = (await (
    await call("POST", "/api/auth/signup", undefined, { email: "bench@example.com", password: "password-1" })
  ).json()) as { accessToken: string };
  for (let i = 0; i < rows; i++)
    await call("POST", "/api/comparisons", token, { name: `Competitor sweep ${i + 1}`, description: `Landing pages, round ${i + 1}` });
  return token;
}
