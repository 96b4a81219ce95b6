import "#web/features/agents/agents.css";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { Callout, Flex, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import type { AgentDto, ComponentDto } from "#server/modules/agents/model";
import { AgentStrip } from "#web/features/agents/agent-strip";
import { ComponentList } from "#web/features/agents/components/component-list";
import { ComponentViewer } from "#web/features/agents/components/component-viewer";
import { useLiveRevalidate } from "#web/features/agents/use-live-revalidate";
import { load } from "#web/lib/loader-context";

export const handle = { title: "Generate Components" };

interface GenerateData {
  components: ComponentDto[] | null;
  agents: AgentDto[] | null;
}

export async function loader({ context }: LoaderFunctionArgs): Promise<GenerateData> {
  const [components, agents] = await Promise.all([
    load(context, (api) => api.components.get({ query: { limit: 100 } })).catch(() => null),
    load(context, (api) => api.agents.get()).catch(() => null),
  ]);
  return { components, agents };
}

export function Component() {
  const data = useLoaderData() as GenerateData;
  useLiveRevalidate(["COMPONENT_GENERATED", "AGENT_UPDATE"], (m) => m.type === "COMPONENT_GENERATED" || m.agentId === "design-ninja");
  const components = data.components ?? [];
  const [selected, setSelected] = useState<string | null>(null);
  const current = components.find((c) => c.id === selected) ?? components[0];

  return (
    <div className="ag-page" aria-labelledby="generate-title">
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7" id="generate-title">
          Generate Components
        </Heading>
        <Text color="gray">
          DesignNinja turns a captured site's design tokens (palette, font stack, radius, spacing) into React components you can preview,
          copy and download. Every file is checked to compile.
        </Text>
      </Flex>
      <AgentStrip agent={data.agents?.find((a) => a.id === "design-ninja")} />
      {components.length === 0 ? (
        <Callout.Root>
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>
            No components yet. Launch the system from Mission Control: DesignNinja builds a kit per captured site, or from the Design Intel
            default tokens until a site has been captured.
          </Callout.Text>
        </Callout.Root>
      ) : (
        <div className="ag-two-col">
          <ComponentList components={components} selectedId={current?.id ?? null} onSelect={setSelected} />
          {current && <ComponentViewer component={current} />}
        </div>
      )}
    </div>
  );
}
