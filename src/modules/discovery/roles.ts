// Suggests what a page is for from its path and the words that label it (link text, headings,
// title). Pure: the user confirms or changes every suggestion, so a wrong guess costs a click,
// while a path that says what it is (/pricing) should never be overruled by a chatty title.
import type { PageRole } from "./model";

type Guessable = Exclude<PageRole, "home" | "other">;

/** Path segments that name a role (compared lower-cased, with `_` read as `-`). */
const SEGMENTS: Record<Guessable, readonly string[]> = {
  pricing: ["pricing", "prices", "price", "plans", "plan", "pricing-plans", "tarifs", "tarif", "preise", "precios", "prezzi"],
  signup: [
    "signup",
    "sign-up",
    "register",
    "registration",
    "join",
    "get-started",
    "getstarted",
    "start",
    "trial",
    "free-trial",
    "try",
    "create-account",
    "onboarding",
  ],
  blog: ["blog", "blogs", "news", "articles", "posts", "stories", "journal", "insights", "press", "newsroom"],
  docs: [
    "docs",
    "doc",
    "documentation",
    "help",
    "help-center",
    "support",
    "guides",
    "guide",
    "kb",
    "knowledge-base",
    "faq",
    "faqs",
    "manual",
    "developers",
    "tutorials",
  ],
  features: ["features", "feature", "product", "products", "platform", "solutions", "how-it-works", "tour", "capabilities"],
};

/**
 * Labels that name a role. "Sign in" and "Log in" are not sign-up pages; "Join" alone is too vague
 * (newsletters), so only "join now/free/us" counts.
 */
const WORDS: Record<Guessable, RegExp> = {
  pricing: /\b(pricing|plans?|prices?|tarifs?|preise)\b/i,
  signup:
    /\b(sign[\s-]?up|register|registration|get started|start (your |a )?(free )?trial|try (it )?(for )?free|create (an |your )?account|join (now|free|us))\b/i,
  docs: /\b(docs|documentation|help( cent(er|re))?|support|guides?|faqs?|knowledge base|developers?)\b/i,
  blog: /\b(blog|news(room)?|articles?|stories|press)\b/i,
  features: /\b(features?|products?|platform|how it works|tour|solutions?)\b/i,
};

/** Order of preference when a label names two roles ("Pricing and plans FAQ" is about pricing). */
const TEXT_ORDER: readonly Guessable[] = ["pricing", "signup", "docs", "blog", "features"];

export interface RoleClues {
  /** The page's path (query and fragment are ignored). */
  path: string;
  /** Labels, strongest first: link text, headings, title. */
  texts?: readonly (string | null | undefined)[];
}

function roleOfSegment(segment: string): Guessable | null {
  const s = segment.toLowerCase().replace(/_/g, "-");
  for (const role of Object.keys(SEGMENTS) as Guessable[]) if (SEGMENTS[role].includes(s)) return role;
  return null;
}

function segmentsOf(path: string): string[] {
  const pathname = path.split(/[?#]/)[0] ?? "";
  return pathname
    .split("/")
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .map((s) => s.replace(/\.(html?|php|aspx?)$/i, ""))
    .filter((s) => s !== "" && s !== "index");
}

/** Two-letter locale prefixes (/en/pricing, /de-de/preise) say nothing about the page. */
const LOCALE = /^[a-z]{2}([-_][a-z]{2})?$/i;

/**
 * The role a page probably plays. The path decides first, its first meaningful segment before the
 * others (/blog/pricing-tips is a blog post), then the labels in the order given, then `other`.
 */
export function classifyRole(clues: RoleClues): PageRole {
  const segments = segmentsOf(clues.path);
  if (segments.length === 0) return "home";
  // A locale's own home (/de/) is another language's copy of home, not the home: `other`.
  const meaningful = LOCALE.test(segments[0]!) ? segments.slice(1) : segments;
  for (const segment of meaningful) {
    const role = roleOfSegment(segment);
    if (role) return role;
  }
  for (const text of clues.texts ?? []) {
    if (!text) continue;
    for (const role of TEXT_ORDER) if (WORDS[role].test(text)) return role;
  }
  return "other";
}
