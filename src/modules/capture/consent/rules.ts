// The declarative rules a frame is sent: the generic ones for its kind of frame, and the
// site-specific ones whose URL pattern matches it. Parsed once per process; filtering per frame
// keeps the message a frame parses small (about 120 KB of the 680 KB of rules).

import type { AutoConsentCMPRule } from "@duckduckgo/autoconsent";
import { consentAssets } from "./assets";

interface Indexed {
  generic: AutoConsentCMPRule[];
  specific: { rule: AutoConsentCMPRule; pattern: RegExp }[];
}

let indexed: Promise<Indexed> | null = null;

function index(text: string): Indexed {
  const all = (JSON.parse(text) as { autoconsent: AutoConsentCMPRule[] }).autoconsent;
  const generic: AutoConsentCMPRule[] = [];
  const specific: Indexed["specific"] = [];
  for (const rule of all) {
    const pattern = rule.runContext?.urlPattern;
    if (!pattern) generic.push(rule);
    else {
      try {
        specific.push({ rule, pattern: new RegExp(pattern) });
      } catch {
        // A pattern this engine cannot compile only ever matched elsewhere.
      }
    }
  }
  return { generic, specific };
}

/** Whether a rule runs in the top document or in frames (autoconsent's own default: top only). */
const runsIn = (rule: AutoConsentCMPRule, mainFrame: boolean) =>
  mainFrame ? rule.runContext?.main !== false : rule.runContext?.frame === true;

export async function rulesFor(url: string, mainFrame: boolean): Promise<AutoConsentCMPRule[]> {
  if (!indexed) {
    indexed = consentAssets().then((a) => index(a.rules));
    indexed.catch(() => (indexed = null));
  }
  const { generic, specific } = await indexed;
  return [
    ...generic.filter((r) => runsIn(r, mainFrame)),
    ...specific.filter(({ rule, pattern }) => runsIn(rule, mainFrame) && pattern.test(url)).map(({ rule }) => rule),
  ];
}
