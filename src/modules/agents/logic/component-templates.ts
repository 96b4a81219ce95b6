// DesignNinja's four component kinds, each in two variants (A/B) that TestCommander can pit
// against each other. Every visual value comes from the tokens; the copy is ours.
import { contrast } from "./color";
import type { DesignTokens } from "./design-tokens";
import type { ComponentSpec, El } from "./jsx-tree";

export const COMPONENT_KINDS = ["cta_button", "hero", "pricing_card", "navbar"] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];
export type VariantLabel = "A" | "B";

export const KIND_LABELS: Record<ComponentKind, string> = {
  cta_button: "Call-to-action button",
  hero: "Hero section",
  pricing_card: "Pricing card",
  navbar: "Navigation bar",
};

export const VARIANT_STYLES: Record<ComponentKind, Record<VariantLabel, string>> = {
  cta_button: { A: "solid", B: "outline" },
  hero: { A: "centered", B: "split" },
  pricing_card: { A: "highlighted", B: "minimal" },
  navbar: { A: "with-cta", B: "links-only" },
};

/** What InsightOracle reads about a variant. All measured from the tokens and the template. */
import type { DesignFeatures } from "../model";
export type { DesignFeatures };

export interface GeneratedSpec {
  spec: ComponentSpec;
  style: string;
  features: DesignFeatures;
}

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join("");

/** "acme.example.com" -> "Acme"; the product's own tokens -> "DesignIntel". */
export function componentPrefix(sourceHost: string | null): string {
  if (!sourceHost) return "DesignIntel";
  const first = pascal(sourceHost.split(".")[0] ?? "") || "Site";
  return /^[0-9]/.test(first) ? `Site${first}` : first;
}

function button(t: DesignTokens, solid: boolean, labelProp: string, callback: string, padY: number): El {
  return {
    tag: "button",
    attrs: { type: "button" },
    onClick: callback,
    style: {
      fontFamily: t.fontFamily,
      fontSize: 16,
      fontWeight: 600,
      padding: `${padY}px ${Math.round(padY * 2)}px`,
      borderRadius: t.radius,
      border: `2px solid ${t.primary}`,
      background: solid ? t.primary : "transparent",
      color: solid ? t.onPrimary : t.primary,
      cursor: "pointer",
    },
    children: [{ prop: labelProp }],
  };
}

function ctaFeatures(t: DesignTokens, solid: boolean, padY: number, centered: number, emphasis: number): DesignFeatures {
  return {
    ctaContrast: Math.round((solid ? contrast(t.onPrimary, t.primary) : contrast(t.primary, t.background)) * 100) / 100,
    ctaSolid: solid ? 1 : 0,
    ctaPaddingPx: padY,
    radiusPx: t.radius,
    spaceUnitPx: t.space,
    centered,
    emphasis,
  };
}

function ctaButton(t: DesignTokens, v: VariantLabel, name: string): GeneratedSpec {
  const solid = v === "A";
  const padY = Math.max(10, Math.round(t.space * 0.75));
  return {
    style: VARIANT_STYLES.cta_button[v],
    features: ctaFeatures(t, solid, padY, 1, 0),
    spec: {
      name,
      header: [],
      props: [{ name: "label", default: "Get started free" }],
      callbacks: ["onClick"],
      root: {
        tag: "div",
        style: { display: "flex", justifyContent: "center", padding: t.space * 2, background: t.background },
        children: [button(t, solid, "label", "onClick", padY)],
      },
    },
  };
}

