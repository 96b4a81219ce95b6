import { AXE_PATH, completedComparison, open, startLab } from "../support/lab";
const lab = await startLab();
const t0 = Date.now();
const admin = await lab.signup("boss@example.com");
const empty = await lab.api<{id:string}>(admin, "POST", "/api/comparisons", { name: "Empty one" });
const id = await completedComparison(lab, admin);
console.log("run took", Date.now() - t0);
const anon = await (await lab.context()).newPage();
const adm = await (await lab.context(admin)).newPage();
const u = lab.server.url;
const pages: [any, string][] = [
  [anon, "/"], [anon, "/features"], [anon, "/pricing"], [anon, "/login"], [anon, "/signup"], [anon, "/nope"], [anon, "/dashboard"],
  [adm, "/dashboard"], [adm, "/comparison"], [adm, `/comparison?id=${id}`], [adm, `/comparison/${id}/view`], [adm, "/trends"], [adm, "/analytics"], [adm, "/activity"], [adm, "/tests"], [adm, "/generate"], [adm, "/settings"], [adm, "/super-admin"],
];
for (const theme of ["light", "dark"] as const) for (const [p, path] of pages) {
  const s = Date.now();
  await open(p, u + path, theme);
  await p.addScriptTag({ path: AXE_PATH });
  const r = await p.evaluate(async () => { const res = await (window as any).axe.run(document, { resultTypes: ["violations"] }); return res.violations.map((v: any) => ({ id: v.id, impact: v.impact, n: v.nodes.length, t: v.nodes.slice(0,4).map((n: any) => n.target.join(" ") + " :: " + (n.failureSummary||"").split("\n").slice(1,2).join(" ")) })); });
  console.log(`== ${theme} ${path} (${Date.now()-s}ms)`);
  for (const v of r) console.log(`  ${v.impact} ${v.id} x${v.n}\n    ${v.t.join("\n    ")}`);
}
await lab.close();
