// Import first in component tests: gives them a DOM, and gives it back afterwards so the API
// tests in the same run keep Bun's own fetch, Request and Response.
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach } from "bun:test";

// Bun's own timers, kept before the DOM's replace them: a test that navigates the DOM's window
// (happyDOM.setURL) or fakes its timers can leave the DOM's timers never firing.
const nativeSetTimeout = globalThis.setTimeout;
const nativeSetImmediate = globalThis.setImmediate;

if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: "http://localhost:3000/" });

// waitFor/findBy* wait on a condition, but give up after 1 s by default: a budget a busy machine
// exhausts rendering a page. The condition is what ends the wait; the bound only names a stuck one.
const { configure } = await import("@testing-library/dom");
configure({ asyncUtilTimeout: 10_000 });

afterEach(async () => {
  const { cleanup } = await import("@testing-library/react");
  cleanup();
});

// React's scheduler runs work it queued (passive effects of the last unmount) from a later macrotask;
// run after the DOM is gone, that work reads `window` and fails the next file. Let the queue drain
// first: a few turns of the event loop, each one letting anything the previous turn queued run.
const drainMacrotasks = async (turns = 5) => {
  for (let i = 0; i < turns; i++) {
    await new Promise((resolve) => nativeSetImmediate(resolve));
    await new Promise((resolve) => nativeSetTimeout(resolve, 0));
  }
};

afterAll(async () => {
  await drainMacrotasks();
  if (GlobalRegistrator.isRegistered) GlobalRegistrator.unregister();
});
