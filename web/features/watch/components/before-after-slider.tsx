import { Flex, Text } from "@radix-ui/themes";
import { useId, useState } from "react";

interface Props {
  before: { src: string; label: string };
  after: { src: string; label: string };
  /** The taller page's height over its width, so neither image is cut short. */
  aspect: number;
}

/**
 * The later page laid over the earlier one, cut at the divider: left of it is before, right of it
 * after. A range input moves the cut, so keys and screen readers drive it like the pointer.
 */
export function BeforeAfterSlider({ before, after, aspect }: Props) {
  const id = useId();
  const [split, setSplit] = useState(50);
  return (
    <Flex direction="column" gap="2" style={{ minWidth: 0 }}>
      <Flex justify="between" gap="3">
        <Text size="1" color="gray">
          {before.label}
        </Text>
        <Text size="1" color="gray">
          {after.label}
        </Text>
      </Flex>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        step={1}
        value={split}
        onChange={(e) => setSplit(Number(e.target.value))}
        aria-label="Before and after divider"
        aria-valuetext={`${split}% before, ${100 - split}% after`}
        style={{ width: "100%", margin: 0, accentColor: "var(--accent-9)" }}
        data-testid="before-after-range"
      />
      <div
        role="region"
        aria-label="Before and after comparison"
        tabIndex={0}
        style={{
          height: 560,
          overflow: "auto",
          borderRadius: "var(--radius-3)",
          background: "var(--gray-a2)",
          border: "1px solid var(--gray-a5)",
        }}
      >
        <div style={{ position: "relative", width: "100%", aspectRatio: `1 / ${aspect}` }} data-testid="before-after">
          <img
            src={before.src}
            alt={before.label}
            style={{ position: "absolute", inset: "0 auto auto 0", width: "100%", height: "auto", display: "block" }}
          />
          <img
            src={after.src}
            alt={after.label}
            style={{
              position: "absolute",
              inset: "0 auto auto 0",
              width: "100%",
              height: "auto",
              display: "block",
              clipPath: `inset(0 0 0 ${split}%)`,
            }}
            data-testid="after-layer"
          />
          <span
            aria-hidden
            style={{
              position: "absolute",
              top: 0,
              bottom: 0,
              left: `${split}%`,
              width: 2,
              marginLeft: -1,
              background: "var(--accent-9)",
              boxShadow: "0 0 0 1px var(--color-panel-solid)",
            }}
          />
        </div>
      </div>
    </Flex>
  );
}
