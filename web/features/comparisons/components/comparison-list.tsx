import { Box, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import type { ComparisonDto } from "#server/modules/comparisons/model";
import { StatusBadge } from "./status-badge";

interface Props {
  /** null while loading. */
  comparisons: ComparisonDto[] | null;
  selectedId: string | null;
  onSelect(id: string): void;
}

export function ComparisonList({ comparisons, selectedId, onSelect }: Props) {
  return (
    <Box>
      <Heading as="h2" size="4" mb="3">
        Your Comparisons
      </Heading>
      {comparisons === null ? (
        <Flex direction="column" gap="2" aria-busy="true" aria-label="Loading comparisons" data-testid="comparison-skeleton">
          {[0, 1, 2].map((i) => (
            <Card key={i}>
              <Flex direction="column" gap="2">
                <Skeleton height="16px" width="60%" />
                <Skeleton height="12px" width="85%" />
              </Flex>
            </Card>
          ))}
        </Flex>
      ) : comparisons.length === 0 ? (
        <Card variant="surface">
          <Text size="2" color="gray">
            No comparisons yet. Create your first one above!
          </Text>
        </Card>
      ) : (
        <Flex direction="column" gap="2" asChild>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {comparisons.map((c) => {
              const selected = c.id === selectedId;
              return (
                <li key={c.id}>
                  <Card
                    asChild
                    variant={selected ? "classic" : "surface"}
                    style={{
                      width: "100%",
                      textAlign: "left",
                      cursor: "pointer",
                      outline: selected ? "2px solid var(--accent-9)" : undefined,
                    }}
                  >
                    <button type="button" aria-pressed={selected} onClick={() => onSelect(c.id)}>
                      <Flex justify="between" align="center" gap="2">
                        <Text weight="bold" size="2" truncate>
                          {c.name}
                        </Text>
                        <StatusBadge status={c.status} />
                      </Flex>
                      {c.description && (
                        <Text as="p" size="1" color="gray" mt="1" style={{ overflowWrap: "anywhere" }}>
                          {c.description}
                        </Text>
                      )}
                      <Text as="p" size="1" color="gray" mt="1">
                        {c.targetCount} {c.targetCount === 1 ? "website" : "websites"}
                      </Text>
                    </button>
                  </Card>
                </li>
              );
            })}
          </ul>
        </Flex>
      )}
    </Box>
  );
}
