// The executable's entry. With no arguments it runs the server; `healthcheck` asks a running one
// whether it is ready (the Docker HEALTHCHECK). Each is imported only when chosen, so the probe
// does not load the whole server.
const [command, ...args] = process.argv.slice(2);

if (command === "healthcheck") {
  const { healthcheck } = await import("./boot/healthcheck");
  process.exit(await healthcheck(args[0]));
} else {
  const { serve } = await import("./boot/serve");
  await serve();
}
