// Client-side checks with the server's exact messages (spec §5). The server re-checks everything;
// these only spare the user a round trip. web/ may not import zod schemas from src/ at runtime.

export const LIMITS = { name: 100, description: 500, label: 50, minTargets: 2 } as const;

export const MESSAGES = {
  nameRequired: "Comparison name is required",
  nameTooLong: "Name must be under 100 characters",
  descriptionTooLong: "Description must be under 500 characters",
  invalidUrl: "Please enter a valid URL",
  labelRequired: "Label is required",
  labelTooLong: "Label must be under 50 characters",
  noComparison: "No comparison selected",
  notEnoughTargets: "At least 2 websites are required to run a comparison",
} as const;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function validateComparison(input: { name: string; description: string }) {
  const name = input.name.trim();
  const description = input.description.trim();
  const errors: FieldErrors<"name" | "description"> = {};
  if (!name) errors.name = MESSAGES.nameRequired;
  else if (name.length > LIMITS.name) errors.name = MESSAGES.nameTooLong;
  if (description.length > LIMITS.description) errors.description = MESSAGES.descriptionTooLong;
  return { errors, value: { name, description: description || null } };
}

/**
 * People type "acme.com" far more often than "https://acme.com", so a missing scheme means https.
 * Returns null when the text cannot be a web address.
 */
export function normalizeUrl(raw: string): string | null {
  const text = raw.trim();
  if (!text || /\s/.test(text)) return null;
  // "host:8080" is a host with a port, not a scheme.
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text);
  const candidate = hasScheme ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname;
  // A bare word ("hello") parses as a host but is not a site; localhost and IPs are allowed through
  // because the server decides whether private targets are permitted.
  const plausible = host.includes(".") || host === "localhost" || host.startsWith("[");
  if (!host || !plausible || host.startsWith(".") || host.endsWith("..")) return null;
  return url.toString();
}

export function validateTarget(input: { url: string; label: string }) {
  const url = normalizeUrl(input.url);
  const label = input.label.trim();
  const errors: FieldErrors<"url" | "label"> = {};
  if (!url) errors.url = MESSAGES.invalidUrl;
  if (!label) errors.label = MESSAGES.labelRequired;
  else if (label.length > LIMITS.label) errors.label = MESSAGES.labelTooLong;
  return { errors, value: { url: url ?? "", label } };
}

/** Why a start is not allowed, or null when it is. */
export function startBlocker(comparisonId: string | null, targetCount: number): string | null {
  if (!comparisonId) return MESSAGES.noComparison;
  if (targetCount < LIMITS.minTargets) return MESSAGES.notEnoughTargets;
  return null;
}

export const hasErrors = (errors: Record<string, string | undefined>) => Object.values(errors).some(Boolean);
