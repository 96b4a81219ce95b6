import { Box as RBox, Text } from "@radix-ui/themes";
import { type Box, cropAround, type Frame, percentIn, union } from "../changes-data";

interface Props {
  src: string;
  frame: Frame;
  boxes: readonly Box[];
  caption: string;
  /** Outline colour: before red, after green. */
  tone: "before" | "after";
}

/** The part of a full-page screenshot around the boxes, with the boxes drawn on it. */
export function EvidenceCrop({ src, frame, boxes, caption, tone }: Props) {
  const focus = union(boxes);
  if (!focus) return null;
  const crop = cropAround(focus, frame);
  const color = tone === "before" ? "var(--red-9)" : "var(--green-9)";
  return (
    <figure style={{ margin: 0, minWidth: 0 }} data-testid="evidence-crop">
      <div
        style={{
          position: "relative",
          width: "100%",
          // Never blown up past the page's own size: a blurry crop shows nothing.
          maxWidth: Math.max(240, crop.width),
          aspectRatio: `${crop.width} / ${crop.height}`,
          overflow: "hidden",
          borderRadius: "var(--radius-2)",
          border: "1px solid var(--gray-a6)",
          background: "var(--gray-a2)",
        }}
      >
        <img
          src={src}
          alt={`${caption}: the changed part of the page`}
          loading="lazy"
          style={{
            position: "absolute",
            display: "block",
            maxWidth: "none",
            height: "auto",
            width: `${(frame.cssWidth / crop.width) * 100}%`,
            left: `${(-crop.x / crop.width) * 100}%`,
            top: `${(-crop.y / crop.height) * 100}%`,
          }}
        />
        {boxes.map((b, i) => {
          const p = percentIn(b, crop);
          return (
            p && (
              <span
                key={i}
                aria-hidden
                data-testid="evidence-box"
                style={{
                  position: "absolute",
                  left: `${p.left}%`,
                  top: `${p.top}%`,
                  width: `${p.width}%`,
                  height: `${p.height}%`,
                  outline: `2px solid ${color}`,
                  outlineOffset: 1,
                  background: `color-mix(in srgb, ${color} 12%, transparent)`,
                  borderRadius: 2,
                }}
              />
            )
          );
        })}
      </div>
      <RBox asChild mt="1">
        <figcaption>
          <Text size="1" color="gray">
            {caption}
          </Text>
        </figcaption>
      </RBox>
    </figure>
  );
}
