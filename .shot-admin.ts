import { launchBrowser } from "./tests/support/browser";
const port = 20000 + Math.floor(Math.random() * 20000);
const dataDir = (await Bun.$`mktemp -d`.text()).trim();
const server = Bun.spawn(["bun", "src/main.ts"], { env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1" }, stdout: "pipe", stderr: "inherit" });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) { try { if ((await fetch(base + "/api/health")).ok) break; } catch {} await Bun.sleep(100); }
const r = await fetch(base + "/api/auth/signup", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@example.com", password: "correct-horse-battery", username: "Ada" }) });
const cookie = r.headers.get("set-cookie")!.split(";")[0]!.split("=");
const browser = await launchBrowser();
const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
await ctx.addCookies([{ name: cookie[0]!, value: cookie[1]!, domain: "127.0.0.1", path: "/" }]);
const page = await ctx.newPage();
page.on("console", (m) => { if (m.type() === "error") console.log("console:", m.text()); });
await page.goto(base + "/super-admin");
await page.waitForTimeout(1500);
await page.screenshot({ path: "/tmp/adm/admin1.png", fullPage: true });
for (const tab of (process.argv[2] ?? "").split(",").filter(Boolean)) {
  await page.getByRole("tab", { name: tab }).click();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `/tmp/adm/admin-${tab}.png`, fullPage: true });
}
await browser.close();
server.kill();
