// What the operator commands open: the same DATA_DIR, database (migrated) and services as the
// server, so a command run beside a live server changes the data the way the admin console would.
import { resolve } from "node:path";
import { createServices } from "#server/app";
import { openStorage } from "#server/boot/storage";
import { commandEnv } from "./args";

export async function openDataDir() {
  const env = commandEnv();
  // Files this process creates under DATA_DIR are the server account's only, as the server's are.
  process.umask(0o077);
  const dataDir = resolve(env.DATA_DIR);
  const { db, secret } = await openStorage(dataDir, env);
  const services = createServices({ db, env: { ...env, DATA_DIR: dataDir }, secret, log: () => {} });
  return { db, dataDir, services, close: () => db.close() };
}
