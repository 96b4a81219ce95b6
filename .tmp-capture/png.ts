import { startFixtureServer } from "../tests/support/fixture-server";
const s = startFixtureServer();
const t = Date.now();
const r = await fetch(s.url("/beta/img/hero.png"));
console.log((await r.arrayBuffer()).byteLength, Date.now() - t);
await s.close();