function hero(t: DesignTokens, v: VariantLabel, name: string): GeneratedSpec {
  const centered = v === "A";
  const padY = Math.max(10, Math.round(t.space * 0.75));
  const copy: El = {
    tag: "div",
    style: { maxWidth: 640, display: "flex", flexDirection: "column", gap: t.space, alignItems: centered ? "center" : "flex-start" },
    children: [
      { tag: "h1", style: { margin: 0, fontSize: 48, lineHeight: 1.1, fontWeight: 800, color: t.text }, children: [{ prop: "title" }] },
      { tag: "p", style: { margin: 0, fontSize: 18, lineHeight: 1.6, color: t.muted }, children: [{ prop: "subtitle" }] },
      button(t, true, "ctaLabel", "onCtaClick", padY),
    ],
  };
  const visual: El = {
    tag: "div",
    attrs: { "aria-label": "Product preview", role: "img" },
    style: {
      flex: "1 1 280px",
      minHeight: 280,
      borderRadius: t.radius * 2,
      background: `linear-gradient(135deg, ${t.primary}, ${t.surface})`,
    },
  };
  return {
    style: VARIANT_STYLES.hero[v],
    features: ctaFeatures(t, true, padY, centered ? 1 : 0, centered ? 0 : 1),
    spec: {
      name,
      header: [],
      props: [
        { name: "title", default: "Design that outsmarts the competition" },
        { name: "subtitle", default: "Launch pages your rivals will screenshot. Built from real, measured design tokens." },
        { name: "ctaLabel", default: "Start free" },
      ],
      callbacks: ["onCtaClick"],
      root: {
        tag: "section",
        style: {
          display: "flex",
          flexDirection: centered ? "column" : "row",
          flexWrap: "wrap",
          alignItems: "center",
          gap: t.space * 3,
          padding: `${t.space * 5}px ${t.space * 3}px`,
          background: t.background,
          fontFamily: t.fontFamily,
          textAlign: centered ? "center" : "left",
        },
        children: centered ? [copy] : [copy, visual],
      },
    },
  };
}

function pricingCard(t: DesignTokens, v: VariantLabel, name: string): GeneratedSpec {
  const highlighted = v === "A";
  const padY = Math.max(10, Math.round(t.space * 0.75));
  const feature = (text: string): El => ({
    tag: "li",
    style: { padding: `${Math.round(t.space / 2)}px 0`, borderBottom: `1px solid ${t.surface}`, color: t.text },
    children: [{ text }],
  });
  const badge: El = {
    tag: "span",
    style: {
      alignSelf: "flex-start",
      padding: "4px 10px",
      borderRadius: 999,
      fontSize: 12,
      fontWeight: 700,
      background: t.primary,
      color: t.onPrimary,
    },
    children: [{ prop: "badge" }],
  };
  return {
    style: VARIANT_STYLES.pricing_card[v],
    features: ctaFeatures(t, true, padY, 0, highlighted ? 1 : 0),
    spec: {
      name,
      header: [],
      props: [
        { name: "plan", default: "Professional" },
        { name: "price", default: "$49" },
        { name: "period", default: "/month" },
        { name: "badge", default: "Most Popular" },
        { name: "ctaLabel", default: "Join Beta - Free" },
      ],
      callbacks: ["onSelect"],
      root: {
        tag: "div",
        style: {
          display: "flex",
          flexDirection: "column",
          gap: t.space,
          maxWidth: 340,
          padding: t.space * 2,
          borderRadius: t.radius,
          border: `${highlighted ? 2 : 1}px solid ${highlighted ? t.primary : t.surface}`,
          background: t.background,
          fontFamily: t.fontFamily,
          boxShadow: highlighted ? "0 12px 32px rgba(0, 0, 0, 0.12)" : "none",
        },
        children: [
          ...(highlighted ? [badge] : []),
          { tag: "h3", style: { margin: 0, fontSize: 20, color: t.text }, children: [{ prop: "plan" }] },
          {
            tag: "p",
            style: { margin: 0, color: t.muted },
            children: [{ tag: "strong", style: { fontSize: 40, color: t.text }, children: [{ prop: "price" }] }, { prop: "period" }],
          },
          {
            tag: "ul",
            style: { listStyle: "none", margin: 0, padding: 0 },
            children: [feature("All 4 agents"), feature("Unlimited trend discoveries"), feature("A/B testing")],
          },
          button(t, true, "ctaLabel", "onSelect", padY),
        ],
      },
    },
  };
}

