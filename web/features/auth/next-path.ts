/**
 * Where to go after signing in or up: `?next=` when it is a path of this site (an invitation link
 * sends people back to itself), else the dashboard. Anything else (another origin, `//host`,
 * a backslash trick) is ignored, so the parameter cannot send anyone off-site.
 */
export function nextPath(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return "/dashboard";
  return next;
}
