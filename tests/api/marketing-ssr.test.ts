// The marketing pages render without the data router (src/ssr/render.tsx) and boot the light entry:
// the page they name, the session the server saw, and the app's pages untouched.
import { describe, expect, test } from "bun:test";
import { clientManifest } from "#server/ssr/assets";
import { scriptJson } from "#server/ssr/render";
import { makeTestApp } from "#tests/support/app";

const t = makeTestApp();
const user = await t.signup();
const header = (html: string) => html.slice(html.indexOf("<header"), html.indexOf("</header>"));
const page = async (path: string, cookie?: string) => (await t.call("GET", path, cookie ? { headers: { cookie } } : {})).text;

describe("marketing pages' server render", () => {
  test("each boots the light entry and names its page; the app's pages boot the app", async () => {
    for (const [path, id] of [
      ["/", "landing"],
      ["/features", "features"],
      ["/pricing", "pricing"],
      ["/no-such-page", "not-found"],
    ] as const) {
      const html = await page(path);
      expect(html).toContain(`<script type="module" src="${clientManifest.marketing.entry}"`);
      expect(html).toContain(`window.__marketingPage="${id}"`);
      expect(html).not.toContain(clientManifest.entry);
    }
    const login = await page("/login");
    expect(login).toContain(`<script type="module" src="${clientManifest.entry}"`);
    expect(login).not.toContain("__marketingPage");
  });

  test("the header is the signed-in one for a signed-in visitor, and the hydration data says so", async () => {
    const out = await page("/");
    expect(header(out)).toContain(">Sign In</a>");
    expect(out).toContain('"user":null');
    const signedIn = await page("/", user.cookie);
    expect(header(signedIn)).toContain(">Dashboard</a>");
    expect(header(signedIn)).not.toContain(">Sign In</a>");
    expect(signedIn).toContain(`"email":"${user.email}"`);
  });

  test("the page's own header link is the current one", async () => {
    expect(await page("/pricing")).toContain('<a aria-current="page" class="mk-nav-link active" href="/pricing">Pricing</a>');
  });

  test("data in the inline script cannot close it or break the line", () => {
    const text = scriptJson({ name: "</script><script>alert(1)</script>\u2028" });
    expect(text).not.toContain("</script");
    expect(text).not.toContain("\u2028");
    expect(JSON.parse(text)).toEqual({ name: "</script><script>alert(1)</script>\u2028" });
  });
});
