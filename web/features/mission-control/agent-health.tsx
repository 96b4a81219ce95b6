import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { AgentDto } from "#server/modules/agents/model";
import { RelativeTime } from "#web/components/ui/relative-time";
import { count, percentOrDash } from "#web/lib/format";
import { AGENT_TYPE_LABELS, agentStatus } from "./labels";

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * An agent's accuracy as a measurement: the figure, what it means and what it is out of. Agents
 * that report no measured accuracy with its definition and denominator show none (a confidence
 * is a self-assessment, not a track record).
 */
export function measuredAccuracy(agent: AgentDto): { value: number; means: string; outOf: string } | null {
  const means = agent.metadata.accuracyMeans;
  if (agent.accuracy === null || typeof means !== "string") return null;
  const decided = num(agent.metadata.decided);
  const correct = num(agent.metadata.correct);
  const generated = num(agent.metadata.generated);
  if (decided && correct !== null) return { value: agent.accuracy, means, outOf: `${correct} of ${decided}` };
  if (generated) return { value: agent.accuracy, means, outOf: `of ${generated}` };
  return null;
}

function AgentCard({ agent, simulated }: { agent: AgentDto; simulated: boolean }) {
  const status = agentStatus(agent.status);
  const measured = measuredAccuracy(agent);
  // The oracle's record is scored on A/B tests; when those ran on simulated visitors, it says so.
  const onSimulated = simulated && agent.type === "analytics";
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
          {measured && (
            <div>
              <dt>Accuracy{onSimulated ? " (simulated)" : ""}</dt>
              <dd title={`${measured.means}: ${measured.outOf}`} data-testid="agent-accuracy">
                {percentOrDash(measured.value)} <span className="mc-agent-outof">({measured.outOf})</span>
              </dd>
            </div>
          )}
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
export function AgentHealth({
  agents,
  systemActive,
  simulatedRecord = false,
}: {
  agents: AgentDto[];
  systemActive: boolean | null;
  simulatedRecord?: boolean;
}) {
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
            <AgentCard key={a.id} agent={a} simulated={simulatedRecord} />
          ))}
        </div>
      )}
    </section>
  );
}
