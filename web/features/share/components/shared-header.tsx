import "../share.css";
import { Badge, Flex, Heading, Text } from "@radix-ui/themes";
import { EyeOpenIcon } from "@radix-ui/react-icons";
import type { ReactNode } from "react";
import type { SharedResults } from "#server/modules/share/model";
import { formatDateTime } from "#web/lib/format";

/**
 * The shared page's top bar: what the page is (someone's results, read-only) and until when the
 * link works. `brand` is the product's mark, handed in by the route: a picture, not a link.
 */
export function SharedBar({ expiresAt, brand }: { expiresAt: string | null; brand: ReactNode }) {
  return (
    <Flex asChild align="center" justify="between" gap="3" px={{ initial: "3", md: "6" }} py="3" className="di-shared-bar">
      <header>
        <Flex align="center" gap="2" flexShrink="0">
          {brand}
          <Text size="3" weight="bold" wrap="nowrap">
            Design Intel
          </Text>
        </Flex>
        {/* On a phone the badge and the expiry stack at the right of the mark, rather than under it. */}
        <Flex direction={{ initial: "column", sm: "row" }} align={{ initial: "end", sm: "center" }} gap={{ initial: "1", sm: "3" }}>
          <Badge size="2" variant="soft" color="iris">
            <EyeOpenIcon aria-hidden /> Shared read-only view
          </Badge>
          <Text size="1" color="gray" align="right" data-testid="share-expiry">
            {expiresAt ? (
              <>
                Expires <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>
              </>
            ) : (
              "Never expires"
            )}
          </Text>
        </Flex>
      </header>
    </Flex>
  );
}

/** Which comparison and which run the shared results are. */
export function SharedTitle({ comparison, run }: Pick<SharedResults, "comparison" | "run">) {
  return (
    <Flex direction="column" gap="1">
      <Heading as="h1" size="7" style={{ overflowWrap: "anywhere" }}>
        {comparison.name}
      </Heading>
      {comparison.description && (
        <Text color="gray" style={{ overflowWrap: "anywhere" }}>
          {comparison.description}
        </Text>
      )}
      <Text size="2" color="gray">
        Run #{run.number}, captured <time dateTime={run.startedAt}>{formatDateTime(run.startedAt)}</time>
      </Text>
    </Flex>
  );
}
