import type { CSSProperties, ReactNode } from "react";
import type { PercentBox } from "../../overlay-geometry";

interface Props {
  box: PercentBox;
  /** A Radix colour name: the outline uses step 9, the fill its alpha step 3. */
  color: string;
  dashed?: boolean;
  fill?: boolean;
  label?: ReactNode;
  /** What the box is, in full: shown on hover and focus, and its accessible name. */
  detail: string;
}

/** Boxes this close to the top of the page show their tag below themselves, inside the frame. */
const TOP_EDGE_PCT = 3;

/**
 * One outlined rectangle over the screenshot, positioned in percent of the page frame. Only the
 * outline is drawn over the capture; the tag (and the fill) appear on hover or focus, outside the box.
 */
export function OverlayBox({ box, color, dashed, fill, label, detail }: Props) {
  const style: CSSProperties = {
    position: "absolute",
    left: `${box.left}%`,
    top: `${box.top}%`,
    width: `${box.width}%`,
    height: `${box.height}%`,
    border: `2px ${dashed ? "dashed" : "solid"} var(--${color}-9)`,
    ["--di-ov-fill" as string]: fill ? `var(--${color}-a3)` : "transparent",
    borderRadius: 3,
    boxSizing: "border-box",
  };
  return (
    <div
      style={style}
      title={detail}
      aria-label={detail}
      role="img"
      tabIndex={0}
      className="di-ov-box"
      data-overlay-box={color}
      data-tag-side={box.top < TOP_EDGE_PCT ? "below" : "above"}
    >
      {label && (
        <span
          className="di-ov-tag"
          aria-hidden
          style={{
            background: `var(--${color}-9)`,
            color: `var(--${color}-contrast)`,
          }}
        >
          {label}
        </span>
      )}
    </div>
  );
}
