import type { ReactNode } from "react";
import { NavLink } from "react-router";

/** A header link; NavLink sets aria-current="page", which the stylesheet highlights. */
export function HeaderLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <NavLink to={to} className="mk-nav-link" end>
      {children}
    </NavLink>
  );
}
