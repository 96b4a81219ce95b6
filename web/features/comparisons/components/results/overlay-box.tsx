import type { CSSProperties, ReactNode } from "react";
import type { PercentBox } from "../../overlay-geometry";

interface Props {
  box: PercentBox;
  /** A Radix colour name: the outline uses step 9, the fill its alpha step 3. */
  color: string;
  dashed?: boolean;
  fill?: boolean;
  label?: ReactNode;
  /** Put the tag above the box instead of inside its top-left corner. */
  tagAbove?: boolean;
  title?: string;
}

/** One outlined rectangle over the screenshot, positioned in percent of the page frame. */
export function OverlayBox({ box, color, dashed, fill, label, tagAbove, title }: Props) {
  const style: CSSProperties = {
    position: "absolute",
    left: `${box.left}%`,
    top: `${box.top}%`,
    width: `${box.width}%`,
    height: `${box.height}%`,
    border: `2px ${dashed ? "dashed" : "solid"} var(--${color}-9)`,
    background: fill ? `var(--${color}-a3)` : undefined,
    borderRadius: 3,
    boxSizing: "border-box",
    pointerEvents: "none",
  };
  return (
    <div style={style} title={title} data-overlay-box={color}>
      {label && (
        <span
          style={{
            position: "absolute",
            left: -2,
            top: tagAbove ? undefined : -2,
            bottom: tagAbove ? "100%" : undefined,
            // Never wider than the box unless the box is tiny; long tags would cover their neighbours.
            maxWidth: "max(100% + 4px, 120px)",
            overflow: "hidden",
            textOverflow: "ellipsis",
            whiteSpace: "nowrap",
            background: `var(--${color}-9)`,
            color: `var(--${color}-contrast)`,
            font: "600 11px/1.4 var(--default-font-family)",
            padding: "1px 5px",
            borderRadius: 3,
          }}
        >
          {label}
        </span>
      )}
    </div>
  );
}
