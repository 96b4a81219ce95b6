import { Badge, Box, Card, Flex, Grid, Heading, ScrollArea, Skeleton, Text } from "@radix-ui/themes";
import type { ActivityEntryDto } from "#server/modules/activity/model";
import type { AgentDto } from "#server/modules/agents/model";
import { formatDateTime } from "../format";

const AGENT_COLOR = { active: "green", idle: "gray", error: "red", stopped: "orange" } as const;
const PLAIN_LIST = { listStyle: "none", margin: 0, padding: 0 } as const;
const ENTRY_COLOR = { success: "green", error: "red", warning: "amber", info: "blue" } as const;

interface Props {
  /** null while loading. */
  agents: AgentDto[] | null;
  activity: ActivityEntryDto[] | null;
  connected: boolean;
}

export function MonitoringTab({ agents, activity, connected }: Props) {
  return (
    <Grid columns={{ initial: "1", md: "2" }} gap="3">
      <Card>
        <Heading as="h3" size="3" mb="3">
          AI Agents
        </Heading>
        {agents === null ? (
          <Flex direction="column" gap="2" aria-busy="true" aria-label="Loading agents">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height="44px" />
            ))}
          </Flex>
        ) : agents.length === 0 ? (
          <Text size="2" color="gray">
            No agents registered.
          </Text>
        ) : (
          <Flex direction="column" gap="2" asChild>
            <ul style={PLAIN_LIST} data-testid="admin-agents">
              {agents.map((a) => {
                const status = a.status in AGENT_COLOR ? a.status : "idle";
                return (
                  <li key={a.id}>
                    <Flex justify="between" align="center" gap="2">
                      <Box minWidth="0">
                        <Text as="p" size="2" weight="medium">
                          {a.name}
                        </Text>
                        <Text as="p" size="1" color="gray" truncate>
                          {a.currentTask ?? `${a.tasksCompleted} tasks completed`}
                        </Text>
                      </Box>
                      <Badge color={AGENT_COLOR[status]}>{status}</Badge>
                    </Flex>
                  </li>
                );
              })}
            </ul>
          </Flex>
        )}
      </Card>
      <Card>
        <Flex justify="between" align="center" mb="3">
          <Heading as="h3" size="3">
            Activity Feed
          </Heading>
          <Badge color={connected ? "green" : "gray"} variant="soft" data-testid="admin-connection">
            <span className={connected ? "di-pulse-dot" : "di-idle-dot"} aria-hidden="true" />
            {connected ? "Live" : "Disconnected"}
          </Badge>
        </Flex>
        {activity === null ? (
          <Flex direction="column" gap="2" aria-busy="true" aria-label="Loading activity">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height="36px" />
            ))}
          </Flex>
        ) : activity.length === 0 ? (
          <Text size="2" color="gray">
            Quiet in here. Activity shows up as agents and people get to work.
          </Text>
        ) : (
          <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: 360 }} tabIndex={0} aria-label="Activity feed">
            <Flex direction="column" gap="2" pr="3" asChild>
              <ul style={PLAIN_LIST}>
                {activity.map((e) => (
                  <li key={e.id}>
                    <Flex gap="2" align="start">
                      <Badge color={ENTRY_COLOR[e.status] ?? "gray"} variant="soft" highContrast style={{ flexShrink: 0 }}>
                        {e.type}
                      </Badge>
                      <Box minWidth="0">
                        <Text as="p" size="2">
                          {e.message}
                        </Text>
                        <Text as="p" size="1" color="gray">
                          {e.agentName ? `${e.agentName} · ` : ""}
                          {formatDateTime(e.createdAt)}
                        </Text>
                      </Box>
                    </Flex>
                  </li>
                ))}
              </ul>
            </Flex>
          </ScrollArea>
        )}
      </Card>
    </Grid>
  );
}
