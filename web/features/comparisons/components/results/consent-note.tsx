import { Text } from "@radix-ui/themes";
import type { SnapshotDto } from "#server/modules/comparisons/model";

/** Consent platforms by the name of the rule that recognises them. */
const PLATFORMS: Record<string, string> = {
  onetrust: "OneTrust",
  cybotcookiebot: "Cookiebot",
  didomi: "Didomi",
  usercentrics: "Usercentrics",
};

const platform = (cmp: string | null) => (cmp === null ? "" : ` (${PLATFORMS[cmp] ?? cmp})`);

/** What the capture did about a cookie banner, in one line; nothing for a capture made before it looked. */
export function consentText(consent: SnapshotDto["consent"], masked: number): string | null {
  if (!consent) return null;
  if (!consent.found) return "No cookie banner";
  const banner = `Cookie banner${platform(consent.cmp)}`;
  const mask = masked > 0 ? " · masked from findings, scores and changes" : "";
  switch (consent.action) {
    case "rejected":
      return consent.hidden ? `${banner} hidden, no choice made` : `${banner} rejected`;
    case "accepted":
      return `${banner} accepted`;
    case "kept":
      return `${banner} kept on screen${mask}`;
    case "unhandled":
      return `${consent.cmp ? `${banner} could not be answered` : "Cookie banner no rule recognises"}, left on screen${mask}`;
  }
}

export function ConsentNote({ snapshot }: { snapshot: SnapshotDto }) {
  // A page whose steps stopped has no extraction, so nothing masked.
  const text = consentText(snapshot.consent, snapshot.extraction?.masks?.length ?? 0);
  if (!text) return null;
  return (
    <Text as="p" size="1" color="gray" data-testid="consent-note" style={{ padding: "var(--space-2) var(--space-1) 0", margin: 0 }}>
      {text}
    </Text>
  );
}
