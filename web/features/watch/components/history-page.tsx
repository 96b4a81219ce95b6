import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Heading, Link as RLink, Text } from "@radix-ui/themes";
import { Link } from "react-router";
import type { RunDto } from "../api";
import { changesPath, RunTimeline } from "./run-timeline";

interface Props {
  comparison: { id: string; name: string };
  runs: RunDto[];
}

/** Every kept run of a comparison, newest first. */
export function HistoryPage({ comparison, runs }: Props) {
  const completed = runs.filter((r) => r.status === "completed").length;
  return (
    <Flex direction="column" gap="4" style={{ maxWidth: 960 }}>
      <Flex direction="column" gap="2">
        <RLink asChild size="2">
          <Link to={`/comparison?id=${encodeURIComponent(comparison.id)}`}>
            <ArrowLeftIcon aria-hidden /> {comparison.name}
          </Link>
        </RLink>
        <Flex justify="between" align="end" gap="3" wrap="wrap">
          <Flex direction="column" gap="1">
            <Heading as="h1" size="7">
              Run history
            </Heading>
            <Text color="gray">
              {runs.length} run{runs.length === 1 ? "" : "s"} kept. Each opens exactly as it was; changes are measured against the completed
              run before.
            </Text>
          </Flex>
          {completed >= 2 && (
            <Button variant="soft" asChild>
              <Link to={changesPath(comparison.id)}>Latest changes</Link>
            </Button>
          )}
        </Flex>
      </Flex>
      <Card size="3">
        {runs.length === 0 ? (
          <Text color="gray">No runs yet. Start an analysis or set a schedule on the comparison page.</Text>
        ) : (
          <RunTimeline comparisonId={comparison.id} runs={runs} />
        )}
      </Card>
    </Flex>
  );
}
