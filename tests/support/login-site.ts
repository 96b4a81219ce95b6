// The dynamic half of tests/fixtures/sites/login-site: a sign-in form that sets a session cookie,
// and pages (/login-site/pricing/, /login-site/features/) that show members' content only with it
// and the form otherwise (with a 401). Served through startFixtureServer's handler; the server's hits() count
// the sign-ins (POST /login-site/login). `partner`: the origin of the look-alike sign-in the form's
// page links to and frames (another fixture server: another port, another origin).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITES_DIR, type FixtureHandler } from "./fixture-server";
import { HTML_TYPE } from "./static-files";

export const LOGIN_EMAIL = "ada@tally.test";
/** Distinctive, so a test can look for it anywhere. */
export const LOGIN_PASSWORD = "pw-Kx7!qR2#zebra-lantern";

const DIR = join(SITES_DIR, "login-site");
const MEMBERS_PAGES: Record<string, string> = { "/login-site/pricing/": "pricing.html", "/login-site/features/": "features.html" };

const page = (file: string, fill: Record<string, string> = {}, status = 200) =>
  new Response(
    readFileSync(join(DIR, file), "utf8").replace(/\{\{(\w+)\}\}/g, (_, k: string) => Bun.escapeHTML(fill[k] ?? "")),
    { status, headers: { "content-type": HTML_TYPE, "cache-control": "no-store" } },
  );

export function loginSite(partner: () => string): FixtureHandler {
  const sessions = new Set<string>();
  return async (req, url) => {
    if (url.pathname === "/login-site/login" && req.method === "POST") {
      const form = await req.formData();
      const [email, password, next] = ["email", "password", "next"].map((k) => String(form.get(k) ?? ""));
      if (email !== LOGIN_EMAIL || password !== LOGIN_PASSWORD)
        return page("denied.html", { email: email ?? "", password: password ?? "" });
      const sid = crypto.randomUUID();
      sessions.add(sid);
      const to = next?.startsWith("/login-site/") ? next : "/login-site/pricing/";
      return new Response(null, { status: 303, headers: { location: to, "set-cookie": `sid=${sid}; Path=/; HttpOnly; SameSite=Lax` } });
    }
    const members = MEMBERS_PAGES[url.pathname];
    if (!members) return null;
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    // Signed out, as many sites do: 401 with the sign-in form.
    return sid && sessions.has(sid) ? page(members) : page("login.html", { next: url.pathname, partner: partner() }, 401);
  };
}
