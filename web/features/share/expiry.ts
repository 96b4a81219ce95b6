// How long a new share link lives: the choices the dialog offers, and the instant each means.

export const EXPIRY_CHOICES = [
  { value: "never", label: "Never", days: null },
  { value: "1", label: "1 day", days: 1 },
  { value: "7", label: "7 days", days: 7 },
  { value: "30", label: "30 days", days: 30 },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The ISO instant a link made at `now` stops working, or null for never. */
export function expiresAt(choice: ExpiryChoice, now: number): string | null {
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)?.days ?? null;
  return days === null ? null : new Date(now + days * DAY_MS).toISOString();
}

/** Whether a link's expiry has passed. */
export const hasExpired = (expiry: string | null, now: number): boolean => expiry !== null && Date.parse(expiry) <= now;
