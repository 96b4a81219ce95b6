import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import type { AgentDto } from "#server/modules/agents/model";
import { RelativeTime } from "#web/components/ui/relative-time";

const TONE: Record<string, "green" | "amber" | "red" | "gray"> = { active: "green", idle: "amber", error: "red", stopped: "gray" };
const LABEL: Record<string, string> = { active: "Active", idle: "Idle", error: "Error", stopped: "Stopped" };

/** One agent's status line at the top of its page. */
export function AgentStrip({ agent }: { agent: AgentDto | undefined }) {
  if (!agent) return null;
  const status = agent.status in TONE ? agent.status : "idle";
  return (
    <Card size="1" variant="surface" data-testid={`strip-${agent.id}`}>
      <Flex align="center" gap="3" wrap="wrap">
        <Text size="2" weight="bold">
          {agent.name}
        </Text>
        <Badge color={TONE[status]} variant="soft" highContrast>
          {LABEL[status]}
        </Badge>
        <Text size="2" color="gray" style={{ flex: 1, minWidth: 200 }}>
          {agent.currentTask ?? (status === "stopped" ? "Standing by: launch the system from Mission Control" : "No task")}
        </Text>
        <Text size="1" color="gray">
          Last activity <RelativeTime iso={agent.lastActivity} fallback="never" />
        </Text>
      </Flex>
    </Card>
  );
}
