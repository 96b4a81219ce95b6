export const newId = (): string => Bun.randomUUIDv7();

export function randomToken(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

export function sha256(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

export const nowIso = (t: number = Date.now()): string => new Date(t).toISOString();
