import type { ReactNode } from "react";
import { SiteFooter } from "./site-footer";

/** Header, one <main> landmark and the footer: the frame of every public page. */
export function MarketingPage({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <div className="mk-marketing">
      <a href="#main" className="di-skip-link">
        Skip to content
      </a>
      {header}
      <main id="main">{children}</main>
      <SiteFooter />
    </div>
  );
}
