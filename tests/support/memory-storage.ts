// A Storage stand-in for tests that need localStorage/sessionStorage but not a DOM.
import { afterAll, beforeAll } from "bun:test";

export class MemoryStorage implements Storage {
  private m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  clear() {
    this.m.clear();
  }
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
}

/** Installs a fresh MemoryStorage as `globalThis[name]` for the file's tests, and puts back what was there. */
export function useMemoryStorage(name: "localStorage" | "sessionStorage") {
  const had = Object.getOwnPropertyDescriptor(globalThis, name);
  beforeAll(() => Object.defineProperty(globalThis, name, { value: new MemoryStorage(), configurable: true, writable: true }));
  afterAll(() => {
    if (had) Object.defineProperty(globalThis, name, had);
    else delete (globalThis as Record<string, unknown>)[name];
  });
}
