import { Badge, Box, Button, Card, Flex, Heading, SegmentedControl, Select, Text } from "@radix-ui/themes";
import { ReloadIcon } from "@radix-ui/react-icons";
import { useCallback, useState } from "react";
import type { JobState, JobView } from "#server/modules/jobs/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { Loaded } from "./components/loaded";
import { formatDateTime } from "./format";
import { listJobs, retryJob } from "./jobs-api";
import { useConsoleList } from "./use-console-list";

const FILTERS = ["all", "dead", "failed", "queued", "running"] as const;
type Filter = (typeof FILTERS)[number];
const FILTER_LABEL: Record<Filter, string> = { all: "Not done", dead: "Dead", failed: "Retrying", queued: "Queued", running: "Running" };
const STATE: Record<JobState, { label: string; color: "red" | "amber" | "blue" | "green" | "gray" }> = {
  dead: { label: "Dead", color: "red" },
  failed: { label: "Retrying", color: "amber" },
  queued: { label: "Queued", color: "gray" },
  running: { label: "Running", color: "blue" },
  done: { label: "Done", color: "green" },
};
/** What each kind of work is, in the console's words. */
const KIND_LABEL: Record<string, string> = { "watch.alert": "Alert delivery", "watch.digest": "Watch digest" };

function JobLine({ job, retrying, onRetry }: { job: JobView; retrying: boolean; onRetry(): void }) {
  const state = STATE[job.state];
  return (
    <Card asChild>
      <li data-testid="job" data-state={job.state}>
        <Flex justify="between" align="start" gap="3" wrap="wrap">
          <Flex direction="column" gap="1" style={{ minWidth: 0, flex: "1 1 16rem" }}>
            <Flex align="center" gap="2" wrap="wrap">
              <Text weight="medium">{KIND_LABEL[job.kind] ?? job.kind}</Text>
              <Badge color={state.color} variant="soft" highContrast>
                {state.label}
              </Badge>
              <Text size="1" color="gray">
                attempt {job.attempts} of {job.maxAttempts}
              </Text>
            </Flex>
            {job.lastError && (
              <Text size="2" color={job.state === "dead" ? "red" : "gray"} style={{ overflowWrap: "anywhere" }}>
                {job.lastError}
              </Text>
            )}
            <Text size="1" color="gray">
              {job.state === "running" && job.leasedBy ? `Held by ${job.leasedBy} · ` : ""}
              {job.state === "failed" || job.state === "queued" ? `Runs ${formatDateTime(job.runAt)} · ` : ""}
              Updated {formatDateTime(job.updatedAt)}
            </Text>
          </Flex>
          {job.state === "dead" && (
            <Button size="2" variant="soft" onClick={onRetry} loading={retrying} aria-label={`Retry ${KIND_LABEL[job.kind] ?? job.kind}`}>
              <ReloadIcon aria-hidden="true" />
              Retry
            </Button>
          )}
        </Flex>
      </li>
    </Card>
  );
}

/**
 * The jobs table as the console shows it: work waiting, running, retrying after a failure, or dead
 * after its last attempt, with its last error; a dead job can be queued again.
 */
export function JobsPanel() {
  const [filter, setFilter] = useState<Filter>("all");
  const [version, setVersion] = useState(0);
  const [retrying, setRetrying] = useState<string | null>(null);
  const load = useCallback(() => listJobs(filter === "all" ? null : filter), [filter, version]);
  const { data, failed } = useConsoleList<JobView[]>(load, "Could not list the jobs");

  async function retry(job: JobView) {
    setRetrying(job.id);
    try {
      await retryJob(job.id);
      toast({ title: "Job Queued", description: `${KIND_LABEL[job.kind] ?? job.kind} will be tried again now.` });
    } catch (e) {
      toast({ title: "Retry Failed", description: errorMessage(e, "Could not retry the job."), variant: "destructive" });
    } finally {
      setRetrying(null);
      setVersion((v) => v + 1);
    }
  }

  return (
    <Flex direction="column" gap="3" data-testid="jobs-panel" asChild>
      <section aria-labelledby="jobs-heading">
        <Flex direction="column" gap="1">
          <Heading as="h2" size="4" id="jobs-heading">
            Jobs
          </Heading>
          <Text size="2" color="gray">
            Change detection, alert deliveries, digests, and on PostgreSQL captures and pair scoring: waiting, running, retrying after a
            failure, or dead after their last attempt.
          </Text>
        </Flex>
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          {/* Five segments are wider than a phone: there the same choice is a select. */}
          <Box display={{ initial: "none", sm: "block" }}>
            <SegmentedControl.Root value={filter} onValueChange={(v) => setFilter(v as Filter)} aria-label="Which jobs">
              {FILTERS.map((f) => (
                <SegmentedControl.Item key={f} value={f}>
                  {FILTER_LABEL[f]}
                </SegmentedControl.Item>
              ))}
            </SegmentedControl.Root>
          </Box>
          <Box display={{ initial: "block", sm: "none" }}>
            <Select.Root value={filter} onValueChange={(v) => setFilter(v as Filter)}>
              <Select.Trigger aria-label="Which jobs" />
              <Select.Content>
                {FILTERS.map((f) => (
                  <Select.Item key={f} value={f}>
                    {FILTER_LABEL[f]}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Box>
          <Button variant="ghost" onClick={() => setVersion((v) => v + 1)}>
            <ReloadIcon aria-hidden="true" />
            Refresh
          </Button>
        </Flex>
        <Loaded
          failed={failed}
          data={data}
          loading="Loading jobs…"
          empty={filter === "dead" ? "No dead jobs: every delivery and digest went out or is still being tried." : "No jobs here."}
          isEmpty={(list) => list.length === 0}
        >
          {(jobs) => (
            <Flex direction="column" gap="2" asChild>
              <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Jobs">
                {jobs.map((job) => (
                  <JobLine key={job.id} job={job} retrying={retrying === job.id} onRetry={() => void retry(job)} />
                ))}
              </ul>
            </Flex>
          )}
        </Loaded>
      </section>
    </Flex>
  );
}
