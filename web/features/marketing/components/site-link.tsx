import { type ComponentProps, createContext, useContext } from "react";

/** The current path, for SiteNavLink: web/root.tsx and the marketing root provide it. */
export const SitePathContext = createContext("");

type SiteLinkProps = Omit<ComponentProps<"a">, "href"> & { to: string };

/**
 * The public site's links are plain anchors: the marketing pages run without the app's router
 * (web/entry.marketing.tsx), so following one is a full page load, which boots the right entry.
 * Other props (a menu item's role and handlers, its ref) pass through to the anchor.
 */
export function SiteLink({ to, ...rest }: SiteLinkProps) {
  // Attributes in the order React Router's <Link> writes them, so the markup is the same.
  return <a {...rest} href={to} />;
}

/** A header link marked aria-current="page" on its own page, which the stylesheet highlights. */
export function SiteNavLink({ to, ...rest }: Omit<SiteLinkProps, "className">) {
  const active = useContext(SitePathContext).toLowerCase() === to.toLowerCase();
  return <a aria-current={active ? "page" : undefined} className={active ? "mk-nav-link active" : "mk-nav-link"} href={to} {...rest} />;
}
