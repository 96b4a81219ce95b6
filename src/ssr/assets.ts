import { clientManifest } from "./client-manifest.generated";

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  woff2: "font/woff2",
  woff: "font/woff",
  svg: "image/svg+xml",
  png: "image/png",
};

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  type: string;
}

const cache = new Map<string, Asset>();

async function load(name: string): Promise<Asset | null> {
  const hit = cache.get(name);
  if (hit) return hit;
  const path = clientManifest.files[name];
  if (!path) return null;
  const body = new Uint8Array(await Bun.file(path).arrayBuffer());
  const asset: Asset = {
    body,
    gzip: Bun.gzipSync(body) as Uint8Array<ArrayBuffer>,
    type: TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream",
  };
  cache.set(name, asset);
  return asset;
}

/** Hashed names never change content, so browsers may keep them for a year. */
export async function serveAsset(name: string, acceptEncoding: string | null): Promise<Response | null> {
  const asset = await load(name);
  if (!asset) return null;
  const gz = /\bgzip\b/.test(acceptEncoding ?? "");
  return new Response(gz ? asset.gzip : asset.body, {
    headers: {
      "content-type": asset.type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      vary: "accept-encoding",
      ...(gz ? { "content-encoding": "gzip" } : {}),
    },
  });
}

export { clientManifest };
