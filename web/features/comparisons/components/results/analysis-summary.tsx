import { Box, Card, DataList, Flex, Grid, Heading, Progress, Text } from "@radix-ui/themes";
import type { DiffDto } from "#server/modules/comparisons/model";
import { asPercent } from "../../results-data";

const SCORES = [
  ["Color", "colorSimilarity"],
  ["Layout", "layoutSimilarity"],
  ["Content", "contentSimilarity"],
  ["Overall", "overallSimilarity"],
  // Colour, layout and type without a word of copy: what a rebrand or a reworded clone shows apart.
  ["Design", "designSimilarity"],
] as const;

const humanize = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .replace(/^./, (c) => c.toUpperCase());

interface Props {
  /** The scores of the pair on screen, or null when this pair was not scored. */
  diff: DiffDto | null;
  labels: [string, string];
}

/** How alike the two sites on screen are, as percentages. */
export function AnalysisSummary({ diff, labels }: Props) {
  return (
    <Card size={{ initial: "2", sm: "3" }}>
      <Heading as="h2" size="4" mb="1">
        Analysis Summary
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        {labels[0]} vs {labels[1]}
      </Text>
      {!diff ? (
        <Text size="2" color="gray">
          This pair has no scores for this view yet. Run the analysis again to score it.
        </Text>
      ) : (
        <>
          <Grid columns="repeat(auto-fit, minmax(100px, 1fr))" gap="3">
            {SCORES.map(([name, key]) => {
              const value = diff[key];
              if (value === undefined) return null;
              return (
                <Box key={key} data-testid={`score-${key}`}>
                  <Text as="div" size="1" color="gray">
                    {name} similarity
                  </Text>
                  <Text
                    as="div"
                    size="6"
                    weight="bold"
                    color={key === "overallSimilarity" ? "violet" : undefined}
                    style={{ whiteSpace: "nowrap" }}
                  >
                    {asPercent(value)}
                  </Text>
                  <Progress value={Number.parseInt(asPercent(value), 10) || 0} size="1" aria-label={`${name} similarity`} />
                </Box>
              );
            })}
          </Grid>
          {Object.keys(diff.components).length > 0 && (
            <details style={{ marginTop: 16 }}>
              <summary style={{ cursor: "pointer" }}>
                <Text size="2">What went into these scores</Text>
              </summary>
              <DataList.Root size="1" mt="2">
                {Object.entries(diff.components).map(([k, v]) => (
                  <DataList.Item key={k}>
                    <DataList.Label minWidth="160px">{humanize(k)}</DataList.Label>
                    <DataList.Value>{asPercent(v)}</DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </details>
          )}
        </>
      )}
      <Flex mt="3">
        <Text size="1" color="gray">
          100% means the two pages are indistinguishable on that measure.
        </Text>
      </Flex>
    </Card>
  );
}
