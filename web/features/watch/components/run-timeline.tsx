import { ArrowRightIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Flex, Text } from "@radix-ui/themes";
import { Link } from "react-router";
import type { RunDto } from "../api";
import { KIND_LABEL, KINDS, SEVERITIES, SEVERITY_COLOR, SEVERITY_LABEL } from "../changes-data";
import { formatDuration, formatWhen } from "../format";
import { RunStatusBadge, TriggerBadge } from "./run-badges";

interface Props {
  comparisonId: string;
  runs: readonly RunDto[];
}

export const runPath = (comparisonId: string, runId: string) =>
  `/comparison/${encodeURIComponent(comparisonId)}/runs/${encodeURIComponent(runId)}`;
export const changesPath = (
  comparisonId: string,
  q: { from?: string; to?: string; target?: string; page?: string; scheme?: string } = {},
) => {
  const search = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => !!e[1])).toString();
  return `/comparison/${encodeURIComponent(comparisonId)}/changes${search ? `?${search}` : ""}`;
};

function ChangeSummary({ run }: { run: RunDto }) {
  const counts = run.changes;
  if (run.status !== "completed")
    return (
      <Text size="2" color="gray">
        {run.status === "running" ? "Capturing…" : run.error ? `No results: ${run.error}` : "No results"}
      </Text>
    );
  if (run.changeCount === null)
    return (
      <Text size="2" color="gray">
        {run.changesStatus === "pending" ? "Finding changes…" : "Baseline: nothing earlier to compare with"}
      </Text>
    );
  if (run.changeCount === 0)
    return (
      <Text size="2" color="gray">
        No changes
      </Text>
    );
  return (
    <Flex gap="2" align="center" wrap="wrap">
      <Text size="2" weight="bold" data-testid="run-change-count">
        {run.changeCount} change{run.changeCount === 1 ? "" : "s"}
      </Text>
      {counts &&
        SEVERITIES.filter((s) => counts.bySeverity[s] > 0).map((s) => (
          <Badge key={s} color={SEVERITY_COLOR[s]} variant="soft" highContrast radius="full">
            {counts.bySeverity[s]} {SEVERITY_LABEL[s].toLowerCase()}
          </Badge>
        ))}
      {counts &&
        KINDS.filter((k) => counts.byKind[k] > 0).map((k) => (
          <Badge key={k} color="gray" variant="surface">
            {KIND_LABEL[k]} {counts.byKind[k]}
          </Badge>
        ))}
    </Flex>
  );
}

/** Runs newest first on a vertical line, each with its trigger, status and what it changed. */
export function RunTimeline({ comparisonId, runs }: Props) {
  return (
    <ol aria-label="Runs" style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="run-timeline">
      {runs.map((run, i) => {
        const last = i === runs.length - 1;
        const duration = formatDuration(run.startedAt, run.finishedAt);
        return (
          <li key={run.id} style={{ display: "grid", gridTemplateColumns: "20px minmax(0, 1fr)", columnGap: 12 }} data-testid="run-item">
            <Box aria-hidden style={{ position: "relative" }}>
              <span
                style={{
                  position: "absolute",
                  top: 6,
                  left: 4,
                  width: 12,
                  height: 12,
                  borderRadius: "50%",
                  background: (run.changeCount ?? 0) > 0 ? "var(--accent-9)" : "var(--gray-8)",
                  boxShadow: "0 0 0 3px var(--color-panel-solid)",
                }}
              />
              {!last && <span style={{ position: "absolute", top: 22, bottom: -6, left: 9, width: 2, background: "var(--gray-a5)" }} />}
            </Box>
            <Flex direction="column" gap="2" pb="4">
              <Flex gap="2" align="center" wrap="wrap">
                <Text weight="bold">Run #{run.number}</Text>
                <TriggerBadge trigger={run.trigger} />
                <RunStatusBadge status={run.status} />
                <Text size="1" color="gray">
                  <time dateTime={run.startedAt}>{formatWhen(run.startedAt)}</time>
                  {duration ? ` · ${duration}` : ""}
                </Text>
              </Flex>
              <ChangeSummary run={run} />
              {run.status !== "running" && (
                <Flex gap="2" wrap="wrap">
                  <Button size="1" variant="soft" asChild>
                    <Link to={runPath(comparisonId, run.id)} aria-label={`Open results of run #${run.number}`}>
                      Open results
                    </Link>
                  </Button>
                  {run.status === "completed" && run.changeCount !== null && (
                    <Button size="1" variant="soft" color="gray" asChild>
                      <Link to={changesPath(comparisonId, { to: run.id })} aria-label={`View changes in run #${run.number}`}>
                        View changes <ArrowRightIcon aria-hidden />
                      </Link>
                    </Button>
                  )}
                </Flex>
              )}
            </Flex>
          </li>
        );
      })}
    </ol>
  );
}
