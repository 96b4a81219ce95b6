import { completedComparison, open, startLab } from "../support/lab";
const lab = await startLab();
const admin = await lab.signup("boss@example.com");
const id = await completedComparison(lab, admin);
await lab.api(admin, "POST", "/api/system/start");
const anon = await (await lab.context()).newPage();
const adm = await (await lab.context(admin)).newPage();
const u = lab.server.url;
const pages: [any, string][] = [
  [anon, "/"], [anon, "/features"], [anon, "/pricing"], [anon, "/login"], [anon, "/signup"], [anon, "/nope"], [anon, "/dashboard"],
  [adm, "/dashboard"], [adm, "/comparison"], [adm, `/comparison?id=${id}`], [adm, `/comparison/${id}/view`], [adm, "/trends"], [adm, "/analytics"], [adm, "/activity"], [adm, "/tests"], [adm, "/generate"], [adm, "/settings"], [adm, "/super-admin"],
];
const SEL = 'a[href], button, input:not([type=hidden]), select, textarea, [tabindex], [role=switch], [role=tab], [role=radio], [role=checkbox], [contenteditable=""], [contenteditable=true], iframe';
for (const [p, path] of pages) {
  await open(p, u + path, "light");
  const list = await p.evaluate((sel: string) => {
    const visible = (el: Element) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el); return el.getClientRects().length > 0 && cs.visibility !== "hidden" && r.width > 0 && r.height > 0; };
    const els = [...document.querySelectorAll(sel)].filter((el) => !(el as any).disabled && el.getAttribute("aria-disabled") !== "true" && !el.closest("[inert]") && visible(el));
    els.forEach((el, i) => el.setAttribute("data-kb", String(i)));
    return els.map((el) => ({ i: el.getAttribute("data-kb"), tag: el.tagName, role: el.getAttribute("role"), ti: el.getAttribute("tabindex"), name: (el.getAttribute("aria-label") || (el as HTMLElement).innerText || "").slice(0, 40).replace(/\n/g, " ") }));
  }, SEL);
  const seen = new Set<string>();
  for (let k = 0; k < list.length * 2 + 10; k++) {
    await p.keyboard.press("Tab");
    const got = await p.evaluate(() => { let a: Element | null = document.activeElement; while (a && !a.getAttribute("data-kb")) a = a.parentElement; return a?.getAttribute("data-kb") ?? null; });
    if (got) seen.add(got);
  }
  const missed = list.filter((x: any) => !seen.has(x.i));
  console.log(`== ${path}: ${list.length} controls, missed ${missed.length}`);
  for (const m of missed) console.log("   ", JSON.stringify(m));
}
await lab.api(admin, "POST", "/api/system/stop");
await lab.close();
