import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { AgentDto } from "#server/modules/agents/model";
import { RelativeTime } from "#web/components/ui/relative-time";
import { count, percentOrDash } from "#web/lib/format";
import { AGENT_TYPE_LABELS, agentStatus } from "./labels";

function AgentCard({ agent }: { agent: AgentDto }) {
  const status = agentStatus(agent.status);
  const score = agent.accuracy ?? agent.confidence;
  return (
    <Card size="2" className="mc-agent" data-status={status.value} data-testid={`agent-${agent.id}`}>
      <Flex direction="column" gap="2">
        <Flex align="center" justify="between" gap="2">
          <Flex direction="column">
            <Heading as="h3" size="3">
              {agent.name}
            </Heading>
            <Text size="1" color="gray">
              {AGENT_TYPE_LABELS[agent.type] ?? agent.type}
            </Text>
          </Flex>
          <Badge color={status.tone} variant="soft" highContrast data-testid="agent-status">
            <span className={`mc-dot mc-dot-${status.tone}`} aria-hidden />
            {status.label}
          </Badge>
        </Flex>
        <Text size="2" className="mc-agent-task" title={agent.currentTask ?? undefined}>
          {agent.currentTask ?? (status.value === "stopped" ? "Standing by" : "No task")}
        </Text>
        <dl className="mc-agent-stats">
          <div>
            <dt>Tasks</dt>
            <dd data-testid="agent-tasks">{count(agent.tasksCompleted)}</dd>
          </div>
          <div>
            <dt>Accuracy</dt>
            <dd title={typeof agent.metadata.accuracyMeans === "string" ? agent.metadata.accuracyMeans : typeof agent.metadata.confidenceMeans === "string" ? agent.metadata.confidenceMeans : undefined}>
              {percentOrDash(score)}
            </dd>
          </div>
          <div>
            <dt>Last activity</dt>
            <dd>
              <RelativeTime iso={agent.lastActivity} fallback="Never" />
            </dd>
          </div>
        </dl>
      </Flex>
    </Card>
  );
}

/** Spec §2: the AI Agent Health grid; the header reads 'N Active' when the system is on, else 'System Offline'. */
export function AgentHealth({ agents, systemActive }: { agents: AgentDto[]; systemActive: boolean | null }) {
  const running = agents.filter((a) => a.status === "active").length;
  return (
    <section aria-labelledby="mc-agents-title">
      <Flex align="center" justify="between" mb="3" gap="3">
        <Heading as="h2" size="4" id="mc-agents-title">
          AI Agent Health
        </Heading>
        <Badge size="2" color={systemActive ? "green" : "gray"} variant="soft" highContrast data-testid="agents-header-badge">
          {systemActive ? `${running} Active` : "System Offline"}
        </Badge>
      </Flex>
      {agents.length === 0 ? (
        <Text color="gray" size="2">
          No agents reported yet.
        </Text>
      ) : (
        <div className="mc-grid mc-grid-agents">
          {agents.map((a) => (
            <AgentCard key={a.id} agent={a} />
          ))}
        </div>
      )}
    </section>
  );
}
