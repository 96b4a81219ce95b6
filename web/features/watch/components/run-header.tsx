import { ArrowLeftIcon, ArrowRightIcon } from "@radix-ui/react-icons";
import { Button, Callout, Card, Flex, Heading, Link as RLink, Text } from "@radix-ui/themes";
import { Link } from "react-router";
import type { RunDto } from "../api";
import { formatDuration, formatWhen } from "../format";
import { RunStatusBadge, TriggerBadge } from "./run-badges";
import { changesPath } from "./run-timeline";

interface Props {
  comparison: { id: string; name: string };
  run: RunDto;
}

/** Says which past run is on screen, read-only, with the way to its changes. */
export function RunHeader({ comparison, run }: Props) {
  const duration = formatDuration(run.startedAt, run.finishedAt);
  return (
    <Card size="3">
      <Flex direction="column" gap="2">
        <RLink asChild size="2">
          <Link to={`/comparison/${encodeURIComponent(comparison.id)}/history`}>
            <ArrowLeftIcon aria-hidden /> Run history
          </Link>
        </RLink>
        <Flex justify="between" align="start" gap="3" wrap="wrap">
          <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
            <Flex gap="2" align="center" wrap="wrap">
              <Heading as="h1" size="6" style={{ overflowWrap: "anywhere" }}>
                {comparison.name}: run #{run.number}
              </Heading>
              <TriggerBadge trigger={run.trigger} />
              <RunStatusBadge status={run.status} />
            </Flex>
            <Text size="2" color="gray">
              Started <time dateTime={run.startedAt}>{formatWhen(run.startedAt)}</time>
              {duration ? ` · took ${duration}` : ""} · results as they were, read-only
            </Text>
          </Flex>
          {run.status === "completed" && run.changeCount !== null && (
            <Button variant="soft" asChild>
              <Link to={changesPath(comparison.id, { to: run.id })}>
                {run.changeCount === 0 ? "No changes" : `${run.changeCount} change${run.changeCount === 1 ? "" : "s"}`} since the run before{" "}
                <ArrowRightIcon aria-hidden />
              </Link>
            </Button>
          )}
        </Flex>
        {run.error && (
          <Callout.Root color="red" size="1">
            <Callout.Text>This run failed: {run.error}</Callout.Text>
          </Callout.Root>
        )}
      </Flex>
    </Card>
  );
}
