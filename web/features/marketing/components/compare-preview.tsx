import { LightningBoltIcon } from "@radix-ui/react-icons";
import { Text } from "@radix-ui/themes";

const SITES = [
  { label: "yoursite.com", swatches: ["#6e56cf", "#d6409f", "#f5f2ff", "#1c1b22"] },
  { label: "rival.io", swatches: ["#0090ff", "#12a594", "#eef6ff", "#111827"] },
] as const;

const BARS = [
  { label: "Colors", width: "72%" },
  { label: "Layout", width: "54%" },
  { label: "Typography", width: "86%" },
] as const;

/**
 * A drawn illustration of a comparison, not a real result: it carries no numbers, and says
 * what it is to screen readers.
 */
export function ComparePreview() {
  return (
    <div className="mk-preview" role="img" aria-label="Illustration: two websites compared side by side with a suggested fix">
      <div className="mk-preview-window">
        <div className="mk-preview-toolbar">
          <span className="mk-preview-dot" />
          <span className="mk-preview-dot" />
          <span className="mk-preview-dot" />
          <Text size="1" color="gray" className="mk-preview-title">
            Comparison · Spring relaunch
          </Text>
        </div>
        <div className="mk-preview-panels">
          {SITES.map((site, i) => (
            <div key={site.label} className={`mk-preview-site mk-preview-site-${i}`}>
              <Text size="1" color="gray" className="mk-preview-url">
                {site.label}
              </Text>
              <div className="mk-preview-page">
                <div className="mk-preview-nav" />
                <div className="mk-preview-heroblock" />
                <div className="mk-preview-line" />
                <div className="mk-preview-line short" />
                <div className="mk-preview-cards">
                  <div />
                  <div />
                  <div />
                </div>
              </div>
              <div className="mk-preview-swatches">
                {site.swatches.map((c) => (
                  <span key={c} style={{ background: c }} />
                ))}
              </div>
            </div>
          ))}
        </div>
        <div className="mk-preview-bars">
          {BARS.map((b) => (
            <div key={b.label} className="mk-preview-bar">
              <Text size="1" color="gray">
                {b.label}
              </Text>
              <div className="mk-preview-track">
                <div style={{ width: b.width }} />
              </div>
            </div>
          ))}
        </div>
      </div>
      <div className="mk-preview-fix">
        <LightningBoltIcon aria-hidden />
        <div>
          <Text as="div" size="1" weight="bold">
            Suggested fix
          </Text>
          <Text as="div" size="1" color="gray">
            Move the primary CTA above the fold on mobile.
          </Text>
        </div>
      </div>
    </div>
  );
}
