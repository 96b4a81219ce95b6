import "#web/features/agents/agents.css";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { Callout, Flex, Heading, Text } from "@radix-ui/themes";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import type { AgentDto, ExperimentDto } from "#server/modules/agents/model";
import { AgentStrip } from "#web/features/agents/agent-strip";
import { ExperimentCard } from "#web/features/agents/tests/experiment-card";
import { useLiveRevalidate } from "#web/features/agents/use-live-revalidate";
import { serverDefaults } from "#web/lib/api";
import { load } from "#web/lib/loader-context";

export const handle = { title: "A/B Testing" };

interface TestsData {
  active: ExperimentDto[] | null;
  completed: ExperimentDto[] | null;
  agents: AgentDto[] | null;
}

export async function loader({ context }: LoaderFunctionArgs): Promise<TestsData> {
  const [active, completed, agents] = await Promise.all([
    load(context, (api) => api.tests.get({ query: serverDefaults({ status: "active" }) })).catch(() => null),
    load(context, (api) => api.tests.get({ query: { status: "completed", limit: 50 } })).catch(() => null),
    load(context, (api) => api.agents.get()).catch(() => null),
  ]);
  return { active, completed, agents };
}

export function Component() {
  const data = useLoaderData() as TestsData;
  useLiveRevalidate(
    ["TEST_COMPLETED", "AGENT_UPDATE"],
    (m) => m.type === "TEST_COMPLETED" || m.agentId === "test-commander" || m.agentId === "insight-oracle",
    3000,
  );
  const active = data.active ?? [];
  const completed = data.completed ?? [];
  return (
    <div className="ag-page" aria-labelledby="tests-title">
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7" id="tests-title">
          A/B Testing
        </Heading>
        <Text color="gray">
          TestCommander pits DesignNinja's A and B variants against each other; InsightOracle calls the winner before the data is in.
        </Text>
      </Flex>
      <Flex direction="column" gap="2">
        <AgentStrip agent={data.agents?.find((a) => a.id === "test-commander")} />
        <AgentStrip agent={data.agents?.find((a) => a.id === "insight-oracle")} />
      </Flex>
      <section aria-labelledby="active-tests">
        <Heading as="h2" size="5" id="active-tests" mb="3">
          {`Active tests (${active.length})`}
        </Heading>
        {active.length === 0 ? (
          <Callout.Root>
            <Callout.Icon>
              <InfoCircledIcon />
            </Callout.Icon>
            <Callout.Text>
              No test is running. With the system launched, a test starts as soon as DesignNinja has both variants of a component.
            </Callout.Text>
          </Callout.Root>
        ) : (
          <Flex direction="column" gap="3">
            {active.map((t) => (
              <ExperimentCard key={t.id} test={t} />
            ))}
          </Flex>
        )}
      </section>
      <section aria-labelledby="completed-tests">
        <Heading as="h2" size="5" id="completed-tests" mb="3">
          {`Completed tests (${completed.length})`}
        </Heading>
        {completed.length === 0 ? (
          <Text color="gray">None completed yet.</Text>
        ) : (
          <Flex direction="column" gap="3">
            {completed.map((t) => (
              <ExperimentCard key={t.id} test={t} />
            ))}
          </Flex>
        )}
      </section>
    </div>
  );
}