function navbar(t: DesignTokens, v: VariantLabel, name: string): GeneratedSpec {
  const withCta = v === "A";
  const padY = Math.max(8, Math.round(t.space * 0.5));
  const link = (text: string): El => ({
    tag: "a",
    attrs: { href: "#" },
    style: { color: t.muted, textDecoration: "none", fontSize: 15 },
    children: [{ text }],
  });
  return {
    style: VARIANT_STYLES.navbar[v],
    features: withCta
      ? ctaFeatures(t, true, padY, 0, 0)
      : { ...ctaFeatures(t, false, 0, 0, 0), ctaContrast: Math.round(contrast(t.primary, t.background) * 100) / 100 },
    spec: {
      name,
      header: [],
      props: [
        { name: "brand", default: "YourBrand" },
        { name: "ctaLabel", default: "Sign up" },
      ],
      callbacks: ["onCtaClick"],
      root: {
        tag: "nav",
        attrs: { "aria-label": "Main" },
        style: {
          display: "flex",
          alignItems: "center",
          justifyContent: "space-between",
          flexWrap: "wrap",
          gap: t.space,
          padding: `${t.space}px ${t.space * 2}px`,
          background: t.background,
          borderBottom: `1px solid ${t.surface}`,
          fontFamily: t.fontFamily,
        },
        children: [
          { tag: "strong", style: { fontSize: 18, color: t.text }, children: [{ prop: "brand" }] },
          {
            tag: "div",
            style: { display: "flex", alignItems: "center", flexWrap: "wrap", gap: t.space * 1.5 },
            children: [
              link("Product"),
              link("Pricing"),
              link("Docs"),
              withCta
                ? button(t, true, "ctaLabel", "onCtaClick", padY)
                : {
                    tag: "a",
                    attrs: { href: "#" },
                    style: { color: t.primary, fontWeight: 600, textDecoration: "none" },
                    children: [{ prop: "ctaLabel" }],
                  },
            ],
          },
        ],
      },
    },
  };
}

const BUILDERS: Record<ComponentKind, (t: DesignTokens, v: VariantLabel, name: string) => GeneratedSpec> = {
  cta_button: ctaButton,
  hero,
  pricing_card: pricingCard,
  navbar,
};

const KIND_NAMES: Record<ComponentKind, string> = { cta_button: "CtaButton", hero: "Hero", pricing_card: "PricingCard", navbar: "NavBar" };

export interface BuildInput {
  kind: ComponentKind;
  variant: VariantLabel;
  tokens: DesignTokens;
  /** Hostname the tokens came from, or null for the product's defaults. */
  sourceHost: string | null;
  sourceLabel: string;
  capturedAt: string | null;
}

export function buildComponent(input: BuildInput): GeneratedSpec & { fileName: string } {
  const style = VARIANT_STYLES[input.kind][input.variant];
  const name = `${componentPrefix(input.sourceHost)}${KIND_NAMES[input.kind]}${pascal(style)}`;
  const built = BUILDERS[input.kind](input.tokens, input.variant, name);
  const t = input.tokens;
  built.spec.header = [
    `${name}.tsx: generated by DesignNinja (Design Intel).`,
    `${KIND_LABELS[input.kind]}, variant ${input.variant} (${style}).`,
    `Tokens from ${input.sourceLabel.replace(/[^A-Za-z0-9 .-]/g, "")}${input.capturedAt ? `, captured ${input.capturedAt}` : ""}:`,
    `primary ${t.primary}, on-primary ${t.onPrimary}, background ${t.background}, text ${t.text}, muted ${t.muted},`,
    `font ${t.fontFamily}, radius ${t.radius}px, spacing unit ${t.space}px.`,
  ];
  return { ...built, fileName: `${name}.tsx` };
}
