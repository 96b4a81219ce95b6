import "#web/features/agents/agents.css";
import { Badge, Button, Flex, Heading, Select, Table, Text } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import type { ActivityEntryDto, ActivityStatus, ActivityType } from "#server/modules/activity/model";
import { RelativeTime } from "#web/components/ui/relative-time";
import { toast } from "#web/components/ui/toast";
import { useLiveRevalidate } from "#web/features/agents/use-live-revalidate";
import { LIVE_MESSAGE_TYPES } from "#web/lib/live-socket";
import { type Client, api, call } from "#web/lib/api";
import { load } from "#web/lib/loader-context";

// Spelled out here because web/ takes only types from src/: a runtime import shipped zod to the
// browser, whose eval probe the page's CSP reports. `satisfies` keeps both lists exhaustive.
const ACTIVITY_TYPES = Object.keys({ trend: 1, component: 1, test: 1, system: 1, comparison: 1 } satisfies Record<
  ActivityType,
  1
>) as ActivityType[];
const ACTIVITY_STATUSES = Object.keys({ success: 1, error: 1, warning: 1, info: 1 } satisfies Record<
  ActivityStatus,
  1
>) as ActivityStatus[];

export const handle = { title: "Activity" };

const PAGE = 100;
const TONE: Record<string, "green" | "red" | "amber" | "blue"> = { success: "green", error: "red", warning: "amber", info: "blue" };

interface ActivityData {
  entries: ActivityEntryDto[] | null;
  type: ActivityType | "all";
  status: ActivityStatus | "all";
}

function page(client: Client, type: ActivityData["type"], status: ActivityData["status"], before?: string) {
  const all = <T extends string>(v: T | "all") => (v === "all" ? undefined : v);
  return client.activity.get({ query: { limit: PAGE, type: all(type), status: all(status), before } });
}

const pick = <T extends string>(known: readonly T[], raw: string | null): T | "all" => known.find((k) => k === raw) ?? "all";

export async function loader({ context, request }: LoaderFunctionArgs): Promise<ActivityData> {
  const p = new URL(request.url).searchParams;
  const type = pick(ACTIVITY_TYPES, p.get("type"));
  const status = pick(ACTIVITY_STATUSES, p.get("status"));
  const entries = await load(context, (api) => page(api, type, status)).catch(() => null);
  return { entries, type, status };
}

export function Component() {
  const data = useLoaderData() as ActivityData;
  const [params, setParams] = useSearchParams();
  const [older, setOlder] = useState<ActivityEntryDto[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [exhausted, setExhausted] = useState(false);
  // Fresh entries arrive at the top; the pages already loaded below stay put.
  useLiveRevalidate(LIVE_MESSAGE_TYPES, () => true, 2000);
  useEffect(() => {
    setOlder([]);
    setExhausted(false);
  }, [data.type, data.status]);

  const entries = [...(data.entries ?? []), ...older.filter((o) => !(data.entries ?? []).some((e) => e.id === o.id))];
  const setFilter = (key: "type" | "status", value: string) => {
    const next = new URLSearchParams(params);
    if (value === "all") next.delete(key);
    else next.set(key, value);
    setParams(next);
  };

  async function loadOlder() {
    const last = entries[entries.length - 1];
    if (!last) return;
    setLoadingOlder(true);
    try {
      const more = await call(page(api, data.type, data.status, last.id));
      setOlder((o) => [...o, ...more]);
      if (more.length < PAGE) setExhausted(true);
    } catch {
      toast({ title: "Error", description: "Failed to load older activity", variant: "destructive" });
    } finally {
      setLoadingOlder(false);
    }
  }

  return (
    <div className="ag-page" aria-labelledby="activity-title">
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7" id="activity-title">
          Activity
        </Heading>
        <Text color="gray">Everything the agents, the system and your comparisons did, newest first.</Text>
      </Flex>
      <Flex gap="4" wrap="wrap" align="end" role="group" aria-label="Filters">
        <Flex direction="column" gap="1">
          <Text size="2" weight="medium" id="filter-type">
            Type
          </Text>
          <Select.Root value={data.type} onValueChange={(v) => setFilter("type", v)}>
            <Select.Trigger aria-labelledby="filter-type" style={{ minWidth: 160 }} />
            <Select.Content>
              <Select.Item value="all">All types</Select.Item>
              {ACTIVITY_TYPES.map((t) => (
                <Select.Item key={t} value={t}>
                  {t}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </Flex>
        <Flex direction="column" gap="1">
          <Text size="2" weight="medium" id="filter-status">
            Status
          </Text>
          <Select.Root value={data.status} onValueChange={(v) => setFilter("status", v)}>
            <Select.Trigger aria-labelledby="filter-status" style={{ minWidth: 160 }} />
            <Select.Content>
              <Select.Item value="all">All statuses</Select.Item>
              {ACTIVITY_STATUSES.map((s) => (
                <Select.Item key={s} value={s}>
                  {s}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </Flex>
        <Text size="2" color="gray">
          {entries.length} entr{entries.length === 1 ? "y" : "ies"} shown
        </Text>
      </Flex>
      {data.entries === null ? (
        <Text color="red">The activity log could not be loaded. Try again in a moment.</Text>
      ) : entries.length === 0 ? (
        <Text color="gray">Nothing matches these filters yet.</Text>
      ) : (
        <Table.Root variant="surface" data-testid="activity-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>When</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Type</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Agent</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>What happened</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {entries.map((e) => (
              <Table.Row key={e.id}>
                <Table.Cell style={{ whiteSpace: "nowrap" }}>
                  <RelativeTime iso={e.createdAt} />
                </Table.Cell>
                <Table.Cell>
                  <Badge variant="outline" color="gray">
                    {e.type}
                  </Badge>
                </Table.Cell>
                <Table.Cell>
                  <Badge variant="soft" highContrast color={TONE[e.status] ?? "gray"}>
                    {e.status}
                  </Badge>
                </Table.Cell>
                <Table.Cell>{e.agentName ?? "System"}</Table.Cell>
                <Table.Cell>
                  <Flex direction="column" gap="1">
                    <Text size="2" weight="medium">
                      {e.message}
                    </Text>
                    {e.details && (
                      <Text size="1" color="gray">
                        {e.details}
                      </Text>
                    )}
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {(data.entries?.length ?? 0) >= PAGE && !exhausted && (
        <Flex>
          <Button variant="soft" onClick={() => void loadOlder()} loading={loadingOlder}>
            Load older entries
          </Button>
        </Flex>
      )}
    </div>
  );
}
