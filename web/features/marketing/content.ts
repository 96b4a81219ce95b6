// Marketing copy in one place, so the pages stay layout and the words stay reviewable.

export interface Tool {
  icon: "compare" | "dna" | "fix";
  title: string;
  body: string;
  points: string[];
}

export const TOOLS: Tool[] = [
  {
    icon: "compare",
    title: "Side-by-side teardown",
    body: "Point us at any two (or ten) competitor sites. Headless Chromium captures full-page desktop and mobile shots, scroll-synced so you can spot every difference.",
    points: ["Desktop + mobile captures", "Synchronised scrolling", "Colour, layout, type and element overlays"],
  },
  {
    icon: "dna",
    title: "Design DNA extraction",
    body: "We pull the palette, typography, layout grid, copy and load timing straight out of the rendered page — no guessing from screenshots alone.",
    points: ["Palette and type scale", "Layout and element inventory", "Copy, timing and accessibility"],
  },
  {
    icon: "fix",
    title: "Evidence-backed fixes",
    body: "Similarity scores tell you how close you are; AI models tell you exactly what to change, with the evidence from both pages attached.",
    points: ["Design, UX, copy and timing", "Specific, ranked fixes", "Links back to the evidence"],
  },
];

/** Spec §1: headline figures. They are marketing copy, and the page says so. */
export const STATS = [
  { value: "50K+", label: "Websites analyzed" },
  { value: "1M+", label: "Insights generated" },
  { value: "99.9%", label: "Uptime" },
  { value: "24/7", label: "Monitoring" },
] as const;

export const STEPS = [
  {
    title: "Name your gladiators",
    body: "Create a comparison and drop in the competitor URLs you want in the arena. Two is the minimum; rivalry is encouraged.",
  },
  {
    title: "Release the robots",
    body: "Our capture crew opens every site in a real browser, screenshots it on desktop and mobile, and extracts everything that makes it tick.",
  },
  {
    title: "Pocket the advantage",
    body: "Get similarity scores, side-by-side evidence and a ranked list of fixes. Ship the good ideas before your rivals notice.",
  },
] as const;

export interface Plan {
  id: "starter" | "professional" | "enterprise";
  name: string;
  tagline: string;
  price: string;
  priceNote: string;
  features: string[];
  popular?: boolean;
}

/** Spec §3 plan tiers (display only). Prices are not announced yet, so none are invented here. */
export const PLANS: Plan[] = [
  {
    id: "starter",
    name: "Starter",
    tagline: "For solo spies dipping a toe in.",
    price: "TBA",
    priceNote: "Announced at launch",
    features: ["TrendHunter access", "5 trend discoveries per month", "Basic component generation", "E-mail support"],
  },
  {
    id: "professional",
    name: "Professional",
    tagline: "The full war room for product teams.",
    price: "Free",
    priceNote: "while the beta lasts",
    popular: true,
    features: [
      "All 4 agents",
      "Unlimited trend discoveries",
      "Advanced component generation",
      "A/B testing",
      "Real-time analytics",
      "Priority support",
    ],
  },
  {
    id: "enterprise",
    name: "Enterprise",
    tagline: "For organisations with a whole army of competitors.",
    price: "Custom",
    priceNote: "Tailored to your team",
    features: [
      "Everything in Professional",
      "Custom agent training",
      "White-label",
      "Dedicated account manager",
      "SLA",
      "Custom integrations",
    ],
  },
];

export const PRICING_CLAIMS = ["No hidden fees", "Cancel anytime", "14-day free trial"] as const;

export const FAQ = [
  {
    q: "Is the beta really free?",
    a: "Yes. Beta operatives get the Professional toolkit at no cost while we sand down the rough edges. We'll tell you well before anything changes.",
  },
  {
    q: "What happens when the beta ends?",
    a: "Every paid plan starts with a 14-day free trial, there are no hidden fees, and you can cancel anytime. No surprise invoices, pinky promise.",
  },
  {
    q: "Which websites can I compare?",
    a: "Any public website. We capture it in a real headless browser on desktop and mobile, exactly as your visitors see it.",
  },
  {
    q: "Where does my data live?",
    a: "Design Intel is self-hosted: one executable, one SQLite database, on your own server. Your comparisons never leave your infrastructure.",
  },
  {
    q: "Do the AI agents need babysitting?",
    a: "Nope. Launch the system from Mission Control and the four agents get to work; stop it with one click whenever you like.",
  },
  {
    q: "Can I talk to a human?",
    a: "Absolutely. Hit Contact Sales on the Enterprise card, leave your e-mail, and a real person will get back to you.",
  },
] as const;

export interface Agent {
  name: string;
  role: string;
  body: string;
  color: "violet" | "cyan" | "orange" | "green";
}

/** Spec §1: the four agents and what each one does. */
export const AGENTS: Agent[] = [
  {
    name: "TrendHunter",
    role: "Trend discovery",
    body: "Sniffs out emerging design patterns across the web before they hit the mainstream.",
    color: "violet",
  },
  {
    name: "DesignNinja",
    role: "Component generation",
    body: "Turns winning patterns into production-ready React components you can drop straight in.",
    color: "cyan",
  },
  {
    name: "TestCommander",
    role: "A/B testing",
    body: "Sets up and referees A/B tests so the data, not the loudest opinion, picks the winner.",
    color: "orange",
  },
  {
    name: "InsightOracle",
    role: "Analytics",
    body: "Reads the tea leaves in your metrics and tells you what is actually moving the needle.",
    color: "green",
  },
];

export interface Feature {
  icon: "camera" | "palette" | "score" | "access" | "live" | "lock";
  title: string;
  body: string;
}

export const FEATURES: Feature[] = [
  {
    icon: "camera",
    title: "Real-browser captures",
    body: "Full-page desktop and mobile screenshots from headless Chromium, not a cached thumbnail.",
  },
  { icon: "palette", title: "Palette & typography", body: "Extracted colours, font families and type scale for every page you compare." },
  {
    icon: "score",
    title: "Similarity scoring",
    body: "Colour, layout, content and overall similarity, computed from the captures themselves.",
  },
  {
    icon: "access",
    title: "Accessibility checks",
    body: "Contrast, landmarks and labels audited alongside the design, so fixes are inclusive by default.",
  },
  {
    icon: "live",
    title: "Live mission control",
    body: "Watch agents work in real time on a dashboard fed by a live socket — no refresh button required.",
  },
  { icon: "lock", title: "Self-hosted & private", body: "One executable on your own box. Your competitive intel stays yours." },
];

export const TECH_STACK = [
  { name: "Bun", note: "One fast runtime for server, workers and tests" },
  { name: "React 19", note: "Streaming server rendering, instant hydration" },
  { name: "Headless Chromium", note: "Pixel-true captures on desktop and mobile" },
  { name: "SQLite", note: "Embedded, transactional, zero-ops storage" },
  { name: "SSIM scoring", note: "Perceptual image similarity, not naive pixel diffs" },
  { name: "WebSockets", note: "Live agent activity straight to your dashboard" },
] as const;

export const BENEFITS = [
  { title: "Ship faster", body: "Skip the week-long competitor audit. Get the teardown in minutes and spend the time building." },
  {
    title: "Decide with evidence",
    body: "Every recommendation comes with the screenshots and numbers behind it. Fewer opinions, more facts.",
  },
  { title: "Stay ahead", body: "Re-run comparisons whenever rivals redesign and catch their moves while they're still fresh." },
] as const;
