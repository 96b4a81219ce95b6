import { Flex, Skeleton, Text } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { errorMessage } from "#web/lib/api";
import type { ColorScheme, PageRole } from "#server/modules/capture/model";
import { fetchHeatMap, type Viewport } from "../api";

interface Props {
  comparisonId: string;
  targetId: string;
  viewport: Viewport;
  page: PageRole;
  colorScheme: ColorScheme;
  from: string;
  to: string;
  alt: string;
}

/** The server's pixel heat map of one page between two runs (changed pixels red, regions outlined). */
export function HeatMap({ comparisonId, targetId, viewport, page, colorScheme, from, to, alt }: Props) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    setUrl(null);
    setError(null);
    fetchHeatMap(comparisonId, { targetId, viewport, page, colorScheme, from, to })
      .then((blob) => {
        if (cancelled) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch((e) => !cancelled && setError(errorMessage(e, "Could not draw the heat map.")));
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [comparisonId, targetId, viewport, page, colorScheme, from, to]);

  return (
    <Flex direction="column" gap="2" style={{ minWidth: 0 }}>
      <Text size="1" color="gray">
        Changed pixels in red, changed regions outlined
      </Text>
      <div
        role="region"
        aria-label="Pixel heat map"
        tabIndex={0}
        style={{
          height: 560,
          overflow: "auto",
          borderRadius: "var(--radius-3)",
          background: "var(--gray-a2)",
          border: "1px solid var(--gray-a5)",
        }}
      >
        {error ? (
          <Flex align="center" justify="center" p="4" style={{ height: "100%" }}>
            <Text size="2" color="red" role="alert">
              {error}
            </Text>
          </Flex>
        ) : url ? (
          <img src={url} alt={alt} style={{ width: "100%", height: "auto", display: "block" }} data-testid="heat-map" />
        ) : (
          <Skeleton height="100%" aria-label="Drawing the heat map" />
        )}
      </div>
    </Flex>
  );
}
