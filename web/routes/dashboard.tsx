import { Flex, Heading, Text } from "@radix-ui/themes";
import { useEffect, useMemo } from "react";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { toast } from "#web/components/ui/toast";
import { useSession } from "#web/features/auth/use-session";
import { DASHBOARD_ACTIVITY_LIMIT } from "#web/features/live/refresh";
import type {
  ActivityEntryDto,
  AgentDto,
  ComponentDto,
  ExperimentDto,
  MetricsDto,
  SystemStatusDto,
  TrendDto,
} from "#web/features/live/types";
import { useMission } from "#web/features/live/use-mission";
import { useSystemControl } from "#web/features/live/use-system-control";
import { QuickActions, SecondaryActions } from "#web/features/mission-control/action-cards";
import { ActivityStream } from "#web/features/mission-control/activity-stream";
import { AgentHealth } from "#web/features/mission-control/agent-health";
import { KpiCards } from "#web/features/mission-control/kpi-cards";
import { SystemCard } from "#web/features/mission-control/system-card";
import { type Answer, type Client, serverDefaults } from "#web/lib/api";
import { load } from "#web/lib/loader-context";

export const handle = { title: "Mission Control" };

interface DashboardData {
  agents: AgentDto[] | null;
  trends: TrendDto[] | null;
  components: ComponentDto[] | null;
  activeTests: ExperimentDto[] | null;
  completedTests: ExperimentDto[] | null;
  activity: ActivityEntryDto[] | null;
  metrics: MetricsDto | null;
  system: SystemStatusDto | null;
  failed: boolean;
}

/** The dashboard's reads on entry (spec §7). One failing read doesn't hide the others. */
export async function loader({ context }: LoaderFunctionArgs): Promise<DashboardData> {
  const get = <R extends Answer>(pick: (api: Client) => Promise<R>) => load(context, pick).catch(() => null);
  const [agents, trends, components, activeTests, completedTests, activity, metrics, system] = await Promise.all([
    get((api) => api.agents.get()),
    get((api) => api.trends.get({ query: { limit: 20 } })),
    get((api) => api.components.get({ query: { limit: 10 } })),
    get((api) => api.tests.get({ query: serverDefaults({ status: "active" }) })),
    get((api) => api.tests.get({ query: { status: "completed", limit: 10 } })),
    get((api) => api.activity.get({ query: { limit: DASHBOARD_ACTIVITY_LIMIT } })),
    get((api) => api.metrics.get()),
    get((api) => api.system.status.get()),
  ]);
  const all = [agents, trends, components, activeTests, completedTests, activity, metrics, system];
  return { agents, trends, components, activeTests, completedTests, activity, metrics, system, failed: all.some((x) => x === null) };
}

export function Component() {
  const data = useLoaderData() as DashboardData;
  const { user } = useSession();
  const loaded = useMemo(
    () => ({
      agents: data.agents ?? undefined,
      trends: data.trends ?? undefined,
      components: data.components ?? undefined,
      activeTests: data.activeTests ?? undefined,
      completedTests: data.completedTests ?? undefined,
      activity: data.activity ?? undefined,
      metrics: data.metrics ?? undefined,
      systemActive: data.system?.isActive,
    }),
    [data],
  );
  const live = useMission(loaded, user?.id ?? null);
  const control = useSystemControl();

  useEffect(() => {
    if (data.failed && user) toast({ title: "Error", description: "Failed to load dashboard data", variant: "destructive" });
  }, [data, user]);

  const isAdmin = user?.role === "admin";
  return (
    <div className="mc-page" aria-labelledby="mc-title">
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7" id="mc-title">
          Mission Control
        </Heading>
        <Text color="gray">Your design-intelligence crew, live. Launch the agents and watch them work.</Text>
      </Flex>

      <KpiCards metrics={live.metrics} />

      <div className="mc-top-row">
        <SystemCard
          active={live.systemActive}
          pending={control.pending}
          isAdmin={isAdmin}
          onLaunch={control.launch}
          onStop={control.stop}
        />
        <QuickActions />
      </div>

      <SecondaryActions isAdmin={isAdmin} />

      <AgentHealth agents={live.agents} systemActive={live.systemActive} simulatedRecord={(live.metrics?.simulatedDecisions ?? 0) > 0} />

      <ActivityStream entries={live.activity} live={live.connected} />
    </div>
  );
}
