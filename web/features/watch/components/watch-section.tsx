import { CounterClockwiseClockIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { errorMessage } from "#web/lib/api";
import {
  type AlertView,
  type DeliveryView,
  getSchedule,
  listAlerts,
  listDeliveries,
  listRuns,
  type RunDto,
  type ScheduleView,
} from "../api";
import { AlertRules } from "./alert-rules";
import { changesPath, RunTimeline } from "./run-timeline";
import { ScheduleEditor } from "./schedule-editor";

interface Props {
  comparisonId: string;
  /** The comparison's status as the page knows it: a run ending reloads the history and deliveries. */
  status: string | undefined;
}

const RECENT = 5;

/** The comparison page's watch: schedule, recent runs and alert rules. Render with key={comparisonId}. */
export function WatchSection({ comparisonId, status }: Props) {
  const [schedule, setSchedule] = useState<ScheduleView | null | undefined>(undefined);
  const [runs, setRuns] = useState<RunDto[] | null>(null);
  const [alerts, setAlerts] = useState<AlertView[] | null>(null);
  const [deliveries, setDeliveries] = useState<DeliveryView[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const reloadRuns = useCallback(() => {
    listRuns(comparisonId)
      .then(setRuns)
      .catch(() => {});
    listDeliveries(comparisonId)
      .then(setDeliveries)
      .catch(() => {});
  }, [comparisonId]);

  useEffect(() => {
    getSchedule(comparisonId)
      .then((s) => setSchedule(s ?? null))
      .catch((e) => setFailed(errorMessage(e, "Could not load this comparison's watch settings.")));
    listAlerts(comparisonId)
      .then(setAlerts)
      .catch((e) => setFailed(errorMessage(e, "Could not load the alert rules.")));
    reloadRuns();
  }, [comparisonId, reloadRuns]);

  // A run that ends (manual or scheduled) adds to the history; a schedule's next run moves on too.
  const lastStatus = useRef(status);
  useEffect(() => {
    const was = lastStatus.current;
    lastStatus.current = status;
    if (was !== undefined && was !== status) {
      reloadRuns();
      if (status !== "running")
        getSchedule(comparisonId).then(
          (s) => setSchedule(s ?? null),
          () => {},
        );
    }
  }, [status, comparisonId, reloadRuns]);

  const recent = useMemo(() => runs?.slice(0, RECENT) ?? null, [runs]);
  const runNumbers = useMemo(() => new Map((runs ?? []).map((r) => [r.id, r.number])), [runs]);
  const historyPath = `/comparison/${encodeURIComponent(comparisonId)}/history`;
  const comparable = (runs ?? []).filter((r) => r.status === "completed").length >= 2;

  return (
    <section aria-labelledby="watch-heading">
      <Flex direction="column" gap="1" mb="3" mt="2">
        <Heading as="h2" size="5" id="watch-heading">
          Watch
        </Heading>
        <Text size="2" color="gray">
          Re-run on a schedule, keep every run, and hear about what changed.
        </Text>
      </Flex>
      <Flex direction="column" gap="4">
        {schedule === undefined ? (
          failed ? (
            <Card size="3">
              <Text color="red" size="2" role="alert">
                {failed}
              </Text>
            </Card>
          ) : (
            <Card size="3" aria-busy="true" aria-label="Loading schedule">
              <Skeleton height="24px" width="30%" mb="3" />
              <Skeleton height="80px" />
            </Card>
          )
        ) : (
          <ScheduleEditor comparisonId={comparisonId} schedule={schedule} onChange={setSchedule} />
        )}

        <Card size="3">
          <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
            <Flex align="center" gap="2">
              <CounterClockwiseClockIcon aria-hidden />
              <Heading as="h3" size="4">
                History
              </Heading>
            </Flex>
            <Flex gap="2" wrap="wrap">
              {comparable && (
                <Button size="2" variant="soft" asChild>
                  <Link to={changesPath(comparisonId)}>Latest changes</Link>
                </Button>
              )}
              {runs && runs.length > 0 && (
                <Button size="2" variant="soft" color="gray" asChild>
                  <Link to={historyPath}>All runs ({runs.length})</Link>
                </Button>
              )}
            </Flex>
          </Flex>
          {!recent ? (
            <Skeleton height="60px" />
          ) : recent.length === 0 ? (
            <Text size="2" color="gray">
              No runs yet. Start an analysis or set a schedule; each run is kept here.
            </Text>
          ) : (
            <RunTimeline comparisonId={comparisonId} runs={recent} />
          )}
        </Card>

        <AlertRules
          comparisonId={comparisonId}
          alerts={alerts}
          deliveries={deliveries}
          runNumbers={runNumbers}
          loadError={alerts === null ? failed : null}
          onAlertsChange={setAlerts}
        />
      </Flex>
    </section>
  );
}
