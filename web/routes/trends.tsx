import "#web/features/agents/agents.css";
import { Callout, Flex, Heading, Text } from "@radix-ui/themes";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { useLoaderData, useRevalidator, type LoaderFunctionArgs } from "react-router";
import type { AgentDto, TrendDto, TrendSettings } from "#server/modules/agents/model";
import { toast } from "#web/components/ui/toast";
import { useSession } from "#web/features/auth/use-session";
import { AgentStrip } from "#web/features/agents/agent-strip";
import { TrendCard } from "#web/features/agents/trends/trend-card";
import { TrendSettingsForm } from "#web/features/agents/trends/trend-settings-form";
import { useLiveRevalidate } from "#web/features/agents/use-live-revalidate";
import { api, call, errorMessage } from "#web/lib/api";
import { load } from "#web/lib/loader-context";

export const handle = { title: "Trends" };

interface TrendsData {
  trends: TrendDto[] | null;
  settings: TrendSettings | null;
  agents: AgentDto[] | null;
}

export async function loader({ context }: LoaderFunctionArgs): Promise<TrendsData> {
  const [trends, settings, agents] = await Promise.all([
    load(context, (api) => api.trends.get({ query: { limit: 100 } })).catch(() => null),
    load(context, (api) => api.trends.settings.get()).catch(() => null),
    load(context, (api) => api.agents.get()).catch(() => null),
  ]);
  return { trends, settings, agents };
}

export function Component() {
  const data = useLoaderData() as TrendsData;
  const { user } = useSession();
  const revalidator = useRevalidator();
  useLiveRevalidate(["TREND_DISCOVERED", "AGENT_UPDATE"], (m) => m.type === "TREND_DISCOVERED" || m.agentId === "trend-hunter");
  const hunter = data.agents?.find((a) => a.id === "trend-hunter");
  const trends = data.trends ?? [];

  async function save(next: TrendSettings): Promise<boolean> {
    try {
      await call(api.trends.settings.put(next));
      toast({ title: "Settings Saved", description: "TrendHunter rescans with the new settings." });
      void revalidator.revalidate();
      return true;
    } catch (err) {
      toast({
        title: "Save Failed",
        description: errorMessage(err, "Unable to save the trend settings. Please try again."),
        variant: "destructive",
      });
      return false;
    }
  }

  return (
    <div className="ag-page" aria-labelledby="trends-title">
      <Flex direction="column" gap="1">
        <Heading as="h1" size="7" id="trends-title">
          Trends
        </Heading>
        <Text color="gray">
          What most of the captured competitor sites have in common, with how sure TrendHunter is and where it saw it.
        </Text>
      </Flex>
      <AgentStrip agent={hunter} />
      {data.trends === null ? (
        <Callout.Root color="red">
          <Callout.Text>Trends could not be loaded. Try again in a moment.</Callout.Text>
        </Callout.Root>
      ) : trends.length === 0 ? (
        <Callout.Root>
          <Callout.Icon>
            <InfoCircledIcon />
          </Callout.Icon>
          <Callout.Text>
            No trends yet. A trend needs at least 3 captured sites sharing a pattern, and enough of them that a majority is likely (the
            confidence threshold). Run comparisons, keep the system launched, and TrendHunter reports what it finds.
          </Callout.Text>
        </Callout.Root>
      ) : (
        <section aria-labelledby="trends-found">
          <Heading as="h2" size="5" id="trends-found" mb="3">
            {`Discovered trends (${trends.length})`}
          </Heading>
          <div className="ag-grid ag-grid-trends">
            {trends.map((t) => (
              <TrendCard key={t.id} trend={t} />
            ))}
          </div>
        </section>
      )}
      <Text size="1" color="gray">
        Confidence is the chance that most sites share the pattern, given how many sites were measured (uniform prior). Direction compares
        the older and the newer half of the captures.{" "}
        {user?.role === "admin" ? "As an admin you see every site." : "Sites from other users are counted but never named."}
      </Text>
      {data.settings && <TrendSettingsForm settings={data.settings} editable={user?.role === "admin"} onSave={save} />}
    </div>
  );
}
