import { open, startLab } from "./support/lab";
const lab = await startLab();
const a = await lab.signup("boss@example.com");
const ctx = await lab.context(a);
for (let i = 0; i < 8; i++) {
  const boss = await ctx.newPage();
  const url = (p: string) => lab.server.url + p;
  await open(boss, url("/comparison"), "light");
  await boss.keyboard.press("Control+k");
  try { await boss.getByRole("dialog").getByRole("option").first().waitFor({ timeout: 4000 }); } catch { console.log(i, "FIRST OPEN FAIL", await boss.evaluate(() => ({ hyd: document.documentElement.dataset.hydrated, dialog: !!document.querySelector('[role=dialog]'), active: document.activeElement?.outerHTML.slice(0, 150) }))); await boss.close(); continue; }
  await boss.keyboard.type("trend");
  await boss.getByRole("dialog").getByRole("option", { name: /Trends/ }).first().waitFor();
  await boss.keyboard.press("Enter");
  await boss.waitForURL(url("/trends"));
  await boss.getByRole("dialog").waitFor({ state: "detached" });
  await boss.keyboard.press("Control+k");
  try {
    await boss.getByRole("dialog").getByText("Recent").waitFor({ timeout: 5000 });
    console.log(i, "ok");
  } catch {
    console.log(i, "FAIL", await boss.evaluate(() => ({ dialog: document.querySelector('[role=dialog]')?.textContent?.slice(0, 300), active: document.activeElement?.outerHTML.slice(0, 200), ls: JSON.stringify(sessionStorage), path: location.pathname })));
  }
  await boss.close();
}
await lab.close();
